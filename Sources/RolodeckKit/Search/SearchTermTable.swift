/// Every term of a directory in key order, each with the contacts it finds and how.
///
/// Keys are compared as UTF-16 code units, the order JavaScript's `<` uses, so the client's
/// binary searches agree with the build. Contacts are numbered by their place in the directory
/// (`Directory.entries`), which is also the order results are listed in within a tier.
///
/// Built for 100,000 contacts and millions of terms: keys live in one buffer and are found
/// through an open-addressing hash table, so adding a term allocates nothing.
struct SearchTermTable {
    /// Collects the terms of one contact after another.
    struct Builder: SearchTermSink {
        fileprivate var units: [UInt16] = []
        fileprivate var keyStart: [Int] = []
        fileprivate var keyLength: [Int] = []
        /// Open addressing: each slot is a key's 32-bit hash (high half) and number + 1 (low
        /// half), 0 when empty, so a probe rarely needs to look at the key itself.
        private var slots = [UInt64](repeating: 0, count: 1 << 16)
        private var lastContact: [Int32] = []
        private var lastPosting: [Int32] = []
        fileprivate var postingKey: [Int32] = []
        fileprivate var postingContact: [Int32] = []
        fileprivate var postingTier: [SearchTier] = []
        private var contact: Int32 = -1
        /// The terms of each shared text seen so far, as key number × 4 + tier: names,
        /// organizations and groups repeat across contacts, and folding them is the costly part.
        private var sharedTerms: [SharedText: [Int]] = [:]
        private var recording: [Int]?

        private struct SharedText: Hashable {
            var text: String
            var tier: SearchTier
        }

        /// Starts the next contact; its number is one more than the last one's.
        mutating func nextContact() { contact += 1 }

        /// How many contacts have been started.
        var contactCount: Int { Int(contact) + 1 }

        mutating func add(_ key: ArraySlice<UInt16>, _ tier: SearchTier) {
            guard !key.isEmpty else { return }
            let number = intern(key)
            recording?.append(number << 2 | Int(tier.rawValue))
            post(number, tier)
        }

        mutating func add(sharedText text: String, tier: SearchTier) {
            let shared = SharedText(text: text, tier: tier)
            if let terms = sharedTerms[shared] {
                for term in terms { post(term >> 2, SearchTier(rawValue: UInt8(term & 3))!) }
                return
            }
            recording = []
            SearchTerms.add(text: text, tier: tier, to: &self)
            sharedTerms[shared] = recording
            recording = nil
        }

        /// Records that the current contact has the key with that number.
        private mutating func post(_ number: Int, _ tier: SearchTier) {
            if lastContact[number] == contact {
                let posting = Int(lastPosting[number])
                if tier < postingTier[posting] { postingTier[posting] = tier }
                return
            }
            lastContact[number] = contact
            lastPosting[number] = Int32(postingKey.count)
            postingKey.append(Int32(number))
            postingContact.append(contact)
            postingTier.append(tier)
        }

        /// The key's number, adding the key if it is new.
        private mutating func intern(_ key: ArraySlice<UInt16>) -> Int {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for unit in key { hash = (hash ^ UInt64(unit)) &* 0x100_0000_01b3 }
            let fingerprint = UInt64(UInt32(truncatingIfNeeded: hash ^ (hash >> 32))) << 32
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: fingerprint >> 32) & mask
            while slots[slot] != 0 {
                if slots[slot] & 0xFFFF_FFFF_0000_0000 == fingerprint {
                    let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
                    if keyLength[number] == key.count,
                        units[keyStart[number]..<keyStart[number] + key.count].elementsEqual(key)
                    {
                        return number
                    }
                }
                slot = (slot + 1) & mask
            }
            let number = keyStart.count
            keyStart.append(units.count)
            keyLength.append(key.count)
            units += key
            lastContact.append(-1)
            lastPosting.append(0)
            slots[slot] = fingerprint | UInt64(number + 1)
            if keyStart.count * 2 > slots.count { grow() }
            return number
        }

