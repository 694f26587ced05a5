extension SearchTermTable {
    /// Collects the terms of a run of consecutive contacts, one contact after another.
    /// Builders of consecutive runs fill in parallel and `SearchTermTable(merging:contactCount:)`
    /// joins them.
    ///
    /// Keys live in one buffer and are found through an open-addressing hash table, so adding a
    /// term allocates nothing. A key's hash is taken from its last unit to its first, so that the
    /// tails of a key (a phone number's digits from each digit on) are hashed in one pass.
    struct Builder: SearchTermSink {
        /// Every key's units, one key after another in the order they were first added. While
        /// adding, only the first `unitCount` are keys: the rest is room for more, so that a
        /// new key is copied in place instead of appended (which cost more than the copy).
        private(set) var units = [UInt16](repeating: 0, count: 1 << 12)
        private var unitCount = 0
        /// Where each key starts in `units`, and where the last one ends: one more than keys.
        private(set) var keyStart: [Int32] = [0]
        /// How many of the run's contacts each key finds; counted when the builder is finished.
        private(set) var keyPostings: [Int32] = []
        /// The postings, contact after contact: key number × 4 + tier.
        private(set) var postings: [UInt32] = []
        /// Where each contact's postings start in `postings`, and where the last one's end.
        private(set) var contactStart: [Int32] = []
        /// The number of the run's first contact.
        let firstContact: Int
        /// Open addressing: each slot is a key's 32-bit hash (high half) and number + 1 (low
        /// half), 0 when empty, so a probe rarely needs to look at the key itself.
        private var slots: [UInt64]
        /// For each key, the last contact that has it (high half, counted from the run's first)
        /// and where that contact's posting of it is (low half); all ones before any.
        private var lastPosting: [UInt64] = []
        /// The current contact, counted from the run's first.
        private var contact: UInt32 = UInt32.max
        /// The shared texts seen so far: their UTF-8 bytes one after another, and where each
        /// text's bytes and terms are, found through a second open-addressing table. Names,
        /// organizations and groups repeat across contacts, and folding them is the costly part.
        private var sharedBytes: [UInt8] = []
        private var sharedTexts: [SharedText] = []
        private var sharedSlots = [Int32](repeating: 0, count: 1 << 10)
        /// The terms of every shared text, text after text, as key number × 4 + tier.
        private var sharedTerms: [UInt32] = []
        private var recording = false

        /// Where a shared text's bytes and terms are.
        private struct SharedText {
            var hash: UInt64
            var tier: SearchTier
            var bytes: Range<Int32>
            var terms: Range<Int32>
        }

        /// The hash of an empty key (FNV-1a's offset basis); `hash(_:continuing:)` adds units.
        private static let emptyHash: UInt64 = 0xcbf2_9ce4_8422_2325

        /// A builder whose first contact has the number `firstContact`. With the number of
        /// contacts it will take, its hash table starts at the size it would grow to (at about
        /// `keysPerContact` new keys a contact) and its arrays of contacts and postings are
        /// made at their size once.
        init(firstContact: Int = 0, contactCount: Int = 0) {
            self.firstContact = firstContact
            var slotCount = 1 << 14
            while slotCount < 2 * Self.keysPerContact * contactCount { slotCount *= 2 }
            slots = [UInt64](repeating: 0, count: slotCount)
            contactStart.reserveCapacity(contactCount + 1)
            postings.reserveCapacity(Self.postingsPerContact * contactCount)
        }

        /// About how many new keys and postings a contact of a large directory adds: names and
        /// domains repeat, the digits of phone numbers and the user names of addresses do not.
        static let keysPerContact = 14, postingsPerContact = 80

        /// How many keys there are.
        var keyCount: Int { keyStart.count - 1 }

        /// Starts the next contact; its number is one more than the last one's.
        mutating func nextContact() {
            contact &+= 1
            contactStart.append(Int32(postings.count))
        }

        mutating func add(_ key: ArraySlice<UInt16>, _ tier: SearchTier) {
            guard !key.isEmpty else { return }
            add(key, hash: Self.hash(key, continuing: Self.emptyHash), tier)
        }

        mutating func add(
            tailsOf units: ArraySlice<UInt16>, from starts: some BidirectionalCollection<Int>,
            _ first: SearchTier, then rest: SearchTier
        ) {
            // From the last start to the first, each tail's hash continues the one after it.
            var hash = Self.emptyHash
            var hashedFrom = units.endIndex
            var index = starts.endIndex
            while index != starts.startIndex {
                starts.formIndex(before: &index)
                let start = starts[index]
                guard start < units.endIndex else { continue }
                hash = Self.hash(units[start..<hashedFrom], continuing: hash)
                hashedFrom = start
                add(units[start...], hash: hash, index == starts.startIndex ? first : rest)
            }
        }

        mutating func add(sharedText text: String, tier: SearchTier) {
            var text = text
            let (found, slot, hash) = text.withUTF8 { sharedText($0, tier: tier) }
            addShared(found, slot: slot, hash: hash, tier: tier, bytes: text.utf8) { builder in
                SearchTerms.add(text: text, tier: tier, to: &builder)
            }
        }

        mutating func add(asciiPart units: ArraySlice<UInt16>, tier: SearchTier) {
            // Its units are its UTF-8 bytes, and a text of those bytes is that one part: the two
            // share their terms.
            let bytes = units.lazy.map { UInt8(truncatingIfNeeded: $0) }
            let (found, slot, hash) = sharedText(bytes, tier: tier)
            addShared(found, slot: slot, hash: hash, tier: tier, bytes: bytes) { builder in
                SearchTerms.add(part: units, starts: units.indices, tier: tier, to: &builder)
            }
        }

        /// Adds the terms of the shared text `sharedText(_:tier:)` found, or else those `add`
        /// adds, remembering them. A shared text's terms may add shared parts: a part's terms
        /// are then also the text's, whether remembered or found.
        private mutating func addShared(
            _ found: Int?, slot: Int, hash: UInt64, tier: SearchTier, bytes: some Collection<UInt8>,
            add: (inout Builder) -> Void
        ) {
            if let found {
                let terms = sharedTexts[found].terms
                for index in Int(terms.lowerBound)..<Int(terms.upperBound) {
                    let term = sharedTerms[index]
                    if recording { sharedTerms.append(term) }
                    post(Int(term >> 2), UInt32(term & 3))
                }
                return
            }
            let bytesStart = Int32(sharedBytes.count), termsStart = Int32(sharedTerms.count)
            sharedBytes += bytes
            let outerRecording = recording
            let sharedCount = sharedTexts.count
            recording = true
            add(&self)
            recording = outerRecording
            sharedTexts.append(
                SharedText(
                    hash: hash, tier: tier, bytes: bytesStart..<Int32(sharedBytes.count),
                    terms: termsStart..<Int32(sharedTerms.count)))
            // Shared parts added meanwhile may have taken the slot, or grown the table.
            var slot = slot
            if sharedTexts.count - 1 > sharedCount {
                let mask = sharedSlots.count - 1
                slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
                while sharedSlots[slot] != 0 { slot = (slot + 1) & mask }
            }
            sharedSlots[slot] = Int32(sharedTexts.count)
            if sharedTexts.count * 2 > sharedSlots.count { growSharedTexts() }
        }

        /// Ends the last contact, counts each key's contacts and drops what only adding needs
        /// (the hash tables, the shared texts), keeping the terms.
        mutating func finish() {
            units.removeSubrange(unitCount...)
            contactStart.append(Int32(postings.count))
            var counts = [Int32](repeating: 0, count: keyCount)
            for posting in postings { counts[Int(posting >> 2)] += 1 }
            keyPostings = counts
            slots = []
            lastPosting = []
            sharedBytes = []
            sharedTexts = []
            sharedSlots = []
            sharedTerms = []
        }

        /// Lets go of the keys, once a table has copied them.
        mutating func dropKeys() {
            units = []
            keyStart = [0]
        }

        /// Continues `hash`, the hash of the units after `units`, with `units` from the last.
        private static func hash(_ units: ArraySlice<UInt16>, continuing hash: UInt64) -> UInt64 {
            var hash = hash
            for unit in units.reversed() { hash = (hash ^ UInt64(unit)) &* 0x100_0000_01b3 }
            return hash
        }

        /// Adds a key whose hash is known.
        private mutating func add(_ key: ArraySlice<UInt16>, hash: UInt64, _ tier: SearchTier) {
            let number = intern(key, hash: hash)
            if recording { sharedTerms.append(UInt32(number) << 2 | UInt32(tier.rawValue)) }
            post(number, UInt32(tier.rawValue))
        }

        /// Records that the current contact has the key with that number, in that tier. Inlined:
        /// it is called for every term, and the call was a third of its cost.
        @inline(__always)
        private mutating func post(_ number: Int, _ tier: UInt32) {
            let last = lastPosting[number]
            if UInt32(truncatingIfNeeded: last >> 32) == contact {
                let posting = Int(truncatingIfNeeded: last & 0xFFFF_FFFF)
                if tier < postings[posting] & 3 { postings[posting] = postings[posting] & ~3 | tier }
                return
            }
            lastPosting[number] = UInt64(contact) << 32 | UInt64(postings.count)
            postings.append(UInt32(number) << 2 | tier)
        }

        /// The key's number, adding the key if it is new.
        private mutating func intern(_ key: ArraySlice<UInt16>, hash: UInt64) -> Int {
            let fingerprint = UInt64(UInt32(truncatingIfNeeded: hash ^ (hash >> 32))) << 32
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: fingerprint >> 32) & mask
            while slots[slot] != 0 {
                if slots[slot] & 0xFFFF_FFFF_0000_0000 == fingerprint {
                    let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
                    let start = Int(keyStart[number]), end = Int(keyStart[number + 1])
                    if end - start == key.count, Self.equal(units, from: start, key) { return number }
                }
                slot = (slot + 1) & mask
            }
            let number = keyCount
            if unitCount + key.count > units.count {
                units += repeatElement(0, count: max(units.count, key.count))
            }
            units.withUnsafeMutableBufferPointer { units in
                key.withUnsafeBufferPointer { key in
                    guard let target = units.baseAddress, let source = key.baseAddress else { return }
                    (target + unitCount).update(from: source, count: key.count)
                }
            }
            unitCount += key.count
            keyStart.append(Int32(unitCount))
            lastPosting.append(UInt64.max)
            slots[slot] = fingerprint | UInt64(number + 1)
            if keyCount * 2 > slots.count { grow() }
            return number
        }

        /// Whether `units` from `start` on begin with `key`'s units (which `units` has room for),
        /// compared four units at a time.
        private static func equal(_ units: [UInt16], from start: Int, _ key: ArraySlice<UInt16>) -> Bool {
            units.withUnsafeBytes { stored in
                key.withUnsafeBytes { key in
                    let offset = start * 2
                    var byte = 0
                    while byte + 8 <= key.count {
                        guard
                            stored.loadUnaligned(fromByteOffset: offset + byte, as: UInt64.self)
                                == key.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
                        else { return false }
                        byte += 8
                    }
                    while byte < key.count {
                        guard
                            stored.loadUnaligned(fromByteOffset: offset + byte, as: UInt16.self)
                                == key.loadUnaligned(fromByteOffset: byte, as: UInt16.self)
                        else { return false }
                        byte += 2
                    }
                    return true
                }
            }
        }

        /// Whether `bytes` from `start` on begin with `key`'s bytes.
        private static func equal(_ bytes: [UInt8], from start: Int, _ key: some Collection<UInt8>) -> Bool {
            var position = start
            for byte in key {
                guard bytes[position] == byte else { return false }
                position += 1
            }
            return true
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

        /// Looks a shared text up by its UTF-8 bytes (canonically equivalent texts that differ
        /// in bytes fold alike, so each is folded once): its number if it was seen, else the
        /// slot to record it in; and its hash. Mutating only so that a call from a mutating
        /// method does not copy the builder.
        private mutating func sharedText(_ bytes: some Collection<UInt8>, tier: SearchTier)
            -> (found: Int?, slot: Int, hash: UInt64)
        {
            var hash = Self.emptyHash ^ UInt64(tier.rawValue)
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ UInt64(bytes.count)) &* 0x100_0000_01b3
            let mask = sharedSlots.count - 1
            var slot = Int(truncatingIfNeeded: hash ^ (hash >> 32)) & mask
            while sharedSlots[slot] != 0 {
                let number = Int(sharedSlots[slot]) - 1
                let shared = sharedTexts[number]
                if shared.hash == hash, shared.tier == tier, shared.bytes.count == bytes.count,
                    Self.equal(sharedBytes, from: Int(shared.bytes.lowerBound), bytes)
                {
                    return (number, slot, hash)
                }
                slot = (slot + 1) & mask
            }
            return (nil, slot, hash)
        }

        private mutating func growSharedTexts() {
            sharedSlots = [Int32](repeating: 0, count: sharedSlots.count * 2)
            let mask = sharedSlots.count - 1
            for (number, shared) in sharedTexts.enumerated() {
                var slot = Int(truncatingIfNeeded: shared.hash ^ (shared.hash >> 32)) & mask
                while sharedSlots[slot] != 0 { slot = (slot + 1) & mask }
                sharedSlots[slot] = Int32(number + 1)
            }
        }
    }
}
