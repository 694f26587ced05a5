/// Reads a group's fields from a JSON object.
enum GroupFields {
    /// The members of a group object.
    enum Field: String, CaseIterable, Sendable {
        case id, name, notes
    }

    private static let names = MemberNames<Field>()

    /// Every field a group may have.
    static let known = Field.allCases.map(\.rawValue)

    /// The group, or nil when it lacks what a group needs (the reason is reported).
    static func decode(_ members: [JSONMember], id: String, at offset: Int, reader: inout RecordReader) -> Group? {
        var name: String?
        var notes = ""
        reader.forEachMember(of: members, names: names) { reader, member, field in
            switch field {
            case .id: break
            case .name: name = reader.string(member)
            case .notes: notes = reader.string(member)
            case nil: reader.unknown(member, known: known)
            }
        }
        guard let name, !name.isBlank else {
            if !id.isEmpty { reader.report(.missingField(.group, id: id, field: "name"), at: offset) }
            return nil
        }
        return Group(id: id, name: name, notes: notes)
    }
}
