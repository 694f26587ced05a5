/// Turns store files into a validated `Store`, collecting every problem before giving up.
///
/// JSON records are decoded in two steps. Each record on its own (types, fields, dates) can be
/// decoded on any core, so a large array file is split into its elements and those are parsed
/// and decoded in parallel, each element's JSON tree freed once it is read. What relates
/// records to each other (duplicate ids, references) is then checked in file order.
///
/// vCard and iCalendar records are collected as their files are read and merged into the store
/// once every file is known (`StoreDecoder+VCard`, `StoreDecoder+ICalendar`), because their
/// groups, members and subtasks refer to one another across files.
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
    enum Mark: Sendable {
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
        let records: [DecodedRecord]
        if case .list = file.layout, let elements = JSONArraySplitter.elements(of: source.bytes) {
            records = ParallelWork.map(elements.count, batch: 512) { index in
                do throws(JSONSyntaxError) {
                    let value = try JSONParser.parse(source.bytes, range: elements[index])
                    return DecodedRecord(value, kind: file.kind, source: source)
                } catch {
                    return DecodedRecord(syntaxError: error, source: source)
                }
            }
        } else {
            let root: JSONValue
            do {
                root = try JSONParser.parse(source.bytes)
            } catch {
                diagnostics.append(Diagnostic(.error, at: source.location(at: error.offset), error.message))
                return
            }
            switch (root.kind, file.layout) {
            case (.array(let elements), _):
                records = elements.map { DecodedRecord($0, kind: file.kind, source: source) }
            case (.object, .single):
                records = [DecodedRecord(root, kind: file.kind, source: source)]
            default:
                let issue = StoreIssue(.wrongTopLevel(file.kind, found: root.typeDescription, expected: "an array"))
                diagnostics.append(Diagnostic(issue.severity, at: source.location(at: root.offset), issue.message))
                return
            }
        }
        for record in records {
            accept(record, source: source)
        }
    }

    /// Adds a decoded record to the store unless its id is missing or already taken, and
    /// remembers its references for the end.
    private mutating func accept(_ record: DecodedRecord, source: SourceText) {
        diagnostics += record.diagnostics
        for (groupID, offset) in record.groupReferences {
            groupReferences.append(Reference(from: record.id ?? "", to: groupID, mark: Mark(source: source, offset: offset)))
        }
        if let (contactID, offset) = record.contactReference {
            contactReferences.append(Reference(from: record.id ?? "", to: contactID, mark: Mark(source: source, offset: offset)))
        }
        if let (parentID, offset) = record.parentReference {
            parentReferences.append(Reference(from: record.id ?? "", to: parentID, mark: Mark(source: source, offset: offset)))
        }
        guard let id = record.id, let kind = record.kind else { return }
        let mark = Mark(source: source, offset: record.idOffset)
        let known: Mark?
        switch kind {
        case .contact: known = contactIDs[id]
        case .group: known = groupIDs[id]
        case .todo: known = todoIDs[id]
        }
        if let known {
            let issue = StoreIssue(.duplicateID(kind, id: id, first: known.location))
            diagnostics.append(Diagnostic(issue.severity, at: mark.location, issue.message))
            return
        }
        switch record.payload {
        case .contact(let contact):
            contactIDs[id] = mark
            store.contacts.append(contact)
        case .group(let group):
            groupIDs[id] = mark
            store.groups.append(group)
        case .todo(let todo):
            todoIDs[id] = mark
            store.todos.append(todo)
        case .none:
            break
        }
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
