import RolodeckCore
import RolodeckLocale

extension Directory {
    /// The most contacts a patch takes; past that, planning anew is as quick.
    static let patchLimit = 64

    /// The directory of `new`, made by replacing contacts in `old` (planned from `oldStore` with
    /// the same config) when that gives exactly what planning `new` would: the same contacts in
    /// the same order, the same groups and todos, and each changed contact with the same id,
    /// groups, sort keys and display name, so that no contact moves, no section or group
    /// changes and no slug does. Nil otherwise; the caller then plans anew.
    ///
    /// Planning anew sorts, sections and slugs every contact; the common edit (a phone number,
    /// an address, a note) changes none of that.
    public static func patching(_ old: Directory, from oldStore: Store, to new: Store) -> Patch? {
        guard oldStore.contacts.count == new.contacts.count, oldStore.groups == new.groups,
            oldStore.todos == new.todos
        else { return nil }
        var replaced: [(position: Int, before: Contact)] = []
        for (position, before) in oldStore.contacts.enumerated() where before != new.contacts[position] {
            guard replaced.count < patchLimit else { return nil }
            replaced.append((position, before))
        }
        return patching(old, replacing: replaced, in: new)
    }

    /// The directory of `new`, made by replacing contacts in `old` as `patching(_:from:to:)`
    /// does, when `new` is the store `old` was planned from with only the contacts `replaced`
    /// (each at its position, and the contact that was there) put in place of others: the
    /// other contacts are not compared. Nil when planning `new` would give another directory.
    public static func patching(
        _ old: Directory, replacing replaced: [(position: Int, before: Contact)], in new: Store
    ) -> Patch? {
        guard replaced.count <= patchLimit else { return nil }
        let names = NameFormatter(order: old.config.nameOrder)
        let sortBy = old.config.sortBy
        var changed: [(before: Contact, after: Contact)] = []
        for (position, before) in replaced {
            let after = new.contacts[position]
            guard before != after else { continue }
            // Byte for byte: a name saved again in another normal form is `==` as a string, but
            // the pages show its bytes, and the sections and slugs are made from them.
            let keys = (names.sortKeys(before, by: sortBy), names.sortKeys(after, by: sortBy))
            guard before.id.hasSameBytes(as: after.id), before.groupIDs.hasSameBytes(as: after.groupIDs),
                keys.0.primary.hasSameBytes(as: keys.1.primary),
                keys.0.secondary.hasSameBytes(as: keys.1.secondary),
                names.displayName(before).hasSameBytes(as: names.displayName(after))
            else { return nil }
            changed.append((before, after))
        }
        var directory = old
        var changedEntries: [Int] = []
        for (before, contact) in changed where !old.config.hiddenContacts.contains(contact.id) {
            // The entry holds the very contact the old store did, found without reading every
            // entry's id (a contact changed when planned, which none is today, by its id).
            guard let index = directory.entries.position(of: before) else { return nil }
            directory.entries[index].contact = contact
            changedEntries.append(index)
        }
        return Patch(directory: directory, changedEntries: changedEntries.sorted())
    }

    /// A directory made by `patching` another, and which of its entries differ from that one's.
    public struct Patch: Sendable {
        /// The patched directory.
        public var directory: Directory
        /// The positions of the entries whose contact changed, ascending; every other entry is
        /// the old directory's, in the same place.
        public var changedEntries: [Int]
    }
}

