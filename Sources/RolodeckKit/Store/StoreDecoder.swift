/// Turns store files into a validated `Store`, collecting every problem before giving up.
///
/// JSON records are decoded file by file. vCard and iCalendar records are collected as their
/// files are read and merged into the store once every file is known (`StoreDecoder+VCard`,
/// `StoreDecoder+ICalendar`), because their groups, members and subtasks refer to one another
/// across files.
public struct StoreDecoder {
    var store = Store()
    var diagnostics: [Diagnostic] = []
    var contactIDs: [String: Mark] = [:]
    var groupIDs: [String: Mark] = [:]
    var todoIDs: [String: Mark] = [:]
    private var groupReferences: [Reference] = []
    private var contactReferences: [Reference] = []
    private var parentReferences: [Reference] = []
    /// The records of vCard files, in reading order.
    var cards: [VCardRecord] = []
    /// The todos of iCalendar files, in reading order, with their task list's name.
    var calendarTodos: [ICalendarTodo] = []

    /// A place in a file; turned into a line and column only when a message needs it.
    enum Mark {
        /// A byte offset in a JSON file.
        case offset(SourceText, Int)
        /// A location already known (vCard and iCalendar records).
        case location(SourceLocation)

        init(source: SourceText, offset: Int) {
            self = .offset(source, offset)
        }

        var location: SourceLocation {
            switch self {
            case .offset(let source, let offset): return source.location(at: offset)
            case .location(let location): return location
            }
        }
    }

    /// A reference to a record by id, remembered until every file has been read.
    struct Reference {
        var from: String
        var to: String
        var mark: Mark
    }

    /// Decodes the files in order; the store is complete only when no diagnostic is an error.
    public static func decode(_ files: [StoreFile]) -> (store: Store, diagnostics: [Diagnostic]) {
        var decoder = StoreDecoder()
        for file in files {
            switch file.layout {
            case .list, .single: decoder.read(file)
            case .vCard: decoder.readVCard(file)
            case .iCalendar: decoder.readICalendar(file)
            }
        }
        decoder.mergeCards()
        decoder.mergeCalendarTodos()
        decoder.resolveReferences()
        return (decoder.store, decoder.diagnostics.sortedByLocation())
    }

    private mutating func read(_ file: StoreFile) {
        let source = file.source
        for offset in UTF8Validator.invalidOffsets(in: source.bytes) {
            let issue = StoreIssue(.invalidUTF8(byte: source.bytes[offset]))
            diagnostics.append(Diagnostic(.error, at: source.location(at: offset), issue.message))
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(source.bytes)
        } catch {
            diagnostics.append(Diagnostic(.error, at: source.location(at: error.offset), error.message))
            return
        }
        var reader = RecordReader(source: source, kind: file.kind)
        switch (root.kind, file.layout) {
        case (.array(let elements), _):
            for element in elements {
                decodeRecord(element, kind: file.kind, reader: &reader)
            }
        case (.object, .single):
            decodeRecord(root, kind: file.kind, reader: &reader)
        default:
            reader.report(.wrongTopLevel(file.kind, found: root.typeDescription, expected: "an array"),
                          at: root.offset)
        }
        diagnostics += reader.diagnostics
    }

    private mutating func decodeRecord(_ value: JSONValue, kind: StoreIssue.RecordKind, reader: inout RecordReader) {
        guard case .object(let members) = value.kind else {
            reader.report(.notAnObject(kind, found: value.typeDescription), at: value.offset)
            return
        }
        // Without a usable id the fields are still read, so their own problems show in this run.
        let (id, idOffset) = identifier(of: members, at: value.offset, kind: kind, reader: &reader)
            ?? ("", value.offset)
        decodeFields(members, id: id, kind: kind, offset: value.offset, idOffset: idOffset, reader: &reader)
    }

    private mutating func decodeFields(_ members: [JSONMember], id: String, kind: StoreIssue.RecordKind,
                                       offset: Int, idOffset: Int, reader: inout RecordReader) {
        switch kind {
        case .contact:
            let contact = ContactFields.decode(members, id: id, at: offset, reader: &reader)
            for (groupID, groupOffset) in contact.groupOffsets {
                groupReferences.append(Reference(from: id, to: groupID, mark: Mark(source: reader.source, offset: groupOffset)))
            }
            guard !id.isEmpty else { return }
            contactIDs[id] = Mark(source: reader.source, offset: idOffset)
            store.contacts.append(contact.contact)
        case .group:
            let group = GroupFields.decode(members, id: id, at: offset, reader: &reader)
            guard !id.isEmpty, let group else { return }
            groupIDs[id] = Mark(source: reader.source, offset: idOffset)
            store.groups.append(group)
        case .todo:
            let todo = TodoFields.decode(members, id: id, at: offset, reader: &reader)
            if let (contactID, contactOffset) = todo.contactReference {
                contactReferences.append(Reference(from: id, to: contactID,
                                                   mark: Mark(source: reader.source, offset: contactOffset)))
            }
            if let (parentID, parentOffset) = todo.parentReference {
                parentReferences.append(Reference(from: id, to: parentID,
                                                  mark: Mark(source: reader.source, offset: parentOffset)))
            }
            guard !id.isEmpty, let value = todo.todo else { return }
            todoIDs[id] = Mark(source: reader.source, offset: idOffset)
            store.todos.append(value)
        }
    }

    /// The record's id and its offset, or nil after reporting why there is none (missing, empty,
    /// wrong type, already used).
    private mutating func identifier(of members: [JSONMember], at offset: Int, kind: StoreIssue.RecordKind,
                                     reader: inout RecordReader) -> (String, Int)? {
        guard let member = members.last(where: { $0.key == "id" }) else {
            reader.report(.missingID(kind), at: offset)
            return nil
        }
        guard case .string(let id) = member.value.kind else {
            reader.report(.wrongType(field: "id", expected: "a string", found: member.value.typeDescription),
                          at: member.value.offset)
            return nil
        }
        guard !id.isBlank else {
            reader.report(.emptyID(kind), at: member.value.offset)
            return nil
        }
        let known: Mark?
        switch kind {
        case .contact: known = contactIDs[id]
        case .group: known = groupIDs[id]
        case .todo: known = todoIDs[id]
        }
        if let known {
            reader.report(.duplicateID(kind, id: id, first: known.location), at: member.value.offset)
            return nil
        }
        return (id, member.value.offset)
    }

    private mutating func resolveReferences() {
        for reference in groupReferences where groupIDs[reference.to] == nil {
            let issue = StoreIssue(.unknownGroup(contactID: reference.from, groupID: reference.to))
            diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
        }
        for reference in contactReferences where contactIDs[reference.to] == nil {
            let issue = StoreIssue(.unknownContact(todoID: reference.from, contactID: reference.to))
            diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
        }
        var parents: [String: String] = [:]
        for todo in store.todos {
            if let parent = todo.parentID { parents[todo.id] = parent }
        }
        for reference in parentReferences {
            guard todoIDs[reference.to] != nil else {
                let issue = StoreIssue(.unknownParent(todoID: reference.from, parentID: reference.to))
                diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
                continue
            }
            // Following the parents from here must not come back here.
            var seen: Set<String> = []
            var next: String? = reference.to
            while let id = next, seen.insert(id).inserted {
                if id == reference.from {
                    let issue = StoreIssue(.subtaskCycle(todoID: reference.from))
                    diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
                    break
                }
                next = parents[id]
            }
        }
    }
}
