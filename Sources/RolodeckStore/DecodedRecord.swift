import RolodeckCore

/// One store record decoded on its own, before it is related to the others: the record (when
/// it is usable), its id, the ids it refers to, and the problems found in it.
struct DecodedRecord: Sendable {
    /// The record itself.
    enum Payload: Sendable {
        case contact(Contact)
        case group(Group)
        case todo(Todo)
        /// A salutation record's text.
        case salutation(String)
        case none
    }

    var kind: RecordKind?
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
    /// The salutation record a contact names, with where its id is written.
    var salutationReference: (String, Int)?
    /// The photo file a contact names (a path inside the store), with where it is written.
    var photoReference: (String, Int)?
    /// The id of a record that has one but is left out for another reason (a group without a
    /// name): a reference to it is not reported, the record's own error is.
    var rejectedID: String?
    /// Whether this stands for text that could not be read as records at all: any record of
    /// its kind may have been in it, so references to that kind are not checked.
    var isUnread = false
    var diagnostics: [Diagnostic] = []

    /// What stands for records of `kind` that could not be read at all (text that does not
    /// parse, or a file whose top level is not an array): `diagnostic` says why.
    init(unread kind: RecordKind, _ diagnostic: Diagnostic) {
        self.kind = kind
        isUnread = true
        diagnostics = [diagnostic]
    }

    /// What stands for a record of `kind`, or a file of them, that does not parse.
    init(syntaxError error: JSONSyntaxError, kind: RecordKind, source: SourceText) {
        self.init(unread: kind, .syntaxError(at: source.location(at: error.offset), error.message))
    }

    /// Reads the value the parser stands before, `depth` deep, as a record of `kind`, without
    /// making a tree of it. Throws when the value does not parse, and then nothing found in the
    /// record so far is kept: its syntax error is all it reports.
    init(reading parser: inout JSONParser, depth: Int, kind: RecordKind, source: SourceText)
        throws(JSONSyntaxError) {
        self.kind = kind
        let offset = parser.offset
        idOffset = offset
        var reader = RecordReader(source: source, kind: kind)
        guard parser.nextByte == UInt8(ascii: "{") else {
            let value = try parser.parseValue(depth: depth)
            reader.report(.notAnObject(kind, found: value.typeDescription), at: value.offset)
            diagnostics = reader.diagnostics
            return
        }
        // Without a usable id the fields are still read, so their own problems show in this run.
        let identifier: (String, Int)?
        switch kind {
        case .contact:
            let decoded = try ContactFields.decode(&parser, depth: depth + 1, at: offset, reader: &reader)
            identifier = decoded.id
            groupReferences = decoded.groupOffsets
            salutationReference = decoded.salutationReference
            photoReference = decoded.photoReference
            payload = .contact(decoded.contact)
        case .group:
            let decoded = try GroupFields.decode(&parser, depth: depth + 1, at: offset, reader: &reader)
            identifier = decoded.id
            if let group = decoded.group { payload = .group(group) }
        case .todo:
            let decoded = try TodoFields.decode(&parser, depth: depth + 1, at: offset, reader: &reader)
            identifier = decoded.id
            contactReference = decoded.contactReference
            parentReference = decoded.parentReference
            if let todo = decoded.todo { payload = .todo(todo) }
        case .salutation:
            let decoded = try SalutationFields.decode(&parser, depth: depth + 1, at: offset, reader: &reader)
            identifier = decoded.id
            if let text = decoded.text { payload = .salutation(text) }
        }
        diagnostics = reader.diagnostics
        if let (id, idOffset) = identifier {
            self.idOffset = idOffset
            // A record with an id has the payload of its kind.
            if case .none = payload {
                rejectedID = id
                return
            }
            self.id = id
        }
    }
}
