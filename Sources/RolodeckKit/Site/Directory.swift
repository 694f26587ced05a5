import Foundation

/// The planned site: contacts sorted and sectioned for the locale, with display names and
/// slugs, groups resolved to their members, todos linked to their contacts.
///
/// Everything locale-dependent is decided here, once; rendering only reads it.
public struct Directory: Sendable {
    /// One contact as the site shows it.
    public struct Entry: Sendable {
        /// The contact.
        public var contact: Contact
        /// The page's file name without `.html`.
        public var slug: String
        /// The name as displayed.
        public var displayName: String
        /// The section it is filed under.
        public var section: DirectorySection
    }

    /// A group and its members.
    public struct GroupEntry: Sendable {
        /// The group.
        public var group: Group
        /// The page's file name without `.html`.
        public var slug: String
        /// Members, as indices into `entries`, sectioned like the index.
        public var sections: [SectionGroup<Int>]
        /// How many members the group has.
        public var memberCount: Int
    }

    /// A todo and the contact it links to.
    public struct TodoEntry: Sendable {
        /// The todo, its due time in the site's time zone when the config names one.
        public var todo: Todo
        /// The linked contact, as an index into `entries`, when it is shown on the site.
        public var contact: Int?
        /// The todo it is a subtask of, as an index into `todos`.
        public var parent: Int?
        /// Its subtasks, as indices into `todos`, in order.
        public var subtasks: [Int] = []
    }

    /// The settings the site was planned with.
    public var config: SiteConfig
    /// Contacts in display order (by section, then collation).
    public var entries: [Entry]
    /// The index's sections, as indices into `entries`.
    public var sections: [SectionGroup<Int>]
    /// Groups in collation order of their names.
    public var groups: [GroupEntry]
    /// Todos in the user's order, each subtask right after its parent (and the parent's earlier
    /// subtasks), so a list numbered in this order reads top to bottom.
    public var todos: [TodoEntry]
    /// Position in `groups` by group id.
    public var groupIndex: [String: Int]

    /// Plans the site from a validated store.
    public init(store: Store, config: SiteConfig) {
        self.config = config
        let sorter = DirectorySorter(localeIdentifier: config.locale)
        let names = NameFormatter(order: config.nameOrder)
        let contacts = store.contacts
        let visible = config.hiddenContacts.isEmpty
            ? Array(contacts.indices) : contacts.indices.filter { !config.hiddenContacts.contains(contacts[$0].id) }
        let slugs = Slugger.slugs(for: visible.map { contacts[$0].id })
        // Names and sort keys are worked out on every core; the contacts themselves are copied
        // once, into their entries, not through the sort.
        let sortBy = config.sortBy
        let keys = ParallelWork.map(visible.count) { names.sortKeys(contacts[visible[$0]], by: sortBy) }
        let displayNames = ParallelWork.map(visible.count) { names.displayName(contacts[visible[$0]]) }

        let grouped = sorter.sorted(Array(visible.indices)) { keys[$0] }
        var entries: [Entry] = []
        entries.reserveCapacity(visible.count)
        var sections: [SectionGroup<Int>] = []
        for group in grouped {
            let start = entries.count
            for position in group.items {
                entries.append(Entry(contact: contacts[visible[position]], slug: slugs[position],
                                     displayName: displayNames[position], section: group.section))
            }
            sections.append(SectionGroup(section: group.section, items: Array(start..<entries.count)))
        }
        self.entries = entries
        self.sections = sections

        // Groups: members collected in one pass over the sorted entries, so they stay in order.
        let orderedGroups = sorter.sorted(store.groups) { (primary: $0.name, secondary: "", id: $0.id) }
            .flatMap(\.items)
        let groupSlugs = Slugger.slugs(for: orderedGroups.map(\.id))
        var groupIndex: [String: Int] = [:]
        for (index, group) in orderedGroups.enumerated() { groupIndex[group.id] = index }
        var members = Array(repeating: [SectionGroup<Int>](), count: orderedGroups.count)
        for section in sections {
            var bySection: [Int: [Int]] = [:]
            for index in section.items {
                for id in entries[index].contact.groupIDs {
                    if let group = groupIndex[id] { bySection[group, default: []].append(index) }
                }
            }
            for (group, items) in bySection {
                members[group].append(SectionGroup(section: section.section, items: items))
            }
        }
        self.groups = orderedGroups.enumerated().map { index, group in
            GroupEntry(group: group, slug: groupSlugs[index], sections: members[index],
                       memberCount: members[index].reduce(0) { $0 + $1.items.count })
        }
        self.groupIndex = groupIndex

        var entryIndex: [String: Int] = [:]
        entryIndex.reserveCapacity(entries.count)
        for index in entries.indices { entryIndex[entries[index].contact.id] = index }
        let zone = config.timeZone.flatMap(TimeZone.init(identifier:))
        let ids = Set(store.todos.map(\.id))
        var children: [String: [Int]] = [:]
        var roots: [Int] = []
        for (index, todo) in store.todos.enumerated() {
            if let parent = todo.parentID, parent != todo.id, ids.contains(parent) {
                children[parent, default: []].append(index)
            } else {
                roots.append(index)
            }
        }
        var todos: [TodoEntry] = []
        todos.reserveCapacity(store.todos.count)
        var placed = Array(repeating: false, count: store.todos.count)
        func place(_ index: Int, parent: Int?) {
            guard !placed[index] else { return }
            placed[index] = true
            var todo = store.todos[index]
            if let zone, let due = todo.due { todo.due = due.converted(to: zone) }
            let position = todos.count
            todos.append(TodoEntry(todo: todo, contact: todo.contactID.flatMap { entryIndex[$0] }, parent: parent))
            for child in children[todo.id] ?? [] where !placed[child] {
                todos[position].subtasks.append(todos.count)
                place(child, parent: position)
            }
        }
        roots.forEach { place($0, parent: nil) }
        // Todos whose parents form a loop are reached from no top-level todo; they stand alone.
        store.todos.indices.forEach { place($0, parent: nil) }
        self.todos = todos
    }
}
