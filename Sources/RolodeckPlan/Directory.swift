import Foundation
import Synchronization
import RolodeckCore
import RolodeckLocale

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
        var section: DirectorySection
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
    /// Each entry's groups as positions in `groups`, in the order its contact names them (ids of
    /// no group left out), one entry's after another; `groupPositions(ofEntry:)` finds them.
    public private(set) var entryGroups: [Int32] = []
    /// Where each entry's groups start in `entryGroups`, and after the last, where they end.
    public private(set) var entryGroupStarts: [Int32] = [0]

    /// Plans the site from a validated store.
    public init(store: Store, config: SiteConfig) {
        self.config = config
        let sorter = DirectorySorter(localeIdentifier: config.locale)
        let names = NameFormatter(order: config.nameOrder)
        let contacts = store.contacts
        let visible = config.hiddenContacts.isEmpty
            ? Array(contacts.indices) : contacts.indices.filter { !config.hiddenContacts.contains(contacts[$0].id) }
        // Names and sort keys are worked out on every core; the contacts themselves are copied
        // once, into their entries, not through the sort.
        let sortBy = config.sortBy
        let keys = ParallelWork.map(visible.count) { names.sortKeys(contacts[visible[$0]], by: sortBy) }
        let displayNames = ParallelWork.map(visible.count) { names.displayName(contacts[visible[$0]]) }

        // Slugs, the groups' order and the todos' tree do not depend on the contacts' order:
        // they are planned on a thread of their own while this one sorts.
        let planned = Mutex(Unsorted())
        var grouped: [SectionGroup<Int>] = []
        ParallelWork.alongside {
            let unsorted = Unsorted(
                slugs: Slugger.slugs(for: visible.map { contacts[$0].id }),
                groups: Self.orderedGroups(store.groups, sorter: sorter),
                todos: Self.todoTree(store.todos, timeZone: config.timeZone))
            planned.withLock { $0 = unsorted }
        } _: {
            grouped = sorter.sortedPositions(keys)
        }
        let unsorted = planned.withLock { $0 }

        let (positions, sections, sectionNumbers) = Self.layOut(grouped)
        let slugs = unsorted.slugs
        let entries = ParallelWork.map(positions.count) { index in
            let position = positions[index]
            return Entry(
                contact: contacts[visible[position]], slug: slugs[position],
                displayName: displayNames[position], section: sections[sectionNumbers[index]].section)
        }
        self.entries = entries
        self.sections = sections

        // Groups: each section's members collected on every core, in the order of the entries.
        // (Contacts are read from the store's array: an entry read from `entries` is copied
        // whole, retaining each of its strings.)
        let groups = unsorted.groups
        let groupIndex = groups.index
        let groupCount = groups.ordered.count
        // Each entry's groups are kept too, so that its page need not look its ids up again.
        let sectionMembers = ParallelWork.map(sections.count, batch: 1) { number in
            // By group position, not in a dictionary: no hashing for each membership.
            var items = [[Int]](repeating: [], count: groupCount)
            var touched: [Int] = []
            var found = SectionMembers()
            for index in sections[number].items {
                for id in contacts[visible[positions[index]]].groupIDs {
                    guard let group = groupIndex[id] else { continue }
                    if items[group].isEmpty { touched.append(group) }
                    items[group].append(index)
                    found.entryGroups.append(Int32(group))
                }
                found.entryEnds.append(Int32(found.entryGroups.count))
            }
            found.groups = touched.map { (group: $0, items: items[$0]) }
            return found
        }
        var members = Array(repeating: [SectionGroup<Int>](), count: groupCount)
        // Sections are runs of entries in order, so their entries' groups follow one another.
        entryGroupStarts.reserveCapacity(entries.count + 1)
        for (section, found) in zip(sections, sectionMembers) {
            for (group, items) in found.groups {
                members[group].append(SectionGroup(section: section.section, items: items))
            }
            let start = Int32(entryGroups.count)
            entryGroups += found.entryGroups
            entryGroupStarts += found.entryEnds.lazy.map { start + $0 }
        }
        self.groups = groups.ordered.enumerated().map { index, group in
            GroupEntry(group: group, slug: groups.slugs[index], sections: members[index],
                       memberCount: members[index].reduce(0) { $0 + $1.items.count })
        }
        self.groupIndex = groupIndex

        // Todos: only the contacts they name are looked for, on every core.
        var todos = unsorted.todos
        var wanted: [String: Int] = [:]
        for todo in todos {
            if let id = todo.todo.contactID, wanted[id] == nil { wanted[id] = wanted.count }
        }
        if !wanted.isEmpty {
            let wanted = wanted
            let found = ParallelWork.map(keys.count) { wanted[keys[$0].id] ?? -1 }
            var entryOfWanted = [Int?](repeating: nil, count: wanted.count)
            // The last entry with an id wins, as it would in a dictionary of all of them.
            for (index, position) in positions.enumerated() where found[position] >= 0 {
                entryOfWanted[found[position]] = index
            }
            for position in todos.indices {
                if let id = todos[position].todo.contactID, let slot = wanted[id] {
                    todos[position].contact = entryOfWanted[slot]
                }
            }
        }
        self.todos = todos
    }

    /// The positions in `entryGroups` of entry `index`'s groups.
    public func groupPositions(ofEntry index: Int) -> Range<Int> {
        Int(entryGroupStarts[index])..<Int(entryGroupStarts[index + 1])
    }

    /// One section's members of each group it has, and its entries' groups.
    private struct SectionMembers: Sendable {
        /// Each group with members in the section, and those members, as indices into `entries`.
        var groups: [(group: Int, items: [Int])] = []
        /// The section's entries' groups, one entry's after another.
        var entryGroups: [Int32] = []
        /// Where each entry's groups end in `entryGroups`.
        var entryEnds: [Int32] = []
    }

    /// The positions of sorted sections one after another, the sections as ranges of entries,
    /// and each entry's section number.
    private static func layOut(_ grouped: [SectionGroup<Int>])
        -> (positions: [Int], sections: [SectionGroup<Int>], sectionNumbers: [Int]) {
        let count = grouped.reduce(0) { $0 + $1.items.count }
        var positions: [Int] = []
        positions.reserveCapacity(count)
        var sections: [SectionGroup<Int>] = []
        var sectionNumbers = [Int](repeating: 0, count: count)
        for (number, group) in grouped.enumerated() {
            let start = positions.count
            positions += group.items
            sectionNumbers[start..<positions.count] = ArraySlice(repeating: number, count: group.items.count)
            sections.append(SectionGroup(section: group.section, items: Array(start..<positions.count)))
        }
        return (positions, sections, sectionNumbers)
    }

    /// What is planned without the contacts' order.
    private struct Unsorted: Sendable {
        var slugs: [String] = []
        var groups = OrderedGroups()
        var todos: [TodoEntry] = []
    }

    /// Groups in collation order of their names, with their slugs and positions by id.
    private struct OrderedGroups: Sendable {
        var ordered: [Group] = []
        var slugs: [String] = []
        var index: [String: Int] = [:]
    }

    private static func orderedGroups(_ groups: [Group], sorter: DirectorySorter) -> OrderedGroups {
        let ordered = sorter.sorted(groups) { (primary: $0.name, secondary: "", id: $0.id) }.flatMap(\.items)
        var index: [String: Int] = [:]
        for (position, group) in ordered.enumerated() { index[group.id] = position }
        return OrderedGroups(ordered: ordered, slugs: Slugger.slugs(for: ordered.map(\.id)), index: index)
    }

    /// Todos in the user's order, each subtask right after its parent, due times in `timeZone`
    /// when it names one; their contacts not linked yet.
    private static func todoTree(_ storeTodos: [Todo], timeZone: String?) -> [TodoEntry] {
        let zone = timeZone.flatMap(TimeZone.init(identifier:))
        let ids = Set(storeTodos.map(\.id))
        var children: [String: [Int]] = [:]
        var roots: [Int] = []
        for (index, todo) in storeTodos.enumerated() {
            if let parent = todo.parentID, parent != todo.id, ids.contains(parent) {
                children[parent, default: []].append(index)
            } else {
                roots.append(index)
            }
        }
        var todos: [TodoEntry] = []
        todos.reserveCapacity(storeTodos.count)
        var placed = Array(repeating: false, count: storeTodos.count)
        func place(_ index: Int, parent: Int?) {
            guard !placed[index] else { return }
            placed[index] = true
            var todo = storeTodos[index]
            if let zone, let due = todo.due { todo.due = due.converted(to: zone) }
            let position = todos.count
            todos.append(TodoEntry(todo: todo, contact: nil, parent: parent))
            for child in children[todo.id] ?? [] where !placed[child] {
                todos[position].subtasks.append(todos.count)
                place(child, parent: position)
            }
        }
        roots.forEach { place($0, parent: nil) }
        // Todos whose parents form a loop are reached from no top-level todo; they stand alone.
        storeTodos.indices.forEach { place($0, parent: nil) }
        return todos
    }
}
