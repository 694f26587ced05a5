extension SearchTermTable {
    /// Collects the terms of a run of consecutive contacts, one contact after another.
    /// Builders of consecutive runs fill in parallel and `SearchTermTable(merging:contactCount:)`
    /// joins them.
    ///
    /// Keys live in one buffer and are found through an open-addressing hash table, so adding a
    /// term allocates nothing.
    struct Builder: SearchTermSink {
        /// Every key's units, one key after another in the order they were first added.
        private(set) var units: [UInt16] = []
        /// Where each key starts in `units`, and where the last one ends: one more than keys.
        private(set) var keyStart: [Int32] = [0]
        /// How many of the run's contacts each key finds.
        private(set) var keyPostings: [Int32] = []
        /// The postings, contact after contact: key number × 4 + tier.
        private(set) var postings: [UInt32] = []
        /// Where each contact's postings start in `postings`, and where the last one's end.
        private(set) var contactStart: [Int32] = []
        /// The number of the run's first contact.
        let firstContact: Int
        /// Open addressing: each slot is a key's 32-bit hash (high half) and number + 1 (low
        /// half), 0 when empty, so a probe rarely needs to look at the key itself.
        private var slots = [UInt64](repeating: 0, count: 1 << 14)
        private var lastContact: [Int32] = []
        private var lastPosting: [Int32] = []
        private var contact: Int32
        /// The terms of each shared text seen so far, as key number × 4 + tier: names,
        /// organizations and groups repeat across contacts, and folding them is the costly part.
        private var sharedTerms: [SharedText: [Int]] = [:]
        private var recording: [Int]?

        private struct SharedText: Hashable {
            var text: String
            var tier: SearchTier
        }

        /// A builder whose first contact has the number `firstContact`.
        init(firstContact: Int = 0) {
            self.firstContact = firstContact
            contact = Int32(firstContact) - 1
        }

        /// How many keys there are.
        var keyCount: Int { keyStart.count - 1 }

        /// Starts the next contact; its number is one more than the last one's.
        mutating func nextContact() {
            contact += 1
            contactStart.append(Int32(postings.count))
        }

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

        /// Ends the last contact and drops what only adding needs (the hash table, the shared
        /// texts), keeping the terms.
        mutating func finish() {
            contactStart.append(Int32(postings.count))
            slots = []
            lastContact = []
            lastPosting = []
            sharedTerms = [:]
        }

        /// Lets go of the keys, once a table has copied them.
        mutating func dropKeys() {
            units = []
            keyStart = [0]
        }

        /// Records that the current contact has the key with that number.
        private mutating func post(_ number: Int, _ tier: SearchTier) {
            if lastContact[number] == contact {
                let posting = Int(lastPosting[number])
                if tier.rawValue < postings[posting] & 3 {
                    postings[posting] = postings[posting] & ~3 | UInt32(tier.rawValue)
                }
                return
            }
            lastContact[number] = contact
            lastPosting[number] = Int32(postings.count)
            keyPostings[number] += 1
            postings.append(UInt32(number) << 2 | UInt32(tier.rawValue))
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
                    let start = Int(keyStart[number]), end = Int(keyStart[number + 1])
                    if end - start == key.count, units[start..<end].elementsEqual(key) {
                        return number
                    }
                }
                slot = (slot + 1) & mask
            }
            let number = keyCount
            units += key
            keyStart.append(Int32(units.count))
            keyPostings.append(0)
            lastContact.append(-1)
            lastPosting.append(0)
            slots[slot] = fingerprint | UInt64(number + 1)
            if keyCount * 2 > slots.count { grow() }
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
}