        private mutating func grow() {
            let old = slots
            slots = [UInt64](repeating: 0, count: old.count * 2)
            let mask = slots.count - 1
            for entry in old where entry != 0 {
                var slot = Int(truncatingIfNeeded: entry >> 32) & mask
                while slots[slot] != 0 { slot = (slot + 1) & mask }
                slots[slot] = entry
            }
        }
    }

    private let units: [UInt16]
    /// Start and length in `units` of each key, in key order.
    private let keyStart: [Int]
    private let keyLength: [Int]
    /// Where each key's postings start in `contacts` and `tiers`; one more entry than keys.
    private let postingStart: [Int]
    /// Contact numbers, ascending within each key.
    let contacts: [Int32]
    /// The tier of each posting, parallel to `contacts`.
    let tiers: [SearchTier]
    /// How many contacts were indexed.
    let contactCount: Int

    /// Sorts what a builder collected.
    init(_ builder: Builder) {
        let units = builder.units, starts = builder.keyStart, lengths = builder.keyLength
        let order = units.withUnsafeBufferPointer { buffer in
            starts.indices.sorted { a, b in
                let lhs = buffer[starts[a]..<starts[a] + lengths[a]],
                    rhs = buffer[starts[b]..<starts[b] + lengths[b]]
                return lhs.lexicographicallyPrecedes(rhs)
            }
        }
        var rank = [Int](repeating: 0, count: order.count)
        for (position, number) in order.enumerated() { rank[number] = position }

        // A counting sort by key keeps each key's postings in contact order, as they were added.
        var postingStart = [Int](repeating: 0, count: order.count + 1)
        for key in builder.postingKey { postingStart[rank[Int(key)] + 1] += 1 }
        for index in order.indices { postingStart[index + 1] += postingStart[index] }
        var next = postingStart
        var contacts = [Int32](repeating: 0, count: builder.postingKey.count)
        var tiers = [SearchTier](repeating: .name, count: builder.postingKey.count)
        for posting in builder.postingKey.indices {
            let position = rank[Int(builder.postingKey[posting])]
            contacts[next[position]] = builder.postingContact[posting]
            tiers[next[position]] = builder.postingTier[posting]
            next[position] += 1
        }
        self.units = units
        self.keyStart = order.map { starts[$0] }
        self.keyLength = order.map { lengths[$0] }
        self.postingStart = postingStart
        self.contacts = contacts
        self.tiers = tiers
        self.contactCount = builder.contactCount
    }

    /// How many keys there are.
    var count: Int { keyStart.count }

    /// The key at a position in key order.
    func key(_ index: Int) -> ArraySlice<UInt16> {
        units[keyStart[index]..<keyStart[index] + keyLength[index]]
    }

    /// The positions in `contacts` and `tiers` of a key's postings.
    func postings(_ index: Int) -> Range<Int> {
        postingStart[index]..<postingStart[index + 1]
    }

    /// The contacts a key finds, one ascending list per tier.
    func lists(_ index: Int) -> [[Int32]] {
        var lists = [[Int32]](repeating: [], count: SearchTier.allCases.count)
        for posting in postings(index) {
            lists[Int(tiers[posting].rawValue)].append(contacts[posting])
        }
        return lists
    }

    /// The positions of the keys that start with `prefix`.
    func range(ofPrefix prefix: some Collection<UInt16>) -> Range<Int> {
        let lower = partition { !$0.lexicographicallyPrecedes(prefix) }
        let upper = partition { !$0.starts(with: prefix) && !$0.lexicographicallyPrecedes(prefix) }
        return lower..<max(lower, upper)
    }

    /// The first key position for which `isAtOrAfter` holds (it must be monotonic over the keys).
    private func partition(_ isAtOrAfter: (ArraySlice<UInt16>) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(key(middle)) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The contacts any key starting with `prefix` finds, each with its best tier, as one
    /// ascending list per tier; `inside` is left empty when `includeInside` is false.
    /// `scratch` has one entry per contact, all `UInt8.max`, and is left that way.
    func mergedLists(ofPrefix prefix: [UInt16], includeInside: Bool, scratch: inout [UInt8]) -> [[Int32]] {
        var touched: [Int32] = []
        for index in range(ofPrefix: prefix) {
            for posting in postings(index) {
                let tier = tiers[posting]
                if tier == .inside && !includeInside { continue }
                let contact = Int(contacts[posting])
                if scratch[contact] == UInt8.max { touched.append(contacts[posting]) }
                scratch[contact] = min(scratch[contact], tier.rawValue)
            }
        }
        touched.sort()
        var lists = [[Int32]](repeating: [], count: SearchTier.allCases.count)
        for contact in touched {
            lists[Int(scratch[Int(contact)])].append(contact)
            scratch[Int(contact)] = UInt8.max
        }
        return lists
    }
}
