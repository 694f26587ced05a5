// Patching a table in place of building it anew: `rolodeck watch` saves one contact at a time,
// and a contact that keeps its place in the directory changes only the postings of its own terms.
extension SearchTermTable {
    /// The change of one key's postings: the contacts that no longer have it, and those that
    /// now do, each with its tier (a contact both lost and found gets the new tier).
    struct KeyEdit {
        /// The key's units.
        var key: [UInt16]
        /// The contacts whose postings of the key go.
        var removed: Set<Int32> = []
        /// The contacts that now have the key, ascending, with their tiers.
        var added: [(contact: Int32, tier: SearchTier)] = []
    }

    /// Where the keys of a patched table stand against those of the table it was patched from,
    /// told by the few that changed: every other key is the same key with the same postings.
    struct Changes: Sendable {
        /// The old positions of the keys whose postings changed, ascending.
        var changed: [Int] = []
        /// The old positions of the keys that went, ascending.
        var removed: [Int] = []
        /// For each new key, the old position it was inserted before, ascending.
        var inserted: [Int] = []

        /// The new position of the key at old position `old`, or of where it would be if it
        /// went.
        func newPosition(of old: Int) -> Int {
            old + Self.count(of: inserted, atOrBelow: old) - Self.count(of: removed, atOrBelow: old - 1)
        }

        /// Whether a key at an old position in `range` changed or went, or a key was inserted
        /// between two of them.
        func touches(_ range: Range<Int>) -> Bool {
            guard !range.isEmpty else { return false }
            let changedInside =
                Self.count(of: changed, atOrBelow: range.upperBound - 1)
                - Self.count(of: changed, atOrBelow: range.lowerBound - 1)
            let removedInside =
                Self.count(of: removed, atOrBelow: range.upperBound - 1)
                - Self.count(of: removed, atOrBelow: range.lowerBound - 1)
            // A key inserted before the range's first key stands before it, not between.
            let insertedInside =
                Self.count(of: inserted, atOrBelow: range.upperBound - 1)
                - Self.count(of: inserted, atOrBelow: range.lowerBound)
            return changedInside + removedInside + insertedInside > 0
        }

        /// How many of the ascending `positions` are at most `limit`.
        static func count(of positions: [Int], atOrBelow limit: Int) -> Int {
            var low = 0, high = positions.count
            while low < high {
                let middle = (low + high) / 2
                if positions[middle] <= limit { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The position of the first key that does not sort before `key`.
    func lowerBound(_ key: [UInt16]) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            let before = withKey(middle) { $0.lexicographicallyPrecedes(key) }
            if before { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// This table with `edits` (in key order, each key once) made: what a table built anew from
    /// the contacts after the edits holds, and where its keys stand against this one's.
    func patched(_ edits: [KeyEdit]) -> (table: SearchTermTable, changes: Changes) {
        var units = self.units
        var keyStart: [Int32] = [], keyEnd: [Int32] = [], postingStart: [Int32] = []
        var contacts: [Int32] = [], tiers: [SearchTier] = []
        keyStart.reserveCapacity(count + edits.count)
        keyEnd.reserveCapacity(count + edits.count)
        postingStart.reserveCapacity(count + edits.count + 1)
        let added = edits.reduce(0) { $0 + $1.added.count }
        contacts.reserveCapacity(self.contacts.count + added)
        tiers.reserveCapacity(self.contacts.count + added)
        var changes = Changes()
        // The next old key not yet copied.
        var next = 0
        func copyKeys(upTo end: Int) {
            guard next < end else { return }
            keyStart += self.keyStart[next..<end]
            keyEnd += self.keyEnd[next..<end]
            let shift = Int32(contacts.count) - self.postingStart[next]
            postingStart += self.postingStart[next..<end].lazy.map { $0 + shift }
            let postings = Int(self.postingStart[next])..<Int(self.postingStart[end])
            contacts += self.contacts[postings]
            tiers += self.tiers[postings]
            next = end
        }
        for edit in edits {
            let position = lowerBound(edit.key)
            copyKeys(upTo: position)
            let exists = position < count && withKey(position) { $0.elementsEqual(edit.key) }
            // The postings that stay and those added, merged by contact.
            var list: [(contact: Int32, tier: SearchTier)] = []
            if exists {
                for posting in postings(position) where !edit.removed.contains(self.contacts[posting]) {
                    list.append((self.contacts[posting], self.tiers[posting]))
                }
                next = position + 1
            }
            if !edit.added.isEmpty {
                var merged: [(contact: Int32, tier: SearchTier)] = []
                merged.reserveCapacity(list.count + edit.added.count)
                var kept = 0
                for posting in edit.added {
                    while kept < list.count, list[kept].contact < posting.contact {
                        merged.append(list[kept])
                        kept += 1
                    }
                    if kept < list.count, list[kept].contact == posting.contact { kept += 1 }
                    merged.append(posting)
                }
                merged += list[kept...]
                list = merged
            }
            if list.isEmpty {
                if exists { changes.removed.append(position) }
                continue
            }
            if exists {
                changes.changed.append(position)
                keyStart.append(self.keyStart[position])
                keyEnd.append(self.keyEnd[position])
            } else {
                changes.inserted.append(position)
                keyStart.append(Int32(units.count))
                units += edit.key
                keyEnd.append(Int32(units.count))
            }
            postingStart.append(Int32(contacts.count))
            for posting in list {
                contacts.append(posting.contact)
                tiers.append(posting.tier)
            }
        }
        copyKeys(upTo: count)
        postingStart.append(Int32(contacts.count))
        let table = SearchTermTable(
            units: units, keyStart: keyStart, keyEnd: keyEnd, postingStart: postingStart, contacts: contacts,
            tiers: tiers, contactCount: contactCount)
        return (table, changes)
    }
}
