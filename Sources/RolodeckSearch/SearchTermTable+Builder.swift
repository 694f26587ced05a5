import ByteKernels

extension SearchTermTable {
    /// Collects the terms of a run of consecutive contacts, one contact after another.
    /// Builders of consecutive runs fill in parallel and `SearchTermTable(merging:contactCount:)`
    /// joins them.
    ///
    /// Keys live in one buffer and are found through an open-addressing hash table, so adding a
    /// term allocates nothing. A key's hash is taken from its last unit to its first, so that the
    /// tails of a key (a phone number's digits from each digit on) are hashed in one pass.
    struct Builder: SearchTermSink {
        // While adding, `units`, `keyStart`, `lastPosting`, `postings` and `sharedTerms` hold
        // room beyond their counts: a batch of terms makes room for what it may add once, then
        // writes through `Tables` and `Postings` without the checks of an array write (its
        // buffer's uniqueness, its capacity), which cost more than the writes themselves. `finish` cuts the
        // room off.

        /// Every key's units, one key after another in the order they were first added.
        private(set) var units = [UInt16](repeating: 0, count: 1 << 12)
        private var unitCount = 0
        /// Where each key starts in `units`, and where the last one ends: one more than keys.
        private(set) var keyStart: [Int32]
        /// How many keys there are.
        private(set) var keyCount = 0
        /// How many of the run's contacts each key finds; counted when the builder is finished.
        private(set) var keyPostings: [Int32] = []
        /// The postings, contact after contact: key number × 4 + tier.
        private(set) var postings: [UInt32]
        private var postingCount = 0
        /// Where each contact's postings start in `postings`, and where the last one's end.
        private(set) var contactStart: [Int32] = []
        /// The number of the run's first contact.
        let firstContact: Int
        /// Open addressing: each slot is a key's 32-bit hash (high half) and number + 1 (low
        /// half), 0 when empty, so a probe rarely needs to look at the key itself.
        private var slots: [UInt64]
        /// For each key, the last contact that has it (high half, counted from the run's first)
        /// and where that contact's posting of it is (low half); all ones before any.
        private var lastPosting: [UInt64]
        /// The current contact, counted from the run's first.
        private var contact: UInt32 = UInt32.max
        /// The shared texts seen so far: their UTF-8 bytes one after another, and where each
        /// text's bytes and terms are, found through a second open-addressing table. Names,
        /// organizations and groups repeat across contacts, and folding them is the costly part.
        private var sharedBytes: [UInt8] = []
        private var sharedTexts: [SharedText] = []
        private var sharedSlots = [Int32](repeating: 0, count: 1 << 10)
        /// The terms of every shared text, text after text, as key number × 4 + tier.
        private var sharedTerms = [UInt32](repeating: 0, count: 1 << 10)
        private var sharedTermCount = 0
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
        /// `keysPerContact` new keys a contact) and its arrays of contacts, keys and postings
        /// are made at about their size once.
        init(firstContact: Int = 0, contactCount: Int = 0) {
            self.firstContact = firstContact
            var slotCount = 1 << 14
            while slotCount < 2 * Self.keysPerContact * contactCount { slotCount *= 2 }
            slots = [UInt64](repeating: 0, count: slotCount)
            contactStart.reserveCapacity(contactCount + 1)
            postings = [UInt32](repeating: 0, count: max(1 << 10, Self.postingsPerContact * contactCount))
            let keys = max(1 << 10, Self.keysPerContact * contactCount)
            keyStart = [Int32](repeating: 0, count: keys)
            lastPosting = [UInt64](repeating: 0, count: keys)
        }

        /// About how many new keys and postings a contact of a large directory adds: names and
        /// domains repeat, the digits of phone numbers and the user names of addresses do not.
        static let keysPerContact = 14, postingsPerContact = 80

        /// Starts the next contact; its number is one more than the last one's.
        mutating func nextContact() {
            contact &+= 1
            contactStart.append(Int32(postingCount))
        }

