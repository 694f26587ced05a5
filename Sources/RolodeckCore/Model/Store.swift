/// Everything the store holds, validated: contacts, groups and todos in the order read.
public struct Store: Sendable {
    /// Contacts in file order.
    public var contacts: [Contact]
    /// Groups in file order.
    public var groups: [Group]
    /// Todos in the user's order.
    public var todos: [Todo]

    /// Creates a store.
    public init(contacts: [Contact] = [], groups: [Group] = [], todos: [Todo] = []) {
        self.contacts = contacts
        self.groups = groups
        self.todos = todos
    }
}
