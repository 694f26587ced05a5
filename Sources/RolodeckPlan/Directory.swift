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
    public var entries: ChunkedArray<Entry>
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
    public internal(set) var entryGroups: [Int32] = []
    /// Where each entry's groups start in `entryGroups`, and after the last, where they end.
    public internal(set) var entryGroupStarts: [Int32] = [0]
    /// The shown contacts' slugs, and the bases they were made from, in the store's order (the
    /// contacts the config hides left out): a move that changes ids makes every slug again
    /// from these without folding the other ids anew.
    var shownSlugs = Slugger.Made(bases: [], slugs: [])

    /// Plans the site from a validated store.
    public init(store: Store, config: SiteConfig) {
        self.config = config
        let sorter = DirectorySorter(localeIdentifier: config.locale)
        let shown = ShownContacts(store.contacts, config: config)
        // Hidden groups (`hiddenFields: ["groups"]`) are not planned at all: a group's page
        // and vCard would publish who is in it.
        let plannedGroups = config.shows(.groups) ? store.groups : []
        // Slugs, the groups' order and the todos' tree do not depend on the contacts' order:
        // they are planned on a thread of their own while this one sorts.
        let (order, unsorted) = Self.sort(
            shown, by: sorter,
            alongside: {
                Unsorted(
                    slugs: shown.slugs(), groups: Self.orderedGroups(plannedGroups, sorter: sorter),
                    todos: Self.todoTree(store.todos, timeZone: config.timeZone))
            })
        entries = ChunkedArray(Self.entries(of: shown, in: order, slugs: unsorted.slugs.slugs))
        shownSlugs = unsorted.slugs
        sections = order.sections
        let members = GroupMembers(of: unsorted.groups, shown, in: order)
        groups = members.groups
        groupIndex = unsorted.groups.index
        entryGroups = members.entryGroups
        entryGroupStarts = members.entryGroupStarts
        todos = unsorted.todos
        Self.linkContacts(of: &todos, shown, in: order)
    }

    /// The positions in `entryGroups` of entry `index`'s groups.
    public func groupPositions(ofEntry index: Int) -> Range<Int> {
        Int(entryGroupStarts[index])..<Int(entryGroupStarts[index + 1])
    }

    // MARK: - Planning the contacts

    /// The contacts the site shows, in the store's order, with their sort keys and display
    /// names, worked out on every core. The contacts themselves are copied once, into their
    /// entries, not through the sort.
    private struct ShownContacts: Sendable {
        /// The store's contacts, hidden ones too.
        let all: [Contact]
        /// The positions in `all` of the contacts the site shows.
        let visible: [Int]
        /// Each shown contact's sort keys.
        let sortKeys: [(primary: String, secondary: String, id: String)]
        /// Each shown contact's name as displayed.
        let displayNames: [String]

        /// The contacts of `contacts` that `config` does not hide.
        init(_ contacts: [Contact], config: SiteConfig) {
            let hidden = config.hiddenContacts
            let visible =
                hidden.isEmpty
                ? Array(contacts.indices) : contacts.indices.filter { !hidden.contains(contacts[$0].id) }
            let names = NameFormatter(order: config.nameOrder)
            let sortBy = config.sortBy
            all = contacts
            self.visible = visible
            sortKeys = ParallelWork.map(visible.count) { names.sortKeys(contacts[visible[$0]], by: sortBy) }
            displayNames = ParallelWork.map(visible.count) { names.displayName(contacts[visible[$0]]) }
        }

        /// Each shown contact's slug, and the base it was made from.
        func slugs() -> Slugger.Made {
            Slugger.made(for: visible.map { all[$0].id })
        }
    }

    /// The entries' order: which shown contact each entry is, section after section.
    private struct EntryOrder {
        /// Each entry's position among the shown contacts.
        var positions: [Int] = []
        /// The index's sections, as ranges of entries.
        var sections: [SectionGroup<Int>] = []
        /// Each entry's section, as a position in `sections`.
        var sectionNumbers: [Int]

        /// Lays sorted sections of positions among the shown contacts out one after another.
        init(laying grouped: [SectionGroup<Int>]) {
            let count = grouped.reduce(0) { $0 + $1.items.count }
            positions.reserveCapacity(count)
            sectionNumbers = [Int](repeating: 0, count: count)
            for (number, group) in grouped.enumerated() {
                let start = positions.count
                positions += group.items
                sectionNumbers[start..<positions.count] = ArraySlice(
                    repeating: number, count: group.items.count)
                sections.append(SectionGroup(section: group.section, items: Array(start..<positions.count)))
            }
        }
    }

    /// What is planned without the contacts' order.
    private struct Unsorted: Sendable {
        /// Each shown contact's slug and its base, in the order of `ShownContacts.visible`.
        var slugs = Slugger.Made(bases: [], slugs: [])
        /// The groups in order.
        var groups = OrderedGroups()
        /// The todos in order, their contacts not linked yet.
        var todos: [TodoEntry] = []
    }

    /// The shown contacts sorted and sectioned for the locale, and `unsorted`, run meanwhile on a
    /// thread of its own.
    private static func sort(
        _ shown: ShownContacts, by sorter: DirectorySorter, alongside unsorted: @Sendable () -> Unsorted
    ) -> (EntryOrder, Unsorted) {
        let planned = Mutex(Unsorted())
        var grouped: [SectionGroup<Int>] = []
        ParallelWork.alongside {
            let result = unsorted()
            planned.withLock { $0 = result }
        } _: {
            grouped = sorter.sortedPositions(shown.sortKeys)
        }
        return (EntryOrder(laying: grouped), planned.withLock { $0 })
    }

    /// The entries in order, made on every core.
    private static func entries(of shown: ShownContacts, in order: EntryOrder, slugs: [String]) -> [Entry] {
        ParallelWork.map(order.positions.count) { index in
            let position = order.positions[index]
            return Entry(
                contact: shown.all[shown.visible[position]], slug: slugs[position],
                displayName: shown.displayNames[position],
                section: order.sections[order.sectionNumbers[index]].section)
        }
    }

    // MARK: - Planning the groups

    /// Groups in collation order of their names, with their slugs and positions by id.
    private struct OrderedGroups: Sendable {
        /// The groups in collation order of their names.
        var ordered: [Group] = []
        /// Each group's slug, parallel to `ordered`.
        var slugs: [String] = []
        /// Each group's position in `ordered`, by id.
        var index: [String: Int] = [:]
    }

    /// The store's groups in collation order of their names.
    private static func orderedGroups(_ groups: [Group], sorter: DirectorySorter) -> OrderedGroups {
        let ordered = sorter.sorted(groups) { (primary: $0.name, secondary: "", id: $0.id) }.flatMap(\.items)
        var index: [String: Int] = [:]
        for (position, group) in ordered.enumerated() { index[group.id] = position }
        return OrderedGroups(ordered: ordered, slugs: Slugger.slugs(for: ordered.map(\.id)), index: index)
    }

    /// One section's members of each group it has, and its entries' groups.
    struct SectionMembers: Sendable {
        /// Each group with members in the section, and those members, as indices into `entries`.
        var groups: [(group: Int, items: [Int])] = []
        /// The section's entries' groups, one entry's after another.
        var entryGroups: [Int32] = []
        /// Where each entry's groups end in `entryGroups`.
        var entryEnds: [Int32] = []
    }

    /// Each section's members of each of `groupCount` groups, and its entries' groups, collected
    /// on every core in the order of the entries. `appendGroups(entry, &groups)` appends entry
    /// `entry`'s groups, as positions among the groups: from its contact's ids when planning,
    /// from the old directory's when entries only moved.
    static func sectionMembers(
        of sections: [SectionGroup<Int>], groupCount: Int,
        appendGroups: @Sendable (_ entry: Int, _ groups: inout [Int32]) -> Void
    ) -> [SectionMembers] {
        ParallelWork.map(sections.count, batch: 1) { number in
            // By group position, not in a dictionary: no hashing for each membership.
            var items = [[Int]](repeating: [], count: groupCount)
            var touched: [Int] = []
            var found = SectionMembers()
            for index in sections[number].items {
                let start = found.entryGroups.count
                appendGroups(index, &found.entryGroups)
                for group in found.entryGroups[start...].lazy.map(Int.init) {
                    if items[group].isEmpty { touched.append(group) }
                    items[group].append(index)
                }
                found.entryEnds.append(Int32(found.entryGroups.count))
            }
            found.groups = touched.map { (group: $0, items: items[$0]) }
            return found
        }
    }

    /// What `sectionMembers` found, section after section: each group's members by section, and
    /// every entry's groups with where they start (`Directory.entryGroups`, `entryGroupStarts`).
    static func joined(_ found: [SectionMembers], of sections: [SectionGroup<Int>], groupCount: Int) -> (
        members: [[SectionGroup<Int>]], entryGroups: [Int32], entryGroupStarts: [Int32]
    ) {
        var members = Array(repeating: [SectionGroup<Int>](), count: groupCount)
        var entryGroups: [Int32] = []
        var entryGroupStarts: [Int32] = [0]
        entryGroups.reserveCapacity(found.reduce(0) { $0 + $1.entryGroups.count })
        entryGroupStarts.reserveCapacity(sections.reduce(1) { $0 + $1.items.count })
        // Sections are runs of entries in order, so their entries' groups follow one another.
        for (section, found) in zip(sections, found) {
            for (group, items) in found.groups {
                members[group].append(SectionGroup(section: section.section, items: items))
            }
            let start = Int32(entryGroups.count)
            entryGroups += found.entryGroups
            entryGroupStarts += found.entryEnds.lazy.map { start + $0 }
        }
        return (members, entryGroups, entryGroupStarts)
    }

    /// The groups with their members, section by section, and each entry's groups, which are
    /// kept so that its page need not look its ids up again.
    private struct GroupMembers {
        /// The groups in order, with their members.
        var groups: [GroupEntry] = []
        /// Each entry's groups, one entry's after another (`Directory.entryGroups`).
        var entryGroups: [Int32] = []
        /// Where each entry's groups start, and where the last one's end.
        var entryGroupStarts: [Int32] = [0]

        /// Gathers the members each section has of the ordered groups. (Contacts are read from
        /// the store's array: an entry read from `entries` is copied whole, retaining each of
        /// its strings.)
        init(of ordered: OrderedGroups, _ shown: ShownContacts, in order: EntryOrder) {
            let groupIndex = ordered.index
            let found = Directory.sectionMembers(of: order.sections, groupCount: ordered.ordered.count) {
                index, groups in
                for id in shown.all[shown.visible[order.positions[index]]].groupIDs {
                    if let group = groupIndex[id] { groups.append(Int32(group)) }
                }
            }
            let members: [[SectionGroup<Int>]]
            (members, entryGroups, entryGroupStarts) = Directory.joined(
                found, of: order.sections, groupCount: ordered.ordered.count)
            groups = ordered.ordered.enumerated().map { index, group in
                GroupEntry(
                    group: group, slug: ordered.slugs[index], sections: members[index],
                    memberCount: members[index].reduce(0) { $0 + $1.items.count })
            }
        }
    }

    // MARK: - Planning the todos

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

    /// Links each todo to the entry of the contact it names: only the contacts todos name are
    /// looked for, on every core.
    private static func linkContacts(
        of todos: inout [TodoEntry], _ shown: ShownContacts, in order: EntryOrder
    ) {
        var wanted: [String: Int] = [:]
        for todo in todos {
            if let id = todo.todo.contactID, wanted[id] == nil { wanted[id] = wanted.count }
        }
        guard !wanted.isEmpty else { return }
        let keys = shown.sortKeys
        let found = ParallelWork.map(keys.count) { [wanted] in wanted[keys[$0].id] ?? -1 }
        var entryOfWanted = [Int?](repeating: nil, count: wanted.count)
        // The last entry with an id wins, as it would in a dictionary of all of them.
        for (index, position) in order.positions.enumerated() where found[position] >= 0 {
            entryOfWanted[found[position]] = index
        }
        for position in todos.indices {
            if let id = todos[position].todo.contactID, let slot = wanted[id] {
                todos[position].contact = entryOfWanted[slot]
            }
        }
    }
}
