/// The distinct sort strings of one sort run, each given a slot so it is
/// normalized, sectioned and collated once however many contacts share it.
struct SortStringTable {
    /// Per-slot results: the section of each string and its collation ranks.
    struct Prepared {
        /// The section of each slot's string.
        let sections: [DirectorySection]
        /// Rank among the primary strings of the same section.
        let primaryRanks: [Int32]
        /// Rank among all secondary strings.
        let secondaryRanks: [Int32]
    }

    // Swift's String equality is canonical equivalence, so NFC and NFD
    // spellings share a slot and therefore a rank.
    private var slots: [String: Int32] = [:]
    private var strings: [String] = []
    private var isPrimary: [Bool] = []
    private var isSecondary: [Bool] = []

    /// The slot of a primary sort string, adding it on first sight.
    mutating func primarySlot(for string: String) -> Int32 {
        let slot = slot(for: string)
        isPrimary[Int(slot)] = true
        return slot
    }

    /// The slot of a secondary sort string, adding it on first sight.
    mutating func secondarySlot(for string: String) -> Int32 {
        let slot = slot(for: string)
        isSecondary[Int(slot)] = true
        return slot
    }

    private mutating func slot(for string: String) -> Int32 {
        if let slot = slots[string] { return slot }
        let slot = Int32(strings.count)
        slots[string] = slot
        strings.append(string)
        isPrimary.append(false)
        isSecondary.append(false)
        return slot
    }

    /// Sections for every slot, primary ranks within each section and
    /// secondary ranks overall.
    func prepare(labeler: SectionLabeler, collator: NameCollator) -> Prepared {
        // Normalizing is most of the work per string, and each is on its own: on every core.
        let strings = strings
        let sectionsAndKeys = ParallelWork.map(strings.count) { slot in
            let normalized = NormalizedSortString(strings[slot])
            let key = collator.key(for: strings[slot], normalized: normalized)
            return (labeler.section(for: normalized), key)
        }
        let sections = sectionsAndKeys.map(\.0)
        let keys = sectionsAndKeys.map(\.1)
        // Start from an order that does not depend on the input order, so the
        // result is the same for any permutation of the contacts.
        let canonicalOrder = strings.indices.sorted {
            NameCollator.compareScalars(strings[$0], strings[$1]) == .orderedAscending
        }.map { Int32($0) }

        var primaryRanks = [Int32](repeating: 0, count: strings.count)
        var bySection: [DirectorySection: [Int32]] = [:]
        for slot in canonicalOrder where isPrimary[Int(slot)] {
            bySection[sections[Int(slot)], default: []].append(slot)
        }
        let sorter = SlotSorter(keys: keys, collator: collator)
        for (_, slots) in bySection {
            let sorted = sorter.sorted(slots)
            for (rank, slot) in sorted.enumerated() { primaryRanks[Int(slot)] = Int32(rank) }
        }
        var secondaryRanks = [Int32](repeating: 0, count: strings.count)
        let secondaries = canonicalOrder.filter { isSecondary[Int($0)] }
        let sorted = sorter.sorted(secondaries)
        for (rank, slot) in sorted.enumerated() { secondaryRanks[Int(slot)] = Int32(rank) }
        return Prepared(sections: sections, primaryRanks: primaryRanks, secondaryRanks: secondaryRanks)
    }
}

/// Sorts slots by collation key, keeping Foundation calls to a minimum: slots
/// with fast keys and slots without are sorted apart, then merged.
private struct SlotSorter {
    let keys: [NameCollator.Key]
    let collator: NameCollator
    /// The fast weights of each slot, apart from the keys so the common
    /// comparison touches one array and no strings.
    private let weights: [[UInt16]?]

    init(keys: [NameCollator.Key], collator: NameCollator) {
        self.keys = keys
        self.collator = collator
        weights = keys.map(\.fastWeights)
    }

    func sorted(_ slots: [Int32]) -> [Int32] {
        var fast: [Int32] = [], slow: [Int32] = []
        for slot in slots {
            if weights[Int(slot)] != nil { fast.append(slot) } else { slow.append(slot) }
        }
        weights.withUnsafeBufferPointer { weights in
            fast.sort { lhs, rhs in
                switch FastCollationKey.compare(weights[Int(lhs)]!, weights[Int(rhs)]!) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: return precedes(lhs, rhs)
                }
            }
        }
        slow.sort(by: precedes)
        if fast.isEmpty { return slow }
        if slow.isEmpty { return fast }
        var merged: [Int32] = []
        merged.reserveCapacity(slots.count)
        var i = 0, j = 0
        while i < fast.count && j < slow.count {
            if precedes(slow[j], fast[i]) {
                merged.append(slow[j]); j += 1
            } else {
                merged.append(fast[i]); i += 1
            }
        }
        merged += fast[i...]
        merged += slow[j...]
        return merged
    }

    private func precedes(_ lhs: Int32, _ rhs: Int32) -> Bool {
        collator.compare(keys[Int(lhs)], keys[Int(rhs)]) == .orderedAscending
    }
}
