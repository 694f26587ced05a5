import RolodeckCore

/// Reads the members of one JSON object, checking each value's type and collecting issues
/// with their locations.
struct RecordReader {
    let source: SourceText
    let kind: RecordKind?
    private(set) var diagnostics: [Diagnostic] = []

    init(source: SourceText, kind: RecordKind?) {
        self.source = source
        self.kind = kind
    }

    /// Records an issue at a byte offset.
    mutating func report(_ reason: StoreIssue.Reason, at offset: Int) {
        let issue = StoreIssue(reason)
        if case .syntax = reason {
            diagnostics.append(.syntaxError(at: source.location(at: offset), issue.message))
            return
        }
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

    /// Reads the object whose `{` the parser stands at, `depth` deep counting itself, a member at
    /// a time, without making a tree of it: `body` is called with each key and the field it names
    /// (nil for a key `names` does not know), and reads the member's value. A repeated key is
    /// reported when it is met, before `body` sees it (so the last one is used).
    mutating func readMembers<Field>(
        of parser: inout JSONParser, depth: Int, names: MemberNames<Field>,
        _ body: (inout RecordReader, inout JSONParser, JSONMemberKey, Field?) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        // A set of field indices instead of a dictionary of keys: a known name can only repeat a
        // known name, so only unknown keys are compared as strings, and only those are kept.
        var seen: UInt64 = 0
        var firstOffsets = InlineArray<64, Int>(repeating: 0)
        var unknownKeys: [JSONMemberKey] = []
        let isFromKeys = names.keys != nil && parser.keys === names.keys
        try parser.readObject(depth: depth) { (parser, key) throws(JSONSyntaxError) in
            let field: Field?
            if let index = names.index(of: key, isFromKeys: isFromKeys) {
                field = names.fields[index]
                let bit: UInt64 = 1 << index
                if seen & bit == 0 {
                    seen |= bit
                    firstOffsets[index] = key.keyOffset
                } else {
                    report(.duplicateKey(key.key, first: source.location(at: firstOffsets[index])),
                           at: key.keyOffset)
                }
            } else {
                field = nil
                if let first = unknownKeys.first(where: { $0.key == key.key }) {
                    report(.duplicateKey(key.key, first: source.location(at: first.keyOffset)),
                           at: key.keyOffset)
                } else {
                    unknownKeys.append(key)
                }
            }
            try body(&self, &parser, key, field)
        }
    }

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

    /// The value of the member whose key was just read as a string; null reads as empty,
    /// anything else is a type error.
    mutating func string(_ key: JSONMemberKey, from parser: inout JSONParser)
        throws(JSONSyntaxError) -> String {
        // Nearly always a string: read as one, not made into a value and a member first.
        if parser.nextByte == UInt8(ascii: "\"") { return try parser.parseString() }
        return string(try parser.member(key))
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

    /// The access classification a record's `"private"` gives, as a vCard's or a todo's `CLASS`
    /// would: `PRIVATE` for true; nil, as a record without a mark, for false or null.
    mutating func classification(_ member: JSONMember) -> String? {
        bool(member) ? "PRIVATE" : nil
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
            if let string = stringElement(element, of: member.key) { result.append(string) }
        }
        return result
    }

    /// An element of an array of strings, with its offset, or nil after reporting that it is not
    /// a string.
    private mutating func stringElement(_ element: JSONValue, of field: String) -> (String, Int)? {
        guard case .string(let text) = element.kind else {
            report(.wrongType(field: field, expected: "an array of strings",
                              found: "an array containing \(element.typeDescription)"),
                   at: element.offset)
            return nil
        }
        return (text, element.offset)
    }

    /// The value of the member whose key was just read as an array of strings (ids), with each
    /// element's offset; null reads as empty.
    mutating func strings(_ key: JSONMemberKey, from parser: inout JSONParser) throws(JSONSyntaxError)
        -> [(String, Int)] {
        var result: [(String, Int)] = []
        try forEachElement(key, of: &parser) { (reader, parser) throws(JSONSyntaxError) in
            let offset = parser.offset
            if parser.nextByte == UInt8(ascii: "\"") {
                result.append((try parser.parseString(), offset))
                return
            }
            let element = try parser.parseValue(depth: key.depth + 1)
            if let string = reader.stringElement(element, of: key.key) { result.append(string) }
        }
        return result
    }

    /// Reads the value of the member whose key was just read as an array, calling `body` when the
    /// parser stands at each element (which `body` reads, `key.depth + 1` deep); null reads as
    /// empty, anything else is a type error.
    mutating func forEachElement(
        _ key: JSONMemberKey, of parser: inout JSONParser,
        _ body: (inout RecordReader, inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard parser.nextByte == UInt8(ascii: "[") else {
            _ = array(try parser.member(key))
            return
        }
        try parser.readArray(depth: key.depth + 1) { (parser) throws(JSONSyntaxError) in
            try body(&self, &parser)
        }
    }

    /// The record's id and where its value is, from the last `id` member (nil when there is
    /// none), or nil after reporting why there is none (missing, empty, not a string).
    mutating func identifier(_ member: JSONMember?, recordAt offset: Int) -> (String, Int)? {
        guard let kind else { return nil }
        guard let member else {
            report(.missingID(kind), at: offset)
            return nil
        }
        guard case .string(let id) = member.value.kind else {
            report(.wrongType(field: "id", expected: "a string", found: member.value.typeDescription),
                   at: member.value.offset)
            return nil
        }
        guard !id.isBlank else {
            report(.emptyID(kind), at: member.value.offset)
            return nil
        }
        return (id, member.value.offset)
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

    private static let labeledValueNames = MemberNames<LabeledValueField>(keys: StoreDecoder.knownKeys)

    /// Reads the value of the member whose key was just read, `[{label, value}]` (or plain
    /// strings), as labelled values.
    mutating func labeledValues(_ key: JSONMemberKey, from parser: inout JSONParser) throws(JSONSyntaxError)
        -> [LabeledValue]
    {
        var values: [LabeledValue] = []
        try forEachElement(key, of: &parser) { (reader, parser) throws(JSONSyntaxError) in
            if let value = try reader.labeledValue(of: key, from: &parser) { values.append(value) }
        }
        return values
    }

    /// The element of `key`'s array that the parser stands at as a labelled value: a plain
    /// string is one without a label; nil for null, or after reporting an element of another
    /// type or an object without a value.
    private mutating func labeledValue(of key: JSONMemberKey, from parser: inout JSONParser)
        throws(JSONSyntaxError) -> LabeledValue?
    {
        switch parser.nextByte {
        case UInt8(ascii: "\""): return LabeledValue(label: "", value: try parser.parseString())
        case UInt8(ascii: "{"): return try labeledValueObject(of: key, from: &parser)
        default: return labeledValueElement(try parser.parseValue(depth: key.depth + 1), of: key)
        }
    }

    /// The `{label, value}` object the parser stands at (`type` is another name for the label),
    /// or nil after reporting that it has no value.
    private mutating func labeledValueObject(of key: JSONMemberKey, from parser: inout JSONParser)
        throws(JSONSyntaxError) -> LabeledValue?
    {
        let objectOffset = parser.offset
        var label = ""
        var value: String?
        try readMembers(of: &parser, depth: key.depth + 2, names: Self.labeledValueNames) {
            (reader, parser, key, field) throws(JSONSyntaxError) in
            switch field {
            case .label, .type: label = try reader.string(key, from: &parser)
            case .value: value = try reader.string(key, from: &parser)
            case nil: reader.unknown(try parser.member(key), known: ["label", "value"])
            }
        }
        guard let value else {
            report(.missingValue(field: key.key), at: objectOffset)
            return nil
        }
        return LabeledValue(label: consume label, value: consume value)
    }

    /// An element of a labelled-values array that is neither a string read as one nor an
    /// object: a string is a value without a label; nil for null, or after reporting the type.
    private mutating func labeledValueElement(_ element: JSONValue, of key: JSONMemberKey) -> LabeledValue? {
        switch element.kind {
        case .string(let text):
            return LabeledValue(label: "", value: text)
        case .null:
            return nil
        default:
            let expected = "an array of {\"label\", \"value\"} objects"
            let found = "an array containing \(element.typeDescription)"
            report(.wrongType(field: key.key, expected: expected, found: found), at: element.offset)
            return nil
        }
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