        mutating func add(_ key: ArraySlice<UInt16>, _ tier: SearchTier) {
            guard !key.isEmpty else { return }
            withTables(terms: 1, newKeys: 1, units: key.count) { tables in
                key.withUnsafeBufferPointer { key in
                    guard let start = key.baseAddress else { return }
                    let hash = Self.hash(start, count: key.count, continuing: Self.emptyHash)
                    tables.add(start, count: key.count, hash: hash, tier: UInt32(tier.rawValue))
                }
            }
        }

        /// Adds again the terms a finished builder `run` has for one contact (`postings`, each
        /// key number × 4 + tier, as `run.postings` holds them), in one batch: a watch rebuild
        /// adds every unchanged contact of a run that has a changed one this way.
        mutating func add(postings: ArraySlice<UInt32>, of run: Builder) {
            var units = 0
            for posting in postings {
                let number = Int(posting >> 2)
                units += Int(run.keyStart[number + 1] - run.keyStart[number])
            }
            withTables(terms: postings.count, newKeys: postings.count, units: units) { tables in
                run.units.withUnsafeBufferPointer { runUnits in
                    guard let base = runUnits.baseAddress else { return }
                    for posting in postings {
                        let number = Int(posting >> 2)
                        let start = Int(run.keyStart[number]), count = Int(run.keyStart[number + 1]) - start
                        let hash = Self.hash(base + start, count: count, continuing: Self.emptyHash)
                        tables.add(base + start, count: count, hash: hash, tier: posting & 3)
                    }
                }
            }
        }

