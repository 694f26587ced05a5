/// A named set of contacts ("Family", "Team Berlin").
package struct Group: Sendable, Hashable, Identifiable {
    /// The store's unique id, referred to from contacts.
    package var id: String
    /// The name shown.
    package var name: String
    /// Notes in Markdown.
    package var notes = ""

    /// Creates a group.
    package init(id: String, name: String, notes: String = "") {
        self.id = id
        self.name = name
        self.notes = notes
    }
}
