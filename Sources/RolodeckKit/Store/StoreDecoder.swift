/// Turns store files into a validated `Store`, collecting every problem before giving up.
///
/// Records are decoded in two steps. Each record on its own (types, fields, dates) can be
/// decoded on any core, so a large array file is split into its elements and those are parsed
/// and decoded in parallel, each element's JSON tree freed once it is read. What relates
/// records to each other (duplicate ids, references) is then checked in file order.
public struct StoreDecoder {
    private var store = Store()
    private var diagnostics: [Diagnostic] = []
    private var contactIDs: [String: Mark] = [:]
    private var groupIDs: [String: Mark] = [:]
    private var todoIDs: [String: Mark] = [:]
    private var groupReferences: [Reference] = []
    private var contactReferences: [Reference] = []

    /// A place in a file; turned into a line and column only when a message needs it.
    struct Mark: Sendable {
        var source: SourceText
        var offset: Int
        var location: SourceLocation { source.location(at: offset) }
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
            decoder.read(file)
        }
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
    }
}
