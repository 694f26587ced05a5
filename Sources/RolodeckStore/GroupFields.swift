import RolodeckCore

/// Reads a group's fields from a JSON object.
enum GroupFields {
    /// The members of a group object.
    enum Field: String, CaseIterable, Sendable {
        case id, name, notes, `private`
    }

    private static let names = MemberNames<Field>(keys: StoreDecoder.knownKeys)

    /// Every field a group may have.
    static let known = Field.allCases.map(\.rawValue)

    /// Reads the group object whose `{` the parser stands at, `depth` deep counting itself,
    /// which starts at `offset`: its id and where that is written (nil when it has no usable
    /// id), and the group, nil when it lacks what a group needs (the reason is reported).
    static func decode(_ parser: inout JSONParser, depth: Int, at offset: Int, reader: inout RecordReader)
        throws(JSONSyntaxError) -> (id: (String, Int)?, group: Group?) {
        var idMember: JSONMember?
        var name: String?
        var notes = ""
        var classification: String?
        try reader.readMembers(of: &parser, depth: depth, names: names) {
            (reader, parser, key, field) throws(JSONSyntaxError) in
            switch field {
            case .id: idMember = try parser.member(key)
            case .name: name = try reader.string(key, from: &parser)
            case .notes: notes = try reader.string(key, from: &parser)
            case .private: classification = reader.classification(try parser.member(key))
            case nil: reader.unknown(try parser.member(key), known: known)
            }
        }
        let identifier = reader.identifier(idMember, recordAt: offset)
        let id = identifier?.0 ?? ""
        guard let name, !name.isBlank else {
            if !id.isEmpty { reader.report(.missingField(.group, id: id, field: "name"), at: offset) }
            return (identifier, nil)
        }
        var group = Group(id: id, name: name, notes: notes)
        group.classification = classification
        return (identifier, group)
    }
}
