import RolodeckCore

extension Site {
    /// Leaves out of `store` the contacts, groups and todos their app marks private (a `CLASS`
    /// other than `PUBLIC`: `AccessClass.isPrivate`, or `"private": true` in the JSON store),
    /// unless the config publishes them: a contact is added to the hidden contacts of `config`,
    /// the config the site is planned with, so it is left out of every page, list, group,
    /// vCard and the search index as those are; a group is taken out of the store and out of
    /// its members' groups, so it has no page and no member's page, vCard or search entry
    /// names it; a todo is taken out of the store with its subtasks, whose page it would be
    /// shown on.
    ///
    /// A directory published from a CardDAV or CalDAV account would otherwise put on the web
    /// the very entries its owner marked private there.
    static func leavingOutPrivate(of store: inout Store, config: inout SiteConfig) -> PrivateRecords {
        var left = PrivateRecords()
        guard !config.publishPrivate else { return left }
        // Most stores mark nothing: one pass over the contacts, no set made.
        for contact in store.contacts where AccessClass.isPrivate(contact.classification) {
            if config.hiddenContacts.insert(contact.id).inserted { left.contacts += 1 }
        }
        left.groups = leavingOutPrivateGroups(of: &store)
        guard store.todos.contains(where: { AccessClass.isPrivate($0.classification) }) else { return left }
        var leftOut = Set(store.todos.lazy.filter { AccessClass.isPrivate($0.classification) }.map(\.id))
        // Subtasks, however deep: a pass for each level, until one finds no more.
        var found = true
        while found {
            found = false
            for todo in store.todos where !leftOut.contains(todo.id) {
                guard let parent = todo.parentID, leftOut.contains(parent) else { continue }
                leftOut.insert(todo.id)
                found = true
            }
        }
        let before = store.todos.count
        store.todos.removeAll { leftOut.contains($0.id) }
        left.todos = before - store.todos.count
        return left
    }

    /// Takes the groups marked private out of `store`, and out of their members' groups;
    /// returns how many there were.
    private static func leavingOutPrivateGroups(of store: inout Store) -> Int {
        guard store.groups.contains(where: { AccessClass.isPrivate($0.classification) }) else { return 0 }
        let leftOut = Set(store.groups.lazy.filter { AccessClass.isPrivate($0.classification) }.map(\.id))
        store.groups.removeAll { leftOut.contains($0.id) }
        // Only the members are changed: a contact changed is a contact copied.
        for index in store.contacts.indices
        where store.contacts[index].groupIDs.contains(where: leftOut.contains) {
            store.contacts[index].groupIDs.removeAll { leftOut.contains($0) }
        }
        return leftOut.count
    }
}
