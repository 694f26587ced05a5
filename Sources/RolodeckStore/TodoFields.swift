import RolodeckCore

/// Reads a todo's fields from a JSON object.
enum TodoFields {
    /// The members of a todo object.
    enum Field: String, CaseIterable, Sendable {
        case id, title, done, due, priority, contact, notes, categories, parent, `private`
    }

    private static let names = MemberNames<Field>(keys: StoreDecoder.knownKeys)

    /// Every field a todo may have.
    static let known = Field.allCases.map(\.rawValue)

    /// What a todo object yields: the todo (nil when it lacks a title), its id and where that is
    /// written (nil when it has no usable id), its contact reference and its parent reference.
    struct Decoded {
        var todo: Todo?
        var id: (String, Int)?
        var contactReference: (String, Int)?
        var parentReference: (String, Int)?
    }

    /// Reads the todo object whose `{` the parser stands at, `depth` deep counting itself,
    /// which starts at `offset`.
    static func decode(_ parser: inout JSONParser, depth: Int, at offset: Int, reader: inout RecordReader)
        throws(JSONSyntaxError) -> Decoded {
        var todo = Todo(id: "", title: "")
        var idMember: JSONMember?
        var hasTitle = false
        var reference: (String, Int)?
        var parent: (String, Int)?
        try reader.readMembers(of: &parser, depth: depth, names: names) {
            (reader, parser, key, field) throws(JSONSyntaxError) in
            let member = try parser.member(key)
            switch field {
            case .id: idMember = member
            case .title:
                todo.title = reader.string(member)
                hasTitle = !todo.title.isBlank
            case .done: todo.done = reader.bool(member)
            case .private: todo.classification = reader.classification(member)
            case .due: todo.due = dueDate(member, reader: &reader)
            case .priority: todo.priority = priority(member, reader: &reader)
            case .contact:
                let contactID = reader.string(member)
                if !contactID.isEmpty {
                    todo.contactID = contactID
                    reference = (contactID, member.value.offset)
                }
            case .notes: todo.notes = reader.string(member)
            case .categories:
                for (name, _) in reader.strings(member) where !name.isBlank && !todo.categories.contains(name) {
                    todo.categories.append(name)
                }
            case .parent:
                let parentID = reader.string(member)
                if !parentID.isEmpty {
                    todo.parentID = parentID
                    parent = (parentID, member.value.offset)
                }
            case nil: reader.unknown(member, known: known)
            }
        }
        let identifier = reader.identifier(idMember, recordAt: offset)
        let id = identifier?.0 ?? ""
        todo.id = id
        if !hasTitle {
            if !id.isEmpty { reader.report(.missingField(.todo, id: id, field: "title"), at: offset) }
            return Decoded(todo: nil, id: identifier, contactReference: reference, parentReference: parent)
        }
        return Decoded(todo: todo, id: identifier, contactReference: reference, parentReference: parent)
    }

    /// `YYYY-MM-DD`, or `YYYY-MM-DDTHH:MM` (seconds allowed and ignored).
    private static func dueDate(_ member: JSONMember, reader: inout RecordReader) -> DueDate? {
        let text = reader.string(member)
        guard !text.isEmpty else { return nil }
        let parts = text.split(separator: "T", maxSplits: 1)
        let dateText = String(parts[0])
        if let date = PartialDate.parse(dateText), date.year != nil {
            if parts.count == 1 { return DueDate(date: date) }
            let time = parts[1].split(separator: ":")
            if (2...3).contains(time.count), time.allSatisfy({ $0.count == 2 }),
               let hour = Int(time[0]), let minute = Int(time[1]), (0..<24).contains(hour), (0..<60).contains(minute),
               time.count == 2 || Int(time[2]).map({ (0..<61).contains($0) }) == true {
                return DueDate(date: date, hour: hour, minute: minute)
            }
        }
        let detail = dateText.hasPrefix("--") ? nil : PartialDate.whyInvalid(dateText)
        reader.report(.invalidDate(field: "due", text: text, detail: detail), at: member.value.offset)
        return nil
    }

    /// "high" / "medium" / "low", or an iCalendar number: 1–4 high, 5 medium, 6–9 low, 0 none.
    private static func priority(_ member: JSONMember, reader: inout RecordReader) -> Todo.Priority? {
        switch member.value.kind {
        case .null:
            return nil
        case .string(let text):
            if text.isEmpty || text.lowercased() == "none" { return nil }
            if let priority = Todo.Priority(rawValue: text.lowercased()) { return priority }
            reader.report(.invalidPriority("\"\(text)\""), at: member.value.offset)
            return nil
        case .number(let value, let text):
            switch value {
            case 0: return nil
            case 1...4 where value.rounded() == value: return .high
            case 5: return .medium
            case 6...9 where value.rounded() == value: return .low
            default:
                reader.report(.invalidPriority(text), at: member.value.offset)
                return nil
            }
        default:
            reader.report(.wrongType(field: "priority", expected: "a string or a number",
                                     found: member.value.typeDescription),
                          at: member.value.offset)
            return nil
        }
    }
}