extension Directory {
    /// The directory of `new`, made from `old` (planned from the store `new` is, but for the
    /// contacts `replaced`, with the same config) by taking each replaced contact out and putting
    /// it where planning `new` would: a contact renamed moves in the list, and perhaps to
    /// another section. A contact with another id gets the slug planning would give it (a card
    /// without a UID has its name as its id). Nil when a replaced contact has other groups than
    /// the one it replaces, or more than `patchLimit` were replaced, or a changed id would
    /// change more than its contact: then the caller plans anew.
    ///
    /// Planning anew sorts, sections and slugs every contact (0.2 s at 100,000, more when the
    /// ids are not ASCII); here each moved contact is placed by a binary search with the very
    /// sorter's order, and the sections, the groups' members and the todos' links are laid out
    /// again from the old ones, position by position.
    public static func moving(
        _ old: Directory, replacing replaced: [(position: Int, before: Contact)], in new: Store
    ) -> Directory? {
        guard replaced.count <= patchLimit else { return nil }
        let config = old.config
        let names = NameFormatter(order: config.nameOrder)
        let sorter = DirectorySorter(localeIdentifier: config.locale)
        guard let slugs = remadeSlugs(old, replacing: replaced, in: new) else { return nil }
        // The slugs are in store order when no contact is hidden (always so when an id changed).
        let slugsByPosition = config.hiddenContacts.isEmpty && slugs.slugs.count == new.contacts.count
        // Each moved contact's old position, and its entry as it is now.
        var moved: [(old: Int, entry: Entry, keys: SortKeys)] = []
        for (position, before) in replaced {
            let after = new.contacts[position]
            guard before != after else { continue }
            guard before.groupIDs.hasSameBytes(as: after.groupIDs) else { return nil }
            if config.hiddenContacts.contains(after.id) { continue }
            guard
                let index = old.entries.position(of: before),
                !moved.contains(where: { $0.old == index })
            else { return nil }
            let keys = names.sortKeys(after, by: config.sortBy)
            guard let section = sorter.sortedPositions([keys]).first?.section else { return nil }
            let entry = Entry(
                contact: after, slug: slugsByPosition ? slugs.slugs[position] : old.entries[index].slug,
                displayName: names.displayName(after), section: section)
            moved.append((index, entry, keys))
        }
        // The new order, as old positions; a moved contact as -1 - its place in `moved`.
        var isMoved = [Bool](repeating: false, count: old.entries.count)
        for contact in moved { isMoved[contact.old] = true }
        var order = old.entries.indices.filter { !isMoved[$0] }
        func keys(at index: Int) -> SortKeys {
            let source = order[index]
            return source < 0
                ? moved[-1 - source].keys : names.sortKeys(old.entries[source].contact, by: config.sortBy)
        }
        // Whether `left` sorts before `right` as planning sorts them: by the sorter itself.
        func precedes(_ left: SortKeys, _ right: SortKeys) -> Bool? {
            guard left.id != right.id else { return nil }
            return sorter.sortedPositions([left, right]).flatMap(\.items).first == 0
        }
        for (number, contact) in moved.enumerated() {
            var low = 0, high = order.count
            while low < high {
                let middle = (low + high) / 2
                guard let before = precedes(keys(at: middle), contact.keys) else { return nil }
                if before { low = middle + 1 } else { high = middle }
            }
            order.insert(-1 - number, at: low)
            // The place is checked against both neighbours, as the sorter orders the three.
            let around = (max(0, low - 1)...min(order.count - 1, low + 1)).map(keys(at:))
            guard sorter.sortedPositions(around).flatMap(\.items) == Array(around.indices) else { return nil }
        }
        var directory = Directory(laying: old, in: order, moved: moved.map { ($0.old, $0.entry) })
        directory.shownSlugs = slugs
        return directory
    }

    /// The shown contacts' slugs and bases for `new`, from `old`'s: the same when no replaced
    /// contact has another id; else made again from the old bases with the new ids' in their
    /// places. Nil when that is not what planning would give, or changes the slug of a contact
    /// not replaced (a new id that folds to another's base), or an id changed where it matters
    /// beyond its contact: a hidden contact (the config hides by id, so the shown contacts are
    /// no longer the store's positions) or a todo's link.
    private static func remadeSlugs(
        _ old: Directory, replacing replaced: [(position: Int, before: Contact)], in new: Store
    ) -> Slugger.Made? {
        // An id saved again in another normal form is another slug's base: its bytes are hashed.
        let renamed = replaced.filter { !$0.before.id.hasSameBytes(as: new.contacts[$0.position].id) }
        guard !renamed.isEmpty else { return old.shownSlugs }
        var ids = Set<String>()
        for (position, before) in renamed {
            ids.insert(before.id)
            ids.insert(new.contacts[position].id)
        }
        guard old.config.hiddenContacts.isEmpty, old.shownSlugs.bases.count == new.contacts.count,
            !new.todos.contains(where: { $0.contactID.map(ids.contains) ?? false })
        else { return nil }
        // From the ids whose bases changed alone when it can be, else from every id.
        let changed = renamed.map { (position: $0.position, id: new.contacts[$0.position].id) }
        let made =
            Slugger.remade(old.shownSlugs, changed: changed) { new.contacts[$0].id }
            ?? remadeWhole(old.shownSlugs, renamed: renamed.map(\.position), in: new)
        // A contact that does not move keeps its slug, or the directory would have to move it too.
        var moves = [Bool](repeating: false, count: made.slugs.count)
        for (position, before) in replaced where before != new.contacts[position] { moves[position] = true }
        for position in made.slugs.indices
        where !moves[position] && made.slugs[position] != old.shownSlugs.slugs[position] {
            return nil
        }
        return made
    }

    /// The slugs of `new`'s contacts, made from every id, the bases of the ones not `renamed`
    /// taken from `kept`.
    private static func remadeWhole(_ kept: Slugger.Made, renamed: [Int], in new: Store) -> Slugger.Made {
        var bases = kept.bases
        for position in renamed { bases[position] = Slugger.base(new.contacts[position].id) }
        return Slugger.made(for: new.contacts.map(\.id), bases: bases)
    }

