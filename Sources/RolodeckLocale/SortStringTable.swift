import RolodeckCore

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

    /// The slot of each string. Swift's String equality is canonical equivalence, so NFC and
    /// NFD spellings share a slot and therefore a rank.
    private var slots: [String: Int32] = [:]
    /// The same slots by the exact UTF-8 bytes of the strings looked up, tried first: hashing a
    /// String not in ASCII normalizes it, most lookups are of a string seen already (family
    /// names repeat), and equal bytes are equal strings.
    private var byteSlots = ByteSlots()
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
        var bytes = string
        return bytes.withUTF8 { bytes in
            let hash = ByteSlots.hash(bytes)
            if let slot = byteSlots.slot(for: bytes, hash: hash) { return slot }
            let slot = canonicalSlot(for: string)
            byteSlots.insert(bytes, hash: hash, slot: slot)
            return slot
        }
    }

    /// The slot of `string` or of a canonically equivalent one, adding it on first sight.
    private mutating func canonicalSlot(for string: String) -> Int32 {
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
    /// The collation key of each slot.
    let keys: [NameCollator.Key]
    /// What compares keys without fast weights.
    let collator: NameCollator
    /// The fast weights of each slot, apart from the keys so the common
    /// comparison touches one array and no strings.
    private let weights: [[UInt16]?]

    /// A sorter of the slots of `keys`.
    init(keys: [NameCollator.Key], collator: NameCollator) {
        self.keys = keys
        self.collator = collator
        weights = keys.map(\.fastWeights)
    }

    /// `slots` in collation order of their keys.
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

/// An open-addressing table from byte strings to slots, for `SortStringTable`.
private struct ByteSlots {
    /// One key: its hash, its slot, and where its bytes are in `bytes`.
    private struct Entry {
        var hash: Int
        var slot: Int32
        var start: Int32
        var count: Int32

        /// No key.
        static let empty = Entry(hash: 0, slot: -1, start: 0, count: 0)
    }

    /// At most half full, a power of two long.
    private var entries = [Entry](repeating: .empty, count: 256)
    /// Every key's bytes, one after another.
    private var bytes: [UInt8] = []
    private var count = 0

    /// FNV-1a over the bytes (the keys are names from the store, not chosen against the table).
    static func hash(_ key: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return Int(truncatingIfNeeded: hash ^ hash >> 29)
    }

    /// The slot stored for exactly these bytes, if any.
    func slot(for key: UnsafeBufferPointer<UInt8>, hash: Int) -> Int32? {
        entries.withUnsafeBufferPointer { entries in
            bytes.withUnsafeBufferPointer { bytes in
                let mask = entries.count - 1
                var position = hash & mask
                while entries[position].slot >= 0 {
                    let entry = entries[position]
                    if entry.hash == hash, Int(entry.count) == key.count,
                        key.elementsEqual(bytes[Int(entry.start)..<Int(entry.start + entry.count)]) {
                        return entry.slot
                    }
                    position = (position + 1) & mask
                }
                return nil
            }
        }
    }

    /// Stores `slot` for bytes not stored yet.
    mutating func insert(_ key: UnsafeBufferPointer<UInt8>, hash: Int, slot: Int32) {
        if (count + 1) * 2 > entries.count { grow() }
        let entry = Entry(hash: hash, slot: slot, start: Int32(bytes.count), count: Int32(key.count))
        bytes.append(contentsOf: key)
        place(entry)
        count += 1
    }

    private mutating func place(_ entry: Entry) {
        let mask = entries.count - 1
        var position = entry.hash & mask
        while entries[position].slot >= 0 { position = (position + 1) & mask }
        entries[position] = entry
    }

    private mutating func grow() {
        let old = entries
        entries = [Entry](repeating: .empty, count: old.count * 2)
        for entry in old where entry.slot >= 0 { place(entry) }
    }
}
