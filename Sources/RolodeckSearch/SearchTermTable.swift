import RolodeckCore

/// Every term of a directory in key order, each with the contacts it finds and how.
///
/// Keys are compared as UTF-16 code units, the order JavaScript's `<` uses, so the client's
/// binary searches agree with the build. Contacts are numbered by their place in the directory
/// (`Directory.entries`), which is also the order results are listed in within a tier.
///
/// Built for 100,000 contacts and millions of terms: builders (`SearchTermTable.Builder`)
/// collect the terms of runs of contacts on every core, and the table joins them, sorting the
/// keys in buckets by their first unit, also on every core. The result does not depend on how
/// the contacts were cut into runs.
struct SearchTermTable {
    /// Every key's units (a key several builders found is there once per builder).
    private let units: [UInt16]
    /// Where each key starts and ends in `units`, in key order.
    private let keyStart: [Int32]
    private let keyEnd: [Int32]
    /// Where each key's postings start in `contacts` and `tiers`; one more entry than keys.
    private let postingStart: [Int32]
    /// Contact numbers, ascending within each key.
    let contacts: [Int32]
    /// The tier of each posting, parallel to `contacts`.
    let tiers: [SearchTier]
    /// How many contacts were indexed.
    let contactCount: Int

    /// Joins builders of consecutive runs of contacts, given in contact order, and sorts their
    /// keys.
    init(merging builders: [Builder], contactCount: Int) {
        var builders = builders
        // The builders' keys one after another; origin numbers count across builders.
        var units: [UInt16] = []
        var starts: [Int32] = [0]
        let firstOrigin = builders.reduce(into: [0]) { $0.append($0.last! + $1.keyCount) }
        units.reserveCapacity(builders.reduce(0) { $0 + $1.units.count })
        starts.reserveCapacity(builders.reduce(1) { $0 + $1.keyCount })
        for index in builders.indices {
            let offset = Int32(units.count)
            units += builders[index].units
            starts += builders[index].keyStart.dropFirst().lazy.map { $0 + offset }
            builders[index].dropKeys()
        }
        let originCount = starts.count - 1

        // Keys sort by their first unit, then within its bucket; buckets sort on every core.
        // (The loops over every key use buffers: an array's uniqueness check on every write
        // was most of their cost.)
        var bucketStart = [Int](repeating: 0, count: 0x1_0001)
        var sorted = [Origin](repeating: Origin(prefix: 0, number: 0), count: originCount)
        var rank = [Int32](repeating: 0, count: originCount)
        var keyStart: [Int32] = [], keyEnd: [Int32] = []
        units.withUnsafeBufferPointer { unitBuffer in
            starts.withUnsafeBufferPointer { startBuffer in
                bucketStart.withUnsafeMutableBufferPointer { sizes in
                    for origin in 0..<originCount {
                        sizes[Int(unitBuffer[Int(startBuffer[origin])]) + 1] += 1
                    }
                    for unit in 0..<0x1_0000 { sizes[unit + 1] += sizes[unit] }
                }
                var next = bucketStart
                sorted.withUnsafeMutableBufferPointer { sortedBuffer in
                    next.withUnsafeMutableBufferPointer { next in
                        for origin in 0..<originCount {
                            let bucket = Int(unitBuffer[Int(startBuffer[origin])])
                            sortedBuffer[next[bucket]] = Origin(
                                prefix: Self.packedPrefix(of: origin, from: 1, unitBuffer, startBuffer),
                                number: Int32(origin))
                            next[bucket] += 1
                        }
                    }
                }
                let bucketStart = bucketStart
                let buckets = (0..<0x1_0000).filter { bucketStart[$0] < bucketStart[$0 + 1] }
                nonisolated(unsafe) let unitBuffer = unitBuffer, startBuffer = startBuffer
                sorted.withUnsafeMutableBufferPointer { sortedBuffer in
                    nonisolated(unsafe) let sortedBuffer = sortedBuffer
                    ParallelWork.forEach(buckets.count, batch: 1) { index in
                        let bucket = buckets[index]
                        Self.sort(
                            UnsafeMutableBufferPointer(
                                rebasing: sortedBuffer[bucketStart[bucket]..<bucketStart[bucket + 1]]),
                            unitBuffer, startBuffer)
                    }
                }
                // Equal keys of different builders are now neighbours and become one key. A key
                // that starts a bucket is new; a key inside one shares the first unit of the key
                // before, so only the rest is compared, without reading that unit of either.
                var keyCount = 0
                keyStart = [Int32](unsafeUninitializedCapacity: originCount) { keyStarts, keyStartCount in
                    keyEnd = [Int32](unsafeUninitializedCapacity: originCount) { keyEnds, keyEndCount in
                        sorted.withUnsafeBufferPointer { sorted in
                            rank.withUnsafeMutableBufferPointer { rank in
                                var bucketEnd = 0, nextBucket = 0
                                for index in sorted.indices {
                                    let origin = Int(sorted[index].number)
                                    let isNew: Bool
                                    if index == bucketEnd {
                                        bucketEnd = bucketStart[buckets[nextBucket] + 1]
                                        nextBucket += 1
                                        isNew = true
                                    } else {
                                        let (previous, key) = (sorted[index - 1], sorted[index])
                                        isNew = Self.compare(previous, key, unitBuffer, startBuffer) != 0
                                    }
                                    if isNew {
                                        keyStarts.initializeElement(at: keyCount, to: startBuffer[origin])
                                        keyEnds.initializeElement(at: keyCount, to: startBuffer[origin + 1])
                                        keyCount += 1
                                    }
                                    rank[origin] = Int32(keyCount - 1)
                                }
                            }
                        }
                        keyEndCount = keyCount
                    }
                    keyStartCount = keyCount
                }
            }
        }
        sorted = []

        // Each key's postings, builder after builder, so in contact order; every builder
        // copies its own on every core into the places worked out here.
        var postingStart = [Int32](repeating: 0, count: keyStart.count + 1)
        var place = [Int32](repeating: 0, count: originCount)
        rank.withUnsafeBufferPointer { rank in
            postingStart.withUnsafeMutableBufferPointer { postingStart in
                for (builder, first) in zip(builders, firstOrigin) {
                    builder.keyPostings.withUnsafeBufferPointer { keyPostings in
                        for (key, count) in keyPostings.enumerated() {
                            postingStart[Int(rank[first + key]) + 1] += count
                        }
                    }
                }
                for key in 0..<postingStart.count - 1 { postingStart[key + 1] += postingStart[key] }
            }
            var next = postingStart
            next.withUnsafeMutableBufferPointer { next in
                place.withUnsafeMutableBufferPointer { place in
                    for (builder, first) in zip(builders, firstOrigin) {
                        builder.keyPostings.withUnsafeBufferPointer { keyPostings in
                            for (key, count) in keyPostings.enumerated() {
                                let keyRank = Int(rank[first + key])
                                place[first + key] = next[keyRank]
                                next[keyRank] += count
                            }
                        }
                    }
                }
            }
        }
        let postingCount = Int(postingStart[keyStart.count])
        var contacts = [Int32](repeating: 0, count: postingCount)
        var tiers = [SearchTier](repeating: .name, count: postingCount)
        contacts.withUnsafeMutableBufferPointer { contactBuffer in
            tiers.withUnsafeMutableBufferPointer { tierBuffer in
                place.withUnsafeMutableBufferPointer { placeBuffer in
                    // Each builder writes only its own keys' places and postings.
                    nonisolated(unsafe) let contactBuffer = contactBuffer, tierBuffer = tierBuffer,
                        placeBuffer = placeBuffer
                    let runs = builders
                    ParallelWork.forEach(runs.count, batch: 1) { index in
                        let builder = runs[index], first = firstOrigin[index]
                        builder.contactStart.withUnsafeBufferPointer { contactStart in
                            builder.postings.withUnsafeBufferPointer { postings in
                                for contact in 0..<contactStart.count - 1 {
                                    let number = Int32(builder.firstContact + contact)
                                    let range = Int(contactStart[contact])..<Int(contactStart[contact + 1])
                                    for posting in postings[range] {
                                        let origin = first + Int(posting >> 2)
                                        let position = Int(placeBuffer[origin])
                                        placeBuffer[origin] += 1
                                        contactBuffer[position] = number
                                        tierBuffer[position] = SearchTier(rawValue: UInt8(posting & 3))!
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        self.units = units
        self.keyStart = keyStart
        self.keyEnd = keyEnd
        self.postingStart = postingStart
        self.contacts = contacts
        self.tiers = tiers
        self.contactCount = contactCount
    }

    /// How many keys there are.
    var count: Int { keyStart.count }

    /// The key at a position in key order.
    func key(_ index: Int) -> ArraySlice<UInt16> {
        units[Int(keyStart[index])..<Int(keyEnd[index])]
    }

    /// Calls `body` with the units of the key at a position in key order.
    @inline(__always)
    func withKey<Result>(_ index: Int, _ body: (UnsafeBufferPointer<UInt16>) -> Result) -> Result {
        units.withUnsafeBufferPointer { units in
            body(UnsafeBufferPointer(rebasing: units[Int(keyStart[index])..<Int(keyEnd[index])]))
        }
    }

    /// The positions in `contacts` and `tiers` of a key's postings.
    func postings(_ index: Int) -> Range<Int> {
        Int(postingStart[index])..<Int(postingStart[index + 1])
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

    /// What `mergedLists(ofPrefix:includeInside:scratch:)` marks contacts in, made once for all
    /// prefixes and left clean by each call.
    struct MergeScratch {
        /// The best tier found so far of each contact, `UInt8.max` for none.
        fileprivate(set) var tiers: [UInt8]
        /// One bit per contact, set when it has a tier: walking the set bits lists the contacts
        /// in order, 64 at a word, without sorting them or visiting every contact.
        fileprivate(set) var found: [UInt64]

        /// Scratch for a table of `contactCount` contacts.
        init(contactCount: Int) {
            tiers = [UInt8](repeating: UInt8.max, count: contactCount)
            found = [UInt64](repeating: 0, count: (contactCount + 63) / 64)
        }
    }

    /// The contacts any key starting with `prefix` finds, each with its best tier, as one
    /// ascending list per tier; `inside` is left empty when `includeInside` is false.
    ///
    /// The cost is the prefix's postings plus a word per 64 contacts between the first and the
    /// last found: a short prefix finds a good part of all contacts, and hot prefixes grow in
    /// number with the directory, so neither sorting the contacts found nor walking every
    /// contact is linear in what is found.
    func mergedLists(ofPrefix prefix: [UInt16], includeInside: Bool, scratch: inout MergeScratch) -> [[Int32]]
    {
        var name: [Int32] = [], other: [Int32] = [], inside: [Int32] = []
        var low = Int.max, high = -1
        let keys = range(ofPrefix: prefix)
        // The keys' postings lie one after another.
        let postings = Int(postingStart[keys.lowerBound])..<Int(postingStart[keys.upperBound])
        contacts.withUnsafeBufferPointer { contacts in
            tiers.withUnsafeBufferPointer { tiers in
                scratch.tiers.withUnsafeMutableBufferPointer { best in
                    scratch.found.withUnsafeMutableBufferPointer { found in
                        for posting in postings {
                            let tier = tiers[posting]
                            if tier == .inside && !includeInside { continue }
                            let contact = Int(contacts[posting])
                            if best[contact] == UInt8.max {
                                found[contact &>> 6] |= 1 &<< UInt64(contact & 63)
                                low = min(low, contact)
                                high = max(high, contact)
                            }
                            best[contact] = min(best[contact], tier.rawValue)
                        }
                        guard high >= 0 else { return }
                        for word in low >> 6...high >> 6 {
                            var bits = found[word]
                            found[word] = 0
                            while bits != 0 {
                                let contact = word << 6 | bits.trailingZeroBitCount
                                bits &= bits &- 1
                                switch best[contact] {
                                case SearchTier.name.rawValue: name.append(Int32(contact))
                                case SearchTier.other.rawValue: other.append(Int32(contact))
                                default: inside.append(Int32(contact))
                                }
                                best[contact] = UInt8.max
                            }
                        }
                    }
                }
            }
        }
        let lists = [name, other, inside]
        return lists
    }
}
