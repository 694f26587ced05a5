import RolodeckCore

/// Reads a salutation's fields from a JSON object: a store may keep its forms of address as
/// records of their own (`salutations.json`), as the address app whose `Anrede` entity contacts
/// point to does, and contacts name one by id.
enum SalutationFields {
    /// The members of a salutation object.
    enum Field: String, CaseIterable, Sendable {
        case id, text
    }

    /// The members of the object a contact names a salutation record with, `{"id": …}`.
    enum ReferenceField: String, CaseIterable, Sendable {
        case id
    }

    private static let names = MemberNames<Field>(keys: StoreDecoder.knownKeys)
    private static let referenceNames = MemberNames<ReferenceField>(keys: StoreDecoder.knownKeys)

    /// Every field a salutation may have.
    static let known = Field.allCases.map(\.rawValue)

    /// Reads the salutation object whose `{` the parser stands at, `depth` deep counting
    /// itself, which starts at `offset`: its id and where that is written (nil when it has no
    /// usable id), and its text, nil when it has none (the reason is reported).
    static func decode(_ parser: inout JSONParser, depth: Int, at offset: Int, reader: inout RecordReader)
        throws(JSONSyntaxError) -> (id: (String, Int)?, text: String?)
    {
        var idMember: JSONMember?
        var text: String?
        try reader.readMembers(of: &parser, depth: depth, names: names) {
            (reader, parser, key, field) throws(JSONSyntaxError) in
            switch field {
            case .id: idMember = try parser.member(key)
            case .text: text = try reader.string(key, from: &parser)
            case nil: reader.unknown(try parser.member(key), known: known)
            }
        }
        let identifier = reader.identifier(idMember, recordAt: offset)
        let id = identifier?.0 ?? ""
        guard let text, !text.isBlank else {
            if !id.isEmpty { reader.report(.missingField(.salutation, id: id, field: "text"), at: offset) }
            return (identifier, nil)
        }
        return (identifier, text)
    }

    /// Reads the `{"id": …}` object the parser stands at, the value of a contact's `key`
    /// (`salutation`): the id it names and where that is written, or nil after reporting an
    /// object without a usable id.
    static func reference(_ key: JSONMemberKey, from parser: inout JSONParser, reader: inout RecordReader)
        throws(JSONSyntaxError) -> (String, Int)?
    {
        let objectOffset = parser.offset
        var id: (String, Int)?
        // An id that is not a string is reported as that, not again as missing.
        var isWrongType = false
        try reader.readMembers(of: &parser, depth: key.depth + 1, names: referenceNames) {
            (reader, parser, key, field) throws(JSONSyntaxError) in
            switch field {
            case .id:
                let (offset, reported) = (parser.offset, reader.diagnostics.count)
                let text = try reader.string(key, from: &parser)
                isWrongType = reader.diagnostics.count > reported
                id = text.isBlank ? nil : (text, offset)
            case nil: reader.unknown(try parser.member(key), known: ["id"])
            }
        }
        if id == nil, !isWrongType { reader.report(.salutationWithoutID, at: objectOffset) }
        return id
    }
}
