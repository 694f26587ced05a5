import RolodeckCore

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
            guard before.id == after.id, before.groupIDs == after.groupIDs,
                names.sortKeys(before, by: sortBy) == names.sortKeys(after, by: sortBy),
                names.displayName(before) == names.displayName(after)
            else { return nil }
            changed.append((before, after))
        }
        var directory = old
        var changedEntries: [Int] = []
        for (before, contact) in changed where !old.config.hiddenContacts.contains(contact.id) {
            // The entry holds the very contact the old store did, found without reading every
            // entry's id (a contact changed when planned, which none is today, by its id).
            guard
                let index = directory.entries.firstIndex(where: { $0.contact.isIdentical(to: before) })
                    ?? directory.entries.firstIndex(where: { $0.contact.id == contact.id })
            else { return nil }
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