        mutating func add(
            tailsOf units: ArraySlice<UInt16>, from starts: some BidirectionalCollection<Int>,
            _ first: SearchTier, then rest: SearchTier
        ) {
            var tails = 0, tailUnits = 0
            for start in starts where start < units.endIndex {
                tails += 1
                tailUnits += units.endIndex - start
            }
            guard tails > 0 else { return }
            withTables(terms: tails, newKeys: tails, units: tailUnits) { tables in
                units.withUnsafeBufferPointer { buffer in
                    guard let base = buffer.baseAddress else { return }
                    // Indices of the slice, as offsets from its start.
                    let offset = units.startIndex, end = units.count
                    // From the last start to the first, each tail's hash continues the one after it.
                    var hash = Self.emptyHash
                    var hashedFrom = end
                    var index = starts.endIndex
                    while index != starts.startIndex {
                        starts.formIndex(before: &index)
                        let start = starts[index] - offset
                        guard start < end else { continue }
                        hash = Self.hash(base + start, count: hashedFrom - start, continuing: hash)
                        hashedFrom = start
                        let tier = index == starts.startIndex ? first : rest
                        tables.add(base + start, count: end - start, hash: hash, tier: UInt32(tier.rawValue))
                    }
                }
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
                let known = sharedTexts[found].terms
                let terms = Int(known.lowerBound)..<Int(known.upperBound)
                guard !recording else {
                    withPostings(terms: terms.count) { postings in
                        for index in terms {
                            let term = postings.sharedTerms[index]
                            postings.record(term)
                            postings.post(Int(term >> 2), term & 3)
                        }
                    }
                    return
                }
                // A batch that does not record leaves `sharedTerms` alone: this reference to it
                // does not make the batch copy it.
                let recorded = sharedTerms
                withPostings(terms: terms.count) { postings in
                    for index in terms {
                        let term = recorded[index]
                        postings.post(Int(term >> 2), term & 3)
                    }
                }
                return
            }
            let bytesStart = Int32(sharedBytes.count), termsStart = Int32(sharedTermCount)
            sharedBytes += bytes
            let outerRecording = recording
            let sharedCount = sharedTexts.count
            recording = true
            add(&self)
            recording = outerRecording
            sharedTexts.append(
                SharedText(
                    hash: hash, tier: tier, bytes: bytesStart..<Int32(sharedBytes.count),
                    terms: termsStart..<Int32(sharedTermCount)))
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
            keyStart.removeSubrange((keyCount + 1)...)
            postings.removeSubrange(postingCount...)
            contactStart.append(Int32(postingCount))
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

        /// Lets go of the keys, once a table has copied them; `keyCount` stays.
        mutating func dropKeys() {
            units = []
            keyStart = [0]
        }

        /// Continues `hash`, the hash of the units after `units`, with the `count` units at
        /// `units` from the last.
        @inline(__always)
        private static func hash(_ units: UnsafePointer<UInt16>, count: Int, continuing hash: UInt64)
            -> UInt64
        {
            var hash = hash
            var index = count
            while index > 0 {
                index -= 1
                hash = (hash ^ UInt64(units[index])) &* 0x100_0000_01b3
            }
            return hash
        }

        /// Makes room for a batch of at most `terms` terms, of which at most `newKeys` are new
        /// keys of `units` units in all, and calls `body` with the tables to add them to.
        private mutating func withTables<Result>(
            terms: Int, newKeys: Int, units newUnits: Int, _ body: (inout Tables) -> Result
        ) -> Result {
            if unitCount + newUnits > units.count {
                units += repeatElement(0, count: max(units.count, newUnits))
            }
            if keyCount + 1 + newKeys > keyStart.count {
                let more = max(keyStart.count, newKeys)
                keyStart += repeatElement(0, count: more)
                lastPosting += repeatElement(0, count: more)
            }
            // At most half the slots are taken, so that probes stay short.
            while (keyCount + newKeys) * 2 > slots.count { grow() }
            makeRoom(terms: terms)
            var counts = (unitCount, keyCount), postingCounts = (postingCount, sharedTermCount)
            let contact = contact, recording = recording
            // Each array's buffer is taken once for the whole batch.
            let result = units.withUnsafeMutableBufferPointer { units in
                keyStart.withUnsafeMutableBufferPointer { keyStart in
                    slots.withUnsafeMutableBufferPointer { slots in
                        Self.withPostings(
                            &lastPosting, &postings, &sharedTerms, &postingCounts, contact: contact,
                            recording: recording
                        ) { postings in
                            var tables = Tables(
                                units: units, keyStart: keyStart, slots: slots, unitCount: counts.0,
                                keyCount: counts.1, postings: postings)
                            let result = body(&tables)
                            counts = (tables.unitCount, tables.keyCount)
                            postings = tables.postings
                            return result
                        }
                    }
                }
            }
            (unitCount, keyCount) = counts
            (postingCount, sharedTermCount) = postingCounts
            return result
        }

        /// Makes room for a batch of at most `terms` terms of keys the builder has, and calls
        /// `body` with the postings to post them to. Only the arrays of postings are taken.
        private mutating func withPostings<Result>(terms: Int, _ body: (inout Postings) -> Result) -> Result {
            makeRoom(terms: terms)
            var counts = (postingCount, sharedTermCount)
            let result = Self.withPostings(
                &lastPosting, &postings, &sharedTerms, &counts, contact: contact, recording: recording, body)
            (postingCount, sharedTermCount) = counts
            return result
        }

        /// Makes room for `terms` more postings, and recorded terms while recording.
        private mutating func makeRoom(terms: Int) {
            if postingCount + terms > postings.count {
                postings += repeatElement(0, count: max(postings.count, terms))
            }
            if recording, sharedTermCount + terms > sharedTerms.count {
                sharedTerms += repeatElement(0, count: max(sharedTerms.count, terms))
            }
        }

        /// Calls `body` with the postings of a batch, `counts` holding the numbers of postings
        /// and of recorded terms before and after it. `sharedTerms` is taken only while
        /// `recording`, which is rare: it is one array fewer to check for every other batch.
        private static func withPostings<Result>(
            _ lastPosting: inout [UInt64], _ postings: inout [UInt32], _ sharedTerms: inout [UInt32],
            _ counts: inout (Int, Int), contact: UInt32, recording: Bool, _ body: (inout Postings) -> Result
        ) -> Result {
            lastPosting.withUnsafeMutableBufferPointer { lastPosting in
                postings.withUnsafeMutableBufferPointer { postings in
                    func run(_ sharedTerms: UnsafeMutableBufferPointer<UInt32>) -> Result {
                        var batch = Postings(
                            lastPosting: lastPosting, postings: postings, sharedTerms: sharedTerms,
                            recording: recording, contact: contact, postingCount: counts.0,
                            sharedTermCount: counts.1)
                        let result = body(&batch)
                        counts = (batch.postingCount, batch.sharedTermCount)
                        return result
                    }
                    guard recording else { return run(UnsafeMutableBufferPointer(start: nil, count: 0)) }
                    return sharedTerms.withUnsafeMutableBufferPointer { run($0) }
                }
            }
        }

        /// The builder's keys during a batch, with room made for it, and their counts.
        private struct Tables {
            let units: UnsafeMutableBufferPointer<UInt16>
            let keyStart: UnsafeMutableBufferPointer<Int32>
            let slots: UnsafeMutableBufferPointer<UInt64>
            var unitCount: Int, keyCount: Int
            /// Where the keys' postings go.
            var postings: Postings

            /// Adds the key of `count` units at `key`, whose hash is known, in a tier.
            @inline(__always)
            mutating func add(_ key: UnsafePointer<UInt16>, count: Int, hash: UInt64, tier: UInt32) {
                let number = intern(key, count: count, hash: hash)
                postings.record(UInt32(truncatingIfNeeded: number) << 2 | tier)
                postings.post(number, tier)
            }

            /// The key's number, adding the key if it is new.
            @inline(__always)
            mutating func intern(_ key: UnsafePointer<UInt16>, count: Int, hash: UInt64) -> Int {
                let fingerprint = UInt64(UInt32(truncatingIfNeeded: hash ^ (hash >> 32))) << 32
                let mask = slots.count - 1
                var slot = Int(truncatingIfNeeded: fingerprint >> 32) & mask
                while slots[slot] != 0 {
                    if slots[slot] & 0xFFFF_FFFF_0000_0000 == fingerprint {
                        let number = Int(slots[slot] & 0xFFFF_FFFF) - 1
                        let start = Int(keyStart[number])
                        if Int(keyStart[number + 1]) - start == count, equal(start, key, count) {
                            return number
                        }
                    }
                    slot = (slot + 1) & mask
                }
                let number = keyCount
                copy(key, count)
                unitCount += count
                keyCount += 1
                keyStart[keyCount] = Int32(unitCount)
                postings.lastPosting[number] = UInt64.max
                slots[slot] = fingerprint | UInt64(number + 1)
                return number
            }

            /// Copies a key after the last.
            @inline(__always)
            private func copy(_ key: UnsafePointer<UInt16>, _ count: Int) {
                guard let base = units.baseAddress else { return }
                UTF16Key.copy(key, count: count, to: base + unitCount)
            }

            /// Whether the units from `start` on begin with the `count` units at `key`.
            @inline(__always)
            private func equal(_ start: Int, _ key: UnsafePointer<UInt16>, _ count: Int) -> Bool {
                guard let base = units.baseAddress else { return false }
                return UTF16Key.equal(base + start, key, count: count)
            }
        }

        /// The builder's postings during a batch, with room made for it, and their counts.
        private struct Postings {
            let lastPosting: UnsafeMutableBufferPointer<UInt64>
            let postings: UnsafeMutableBufferPointer<UInt32>
            /// Empty unless `recording`.
            let sharedTerms: UnsafeMutableBufferPointer<UInt32>
            /// Whether the terms added are those of a shared text being folded, to be recorded.
            let recording: Bool
            let contact: UInt32
            var postingCount: Int, sharedTermCount: Int

            /// Records a term of the shared text being folded, if one is.
            @inline(__always)
            mutating func record(_ term: UInt32) {
                guard recording else { return }
                sharedTerms[sharedTermCount] = term
                sharedTermCount += 1
            }

            /// Records that the current contact has the key with that number, in that tier.
            @inline(__always)
            mutating func post(_ number: Int, _ tier: UInt32) {
                let last = lastPosting[number]
                if UInt32(truncatingIfNeeded: last >> 32) == contact {
                    let posting = Int(truncatingIfNeeded: last & 0xFFFF_FFFF)
                    if tier < postings[posting] & 3 { postings[posting] = postings[posting] & ~3 | tier }
                    return
                }
                lastPosting[number] = UInt64(contact) << 32 | UInt64(postingCount)
                postings[postingCount] = UInt32(truncatingIfNeeded: number) << 2 | tier
                postingCount += 1
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
