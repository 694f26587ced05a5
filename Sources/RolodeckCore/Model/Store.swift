/// Everything the store holds, validated: contacts, groups and todos in the order read.
package struct Store: Sendable {
    /// Contacts in file order.
    package var contacts: [Contact]
    /// Groups in file order.
    package var groups: [Group]
    /// Todos in the user's order.
    package var todos: [Todo]

    /// Creates a store.
    package init(contacts: [Contact] = [], groups: [Group] = [], todos: [Todo] = []) {
        self.contacts = contacts
        self.groups = groups
        self.todos = todos
    }
}
