/// A named set of contacts ("Family", "Team Berlin").
public struct Group: Sendable, Hashable, Identifiable {
    /// The store's unique id, referred to from contacts.
    public var id: String
    /// The name shown.
    public var name: String
    /// Notes in Markdown.
    public var notes = ""

    /// Creates a group.
    public init(id: String, name: String, notes: String = "") {
        self.id = id
        self.name = name
        self.notes = notes
    }
}