    /// A contact's sort keys, as `NameFormatter.sortKeys` gives them.
    typealias SortKeys = (primary: String, secondary: String, id: String)

    /// `old` with its entries in `order` (old positions; `-1 - n` for `moved[n]`, an old entry
    /// replaced): the sections, the groups' members, each entry's groups and the todos' links
    /// laid out again for the new positions. Every entry keeps its groups.
    private init(laying old: Directory, in order: [Int], moved: [(old: Int, entry: Entry)]) {
        config = old.config
        groupIndex = old.groupIndex
        let oldPositions = order.map { $0 < 0 ? moved[-1 - $0].old : $0 }
        var newPositions = [Int](repeating: -1, count: old.entries.count)
        for (index, source) in oldPositions.enumerated() { newPositions[source] = index }
        // Only the entries between the first and the last that moved change places: the chunks
        // of entries outside them are the old ones, shared, not copied (a copy of an entry
        // retains its contact and strings, 30 ms for 100,000).
        var entries = old.entries
        let moving = order.indices.filter { order[$0] != $0 }
        if let first = moving.first, let last = moving.last {
            for index in first...last {
                let source = order[index]
                entries[index] = source < 0 ? moved[-1 - source].entry : old.entries[source]
            }
        }
        // Sections are runs of entries in order, told apart by the old sections' numbers.
        var oldSection = [Int32](repeating: 0, count: old.entries.count)
        for (number, section) in old.sections.enumerated() {
            for item in section.items { oldSection[item] = Int32(number) }
        }
        func section(at index: Int) -> DirectorySection {
            let source = order[index]
            if source < 0 { return moved[-1 - source].entry.section }
            return old.sections[Int(oldSection[source])].section
        }
        func sameSection(_ index: Int, _ next: Int) -> Bool {
            let (source, nextSource) = (order[index], order[next])
            if source >= 0, nextSource >= 0, oldSection[source] == oldSection[nextSource] { return true }
            return section(at: index) == section(at: next)
        }
        var sections: [SectionGroup<Int>] = []
        var start = 0
        for index in order.indices where index + 1 == order.count || !sameSection(index, index + 1) {
            sections.append(SectionGroup(section: section(at: index), items: Array(start...index)))
            start = index + 1
        }
        // Each section's members of each group, and each entry's groups: its old ones.
        let found = Self.sectionMembers(of: sections, groupCount: old.groups.count) { index, groups in
            groups += old.entryGroups[old.groupPositions(ofEntry: oldPositions[index])]
        }
        let (members, entryGroups, entryGroupStarts) = Self.joined(
            found, of: sections, groupCount: old.groups.count)
        groups = old.groups.enumerated().map { position, entry in
            var entry = entry
            entry.sections = members[position]
            return entry
        }
        todos = old.todos.map { todo in
            var todo = todo
            todo.contact = todo.contact.map { newPositions[$0] }
            return todo
        }
        self.entries = entries
        self.sections = sections
        self.entryGroups = entryGroups
        self.entryGroupStarts = entryGroupStarts
    }
}

extension ChunkedArray<Directory.Entry> {
    /// The position of the entry that holds the very contact `contact` (or, for a contact
    /// changed when planned, which none is today, one with its id). The entries are read where
    /// they lie: `firstIndex(where:)` copies each one it looks at, retaining its contact and
    /// strings (5 ms to reach the middle of 100,000).
    func position(of contact: Contact) -> Int? {
        indices.first { self[$0].contact.isIdentical(to: contact) }
            ?? indices.first { self[$0].contact.id == contact.id }
    }
}

extension Directory {
    /// The slugs of `old`'s shown contacts that none of this directory's has (the pages of a
    /// contact that went, or whose id changed), found from the slugs that differ place by place
    /// in the two's stores: without hashing every slug. Nil when the two do not show as many
    /// contacts, or either was not planned with its slugs kept.
    ///
    /// A slug `old` had at a place where this directory has another may still be this one's at
    /// another place; that place's slug then differs too (an old slug is at one place only), so
    /// the slugs that differ here are all that need looking at.
    public func slugsGone(since old: Directory) -> [String]? {
        let (before, after) = (old.shownSlugs.slugs, shownSlugs.slugs)
        guard before.count == after.count, before.count == old.entries.count, after.count == entries.count
        else { return nil }
        let differing = before.indices.filter { before[$0] != after[$0] }
        let taken = Set(differing.map { after[$0] })
        return differing.map { before[$0] }.filter { !taken.contains($0) }
    }
}
