/// Reads the members of one JSON object, checking each value's type and collecting issues
/// with their locations.
struct RecordReader {
    let source: SourceText
    let kind: StoreIssue.RecordKind?
    private(set) var diagnostics: [Diagnostic] = []

    init(source: SourceText, kind: StoreIssue.RecordKind?) {
        self.source = source
        self.kind = kind
    }

    /// Records an issue at a byte offset.
    mutating func report(_ reason: StoreIssue.Reason, at offset: Int) {
        let issue = StoreIssue(reason)
        report(issue.severity, issue.message, at: offset)
    }

    /// Records a message from another subsystem (the config) at a byte offset.
    mutating func report(_ severity: Diagnostic.Severity, _ message: String, at offset: Int) {
        diagnostics.append(Diagnostic(severity, at: source.location(at: offset), message))
    }

    /// Calls `body` for each member, after reporting repeated keys (the last one is used).
    mutating func forEachMember(of members: [JSONMember], _ body: (inout RecordReader, JSONMember) -> Void) {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(members.count)
        for member in members {
            if let first = seen[member.key] {
                report(.duplicateKey(member.key, first: source.location(at: first)), at: member.keyOffset)
            } else {
                seen[member.key] = member.keyOffset
            }
        }
        for member in members {
            body(&self, member)
        }
    }

    /// Calls `body` for each member with the field its key names (nil for a key `names` does not
    /// know), after reporting repeated keys (the last one is used).
    mutating func forEachMember<Field>(
        of members: [JSONMember], names: MemberNames<Field>, _ body: (inout RecordReader, JSONMember, Field?) -> Void
    ) {
        // Each key is looked up once, its field index kept on the stack for the second pass; the
        // first pass reads only the keys, in place (a copy of a member would retain its value).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: members.count) { indices in
            members.withUnsafeBufferPointer { members in
                // A set of field indices instead of a dictionary of keys: a known name can only
                // repeat a known name, so only unknown keys are compared as strings.
                var seen: UInt64 = 0
                for position in members.indices {
                    let key = members[position].key
                    if let index = names.index(of: key) {
                        indices[position] = UInt8(truncatingIfNeeded: index)
                        let bit: UInt64 = 1 << index
                        guard seen & bit != 0 else {
                            seen |= bit
                            continue
                        }
                    } else {
                        indices[position] = Self.unknownField
                        if !members[..<position].contains(where: { $0.key == key }) { continue }
                    }
                    let first = members.first { $0.key == key }!
                    report(.duplicateKey(key, first: source.location(at: first.keyOffset)),
                           at: members[position].keyOffset)
                }
                for position in members.indices {
                    let index = indices[position]
                    let field = index == Self.unknownField ? nil : names.fields[Int(index)]
                    body(&self, members[position], field)
                }
            }
        }
    }

    /// The field index `forEachMember` keeps for a key no field has (tables hold at most 64).
    private static let unknownField: UInt8 = .max

    /// The value as a string; null reads as empty, anything else is a type error.
    mutating func string(_ member: JSONMember) -> String {
        switch member.value.kind {
        case .string(let text): return text
        case .null: return ""
        default:
            report(.wrongType(field: member.key, expected: "a string", found: member.value.typeDescription),
                   at: member.value.offset)
            return ""
        }
    }

    /// The value as a boolean; null reads as false.
    mutating func bool(_ member: JSONMember) -> Bool {
        switch member.value.kind {
        case .bool(let value): return value
        case .null: return false
        default:
            report(.wrongType(field: member.key, expected: "true or false", found: member.value.typeDescription),
                   at: member.value.offset)
            return false
        }
    }

    /// The value as an array's elements; null reads as empty.
    mutating func array(_ member: JSONMember) -> [JSONValue] {
        switch member.value.kind {
        case .array(let elements): return elements
        case .null: return []
        default:
            report(.wrongType(field: member.key, expected: "an array", found: member.value.typeDescription),
                   at: member.value.offset)
            return []
        }
    }

    /// The value as an array of strings (ids), with each element's offset.
    mutating func strings(_ member: JSONMember) -> [(String, Int)] {
        var result: [(String, Int)] = []
        for element in array(member) {
            if case .string(let text) = element.kind {
                result.append((text, element.offset))
            } else {
                report(.wrongType(field: member.key, expected: "an array of strings",
                                  found: "an array containing \(element.typeDescription)"),
                       at: element.offset)
            }
        }
        return result
    }

    /// Reports a field this record does not know, with a suggestion when one is close.
    mutating func unknown(_ member: JSONMember, known: [String]) {
        report(.unknownField(kind, field: member.key, suggestion: Suggestion.closest(to: member.key, in: known)),
               at: member.keyOffset)
    }

    /// The members of a `{label, value}` object (`type` is another name for the label).
    enum LabeledValueField: String, CaseIterable, Sendable {
        case label, type, value
    }

    private static let labeledValueNames = MemberNames<LabeledValueField>()

    /// Reads `[{label, value}]` (or plain strings) as labelled values.
    mutating func labeledValues(_ member: JSONMember) -> [LabeledValue] {
        let elements = array(member)
        var values: [LabeledValue] = []
        values.reserveCapacity(elements.count)
        for element in elements {
            switch element.kind {
            case .string(let text):
                values.append(LabeledValue(label: "", value: text))
            case .object(let members):
                var label = ""
                var value: String?
                forEachMember(of: members, names: Self.labeledValueNames) { reader, member, field in
                    switch field {
                    case .label, .type: label = reader.string(member)
                    case .value: value = reader.string(member)
                    case nil: reader.unknown(member, known: ["label", "value"])
                    }
                }
                if let value {
                    values.append(LabeledValue(label: label, value: value))
                } else {
                    report(.missingValue(field: member.key), at: element.offset)
                }
            case .null:
                continue
            default:
                report(.wrongType(field: member.key, expected: "an array of {\"label\", \"value\"} objects",
                                  found: "an array containing \(element.typeDescription)"),
                       at: element.offset)
            }
        }
        return values
    }

    /// Reads a date field; reports an impossible or malformed date.
    mutating func date(_ member: JSONMember) -> PartialDate? {
        let text = string(member)
        guard !text.isEmpty else { return nil }
        if let date = PartialDate.parse(text) { return date }
        report(.invalidDate(field: member.key, text: text, detail: PartialDate.whyInvalid(text)),
               at: member.value.offset)
        return nil
    }
}

