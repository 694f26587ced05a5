import RolodeckCore

extension Site {
    /// Leaves out of `store` the contacts and todos their app marks private (a `CLASS` other
    /// than `PUBLIC`: `AccessClass.isPrivate`), unless the config publishes them: a contact is
    /// added to the hidden contacts of `config`, the config the site is planned with, so it is
    /// left out of every page, list, group, vCard and the search index as those are; a todo
    /// is taken out of the store with its subtasks, whose page it would be shown on.
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
}
