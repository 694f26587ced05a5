/// One store record decoded on its own, before it is related to the others: the record (when
/// it is usable), its id, the ids it refers to, and the problems found in it.
struct DecodedRecord: Sendable {
    /// The record itself.
    enum Payload: Sendable {
        case contact(Contact)
        case group(Group)
        case todo(Todo)
        case none
    }

    var kind: StoreIssue.RecordKind?
    var payload: Payload = .none
    /// The id, when the record has a usable one.
    var id: String?
    /// Where the id's value is written (or the record starts, without one).
    var idOffset = 0
    /// Group ids a contact lists, with where each is written.
    var groupReferences: [(String, Int)] = []
    /// The contact a todo refers to, with where it is written.
    var contactReference: (String, Int)?
    /// The todo a subtask belongs to, with where it is written.
    var parentReference: (String, Int)?
    var diagnostics: [Diagnostic] = []

    /// A record that could not even be parsed.
    init(syntaxError error: JSONSyntaxError, source: SourceText) {
        diagnostics = [Diagnostic(.error, at: source.location(at: error.offset), error.message)]
    }

    /// Decodes one JSON value as a record of `kind`.
    init(_ value: JSONValue, kind: StoreIssue.RecordKind, source: SourceText) {
        self.kind = kind
        idOffset = value.offset
        var reader = RecordReader(source: source, kind: kind)
        defer { diagnostics = reader.diagnostics }
        guard case .object(let members) = value.kind else {
            reader.report(.notAnObject(kind, found: value.typeDescription), at: value.offset)
            return
        }
        // Without a usable id the fields are still read, so their own problems show in this run.
        if let (id, offset) = DecodedRecord.identifier(of: members, at: value.offset, kind: kind, reader: &reader) {
            self.id = id
            idOffset = offset
        }
        let id = self.id ?? ""
        switch kind {
        case .contact:
            let decoded = ContactFields.decode(members, id: id, at: value.offset, reader: &reader)
            groupReferences = decoded.groupOffsets
            payload = .contact(decoded.contact)
        case .group:
            if let group = GroupFields.decode(members, id: id, at: value.offset, reader: &reader) {
                payload = .group(group)
            }
        case .todo:
            let decoded = TodoFields.decode(members, id: id, at: value.offset, reader: &reader)
            contactReference = decoded.contactReference
            parentReference = decoded.parentReference
            if let todo = decoded.todo { payload = .todo(todo) }
        }
        if case .none = payload { self.id = nil }
    }

    /// The record's id and where its value is, or nil after reporting why there is none
    /// (missing, empty, not a string).
    private static func identifier(of members: [JSONMember], at offset: Int, kind: StoreIssue.RecordKind,
                                   reader: inout RecordReader) -> (String, Int)? {
        // The length first: most keys differ from "id" in it, and it costs no string comparison.
        guard let member = members.last(where: { $0.key.utf8.count == 2 && $0.key == "id" }) else {
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
        return (id, member.value.offset)
    }
}
