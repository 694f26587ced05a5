/// A named set of contacts ("Family", "Team Berlin").
public struct Group: Sendable, Hashable, Identifiable {
    /// The store's unique id, referred to from contacts.
    public var id: String
    /// The name shown.
    public var name: String
    /// Notes in Markdown.
    public var notes = ""
    /// The access classification it is given (a group card's `CLASS`, or `PRIVATE` for a JSON
    /// group marked `"private": true`), in capitals; nil when it has none.
    /// `AccessClass.isPrivate` says whether the site leaves the group out.
    public var classification: String?

    /// Creates a group.
    public init(id: String, name: String, notes: String = "") {
        self.id = id
        self.name = name
        self.notes = notes
    }

    /// Whether id, name, notes and classification have the same bytes (`String.hasSameBytes`).
    public static func == (lhs: Group, rhs: Group) -> Bool {
        lhs.id.hasSameBytes(as: rhs.id) && lhs.name.hasSameBytes(as: rhs.name)
            && lhs.notes.hasSameBytes(as: rhs.notes)
            && lhs.classification.hasSameBytes(as: rhs.classification)
    }
}
