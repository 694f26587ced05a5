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

    /// Makes `edits` (in key order, each key once): the table then holds what a table built anew
    /// from the contacts after the edits holds. Returns where its keys stand against the keys it
    /// had.
    ///
    /// The table is changed where it lies: the keys and postings between two edited keys move
    /// as one block each (a `memmove`), and nothing is allocated but what the table grows by. A
    /// save in watch patches a table of millions of postings; building it again into new arrays
    /// cost more in page faults than in copying.
    mutating func patch(_ edits: [KeyEdit]) -> Changes {
        /// An edited key as it will stand: its place among the old keys, its units, and its
        /// postings (none when it goes).
        struct Slot {
            var position: Int
            var exists: Bool
            var keyStart: Int32 = 0, keyEnd: Int32 = 0
            var postings: [(contact: Int32, tier: SearchTier)]
        }
        var changes = Changes()
        var slots: [Slot] = []
        // What each edited key becomes, worked out before anything moves.
        for edit in edits {
            let position = lowerBound(edit.key)
            let exists = position < count && withKey(position) { $0.elementsEqual(edit.key) }
            // The postings that stay and those added, merged by contact.
            var list: [(contact: Int32, tier: SearchTier)] = []
            if exists {
                for posting in postings(position) where !edit.removed.contains(contacts[posting]) {
                    list.append((contacts[posting], tiers[posting]))
                }
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
            var slot = Slot(position: position, exists: exists, postings: list)
            if list.isEmpty {
                guard exists else { continue }
                changes.removed.append(position)
            } else if exists {
                changes.changed.append(position)
                slot.keyStart = keyStart[position]
                slot.keyEnd = keyEnd[position]
            } else {
                changes.inserted.append(position)
                slot.keyStart = Int32(units.count)
                units += edit.key
                slot.keyEnd = Int32(units.count)
            }
            slots.append(slot)
        }

        // Where each run of untouched keys, and its postings, goes; and where each slot lands.
        var keyMoves: [Move] = [], postingMoves: [Move] = []
        var landed: [(key: Int, posting: Int)] = []
        var next = 0, newKey = 0, newPosting = 0
        func keep(upTo end: Int) {
            guard next < end else { return }
            keyMoves.append(Move(source: next..<end, destination: newKey))
            let postings = Int(postingStart[next])..<Int(postingStart[end])
            postingMoves.append(Move(source: postings, destination: newPosting))
            newKey += end - next
            newPosting += postings.count
            next = end
        }
        for slot in slots {
            keep(upTo: slot.position)
            if slot.exists { next = slot.position + 1 }
            landed.append((newKey, newPosting))
            if !slot.postings.isEmpty {
                newKey += 1
                newPosting += slot.postings.count
            }
        }
        keep(upTo: count)

        // The sentinel after the last key is set again at the end.
        postingStart.removeLast()
        Move.apply(keyMoves, to: &keyStart, count: newKey, filler: 0)
        Move.apply(keyMoves, to: &keyEnd, count: newKey, filler: 0)
        Move.apply(keyMoves, to: &postingStart, count: newKey, filler: 0)
        Move.apply(postingMoves, to: &contacts, count: newPosting, filler: 0)
        Move.apply(postingMoves, to: &tiers, count: newPosting, filler: .inside)
        postingStart.withUnsafeMutableBufferPointer { starts in
            for (keys, postings) in zip(keyMoves, postingMoves) {
                let shift = Int32(postings.destination - postings.source.lowerBound)
                guard shift != 0 else { continue }
                for key in keys.destination..<keys.destination + keys.source.count { starts[key] &+= shift }
            }
        }
        for (slot, place) in zip(slots, landed) where !slot.postings.isEmpty {
            keyStart[place.key] = slot.keyStart
            keyEnd[place.key] = slot.keyEnd
            postingStart[place.key] = Int32(place.posting)
            for (offset, posting) in slot.postings.enumerated() {
                contacts[place.posting + offset] = posting.contact
                tiers[place.posting + offset] = posting.tier
            }
        }
        postingStart.append(Int32(newPosting))
        return changes
    }

    /// Numbers the contacts anew for a directory of `contactCount` contacts: each posting of
    /// contact `c` becomes one of contact `newNumbers[c]`. Returns the positions of the keys
    /// any of whose postings changed number, ascending, and how many postings got a negative
    /// number.
    ///
    /// The keys' lists stay ascending where the new numbers keep the old ones' order: a
    /// directory planned anew keeps the order of the contacts it did not change. A contact
    /// that moved, came or went is given a negative number, its own, and then its postings
    /// are removed (`patch`): until then, the lists holding it are out of order there.
    mutating func renumber(_ newNumbers: [Int32], contactCount: Int) -> (keys: [Int], negative: Int) {
        var keys: [Int] = []
        var negative = 0
        let starts = postingStart
        newNumbers.withUnsafeBufferPointer { numbers in
            contacts.withUnsafeMutableBufferPointer { contacts in
                var posting = 0
                for key in 0..<starts.count - 1 {
                    let end = Int(starts[key + 1])
                    var differs = false
                    while posting < end {
                        let old = contacts[posting], new = numbers[Int(old)]
                        if new != old {
                            contacts[posting] = new
                            differs = true
                            if new < 0 { negative += 1 }
                        }
                        posting += 1
                    }
                    if differs { keys.append(key) }
                }
            }
        }
        self.contactCount = contactCount
        return (keys, negative)
    }

    /// A block of elements moved within an array, from `source` to start at `destination`.
    struct Move {
        var source: Range<Int>
        var destination: Int

        /// Makes `moves` (in order, their sources apart and their destinations apart) in `array`,
        /// which then has `count` elements (those it grows by are `filler` until written).
        /// Destinations keep the sources' order, so a block moving left lands past the source of
        /// every block before it that moves right, and those before it that move left have moved
        /// already when they go left to right; the blocks moving right go right to left, the
        /// same mirrored.
        static func apply<Element: BitwiseCopyable>(
            _ moves: [Move], to array: inout [Element], count: Int, filler: Element
        ) {
            if count > array.count {
                array.append(contentsOf: repeatElement(filler, count: count - array.count))
            }
            array.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return }
                func move(_ block: Move) {
                    UnsafeMutableRawPointer(base + block.destination).copyMemory(
                        from: base + block.source.lowerBound,
                        byteCount: block.source.count * MemoryLayout<Element>.stride)
                }
                for block in moves where block.destination < block.source.lowerBound { move(block) }
                for block in moves.reversed() where block.destination > block.source.lowerBound {
                    move(block)
                }
            }
            if count < array.count { array.removeLast(array.count - count) }
        }
    }
}