extension PartialDate {
    /// Why text shaped like a date is not one ("February 1990 has 28 days"); nil if it is not
    /// shaped like a date at all.
    static func whyInvalid(_ text: String) -> String? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let numbers: (year: Int?, month: Int, day: Int)?
        if parts.count == 3, parts[0].count == 4, let year = Int(parts[0]), let month = Int(parts[1]),
           let day = Int(parts[2]), parts[1].count == 2, parts[2].count == 2 {
            numbers = (year, month, day)
        } else if parts.count == 4, parts[0].isEmpty, parts[1].isEmpty, let month = Int(parts[2]),
                  let day = Int(parts[3]), parts[2].count == 2, parts[3].count == 2 {
            numbers = (nil, month, day)
        } else {
            numbers = nil
        }
        guard let (year, month, day) = numbers else { return nil }
        guard (1...12).contains(month) else { return "there is no month \(month)" }
        let names = ["January", "February", "March", "April", "May", "June", "July", "August",
                     "September", "October", "November", "December"]
        let limit = PartialDate.daysIn(month: month, year: year)
        if day < 1 || day > limit {
            let when = year.map { "\(names[month - 1]) \($0)" } ?? names[month - 1]
            return "\(when) has \(limit) days"
        }
        if let year, year < 1 { return "there is no year \(year)" }
        return nil
    }
}
