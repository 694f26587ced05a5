/// Reads a group's fields from a JSON object.
enum GroupFields {
    /// Every field a group may have.
    static let known = ["id", "name", "notes"]

    /// The group, or nil when it lacks what a group needs (the reason is reported).
    static func decode(_ members: [JSONMember], id: String, at offset: Int, reader: inout RecordReader) -> Group? {
        var name: String?
        var notes = ""
        reader.forEachMember(of: members) { reader, member in
            switch member.key {
            case "id": break
            case "name": name = reader.string(member)
            case "notes": notes = reader.string(member)
            default: reader.unknown(member, known: known)
            }
        }
        guard let name, !name.isBlank else {
            if !id.isEmpty { reader.report(.missingField(.group, id: id, field: "name"), at: offset) }
            return nil
        }
        return Group(id: id, name: name, notes: notes)
    }
}
