import RolodeckCore

// The phases of `SearchTermTable(merging:contactCount:)`, in the order it runs them. The loops
// over every key read and write through buffers: an array's uniqueness check on every write
// costs more than the write.
extension SearchTermTable {
    /// The builders' keys one after another. Each is numbered by its origin, counted across the
    /// builders, so a key several builders found has an origin in each.
    struct JoinedKeys {
        /// Every origin's units.
        private(set) var units: [UInt16] = []
        /// Where each origin starts in `units`, and where the last one ends.
        private(set) var starts: [Int32] = [0]
        /// Each builder's first origin, and after the last builder's, how many origins there are.
        let firstOrigin: [Int]

        /// Joins the builders' keys, dropping each builder's own once they are copied.
        init(taking builders: inout [Builder]) {
            firstOrigin = builders.reduce(into: [0]) { $0.append($0.last! + $1.keyCount) }
            units.reserveCapacity(builders.reduce(0) { $0 + $1.units.count })
            starts.reserveCapacity(builders.reduce(1) { $0 + $1.keyCount })
            for index in builders.indices {
                let offset = Int32(units.count)
                units += builders[index].units
                starts += builders[index].keyStart.dropFirst().lazy.map { $0 + offset }
                builders[index].dropKeys()
            }
        }
    }

    /// The distinct keys in key order, and which key each origin is.
    struct DistinctKeys {
        /// Where each key starts and ends in the joined units.
        var start: [Int32], end: [Int32]
        /// Each origin's key number.
        var rank: [Int32]
    }

    /// Sorts the joined keys and makes equal ones one key. Keys sort by their first unit, then
    /// within its bucket; buckets sort on every core.
    static func distinctKeys(sorting joined: JoinedKeys) -> DistinctKeys {
        joined.units.withUnsafeBufferPointer { units in
            joined.starts.withUnsafeBufferPointer { starts in
                let buckets = Buckets(counting: units, starts)
                var origins = originsInBuckets(buckets, units, starts)
                sortBuckets(&origins, buckets, units, starts)
                return joinEqualKeys(origins, buckets, units, starts)
            }
        }
    }

    /// Where the origins of each first unit lie once sorted by it, and which units start any.
    struct Buckets {
        /// Where each unit's bucket starts, and where the last one ends.
        let start: [Int]
        /// The units whose buckets hold origins, ascending.
        let filled: [Int]

        /// Counts the origins that start with each unit.
        init(counting units: UnsafeBufferPointer<UInt16>, _ starts: UnsafeBufferPointer<Int32>) {
            var start = [Int](repeating: 0, count: 0x1_0001)
            start.withUnsafeMutableBufferPointer { sizes in
                for origin in 0..<starts.count - 1 { sizes[Int(units[Int(starts[origin])]) + 1] += 1 }
                for unit in 0..<0x1_0000 { sizes[unit + 1] += sizes[unit] }
            }
            self.start = start
            filled = (0..<0x1_0000).filter { start[$0] < start[$0 + 1] }
        }

        /// Where the origins that start with `unit` lie.
        func origins(of unit: Int) -> Range<Int> { start[unit]..<start[unit + 1] }
    }

    /// Every origin in its first unit's bucket, in origin order within it, with its next four
    /// units packed.
    static func originsInBuckets(
        _ buckets: Buckets, _ units: UnsafeBufferPointer<UInt16>, _ starts: UnsafeBufferPointer<Int32>
    ) -> [Origin] {
        let count = starts.count - 1
        var origins = [Origin](repeating: Origin(prefix: 0, number: 0), count: count)
        var next = buckets.start
        origins.withUnsafeMutableBufferPointer { origins in
            next.withUnsafeMutableBufferPointer { next in
                for origin in 0..<count {
                    let bucket = Int(units[Int(starts[origin])])
                    origins[next[bucket]] = Origin(
                        prefix: packedPrefix(of: origin, from: 1, units, starts), number: Int32(origin))
                    next[bucket] += 1
                }
            }
        }
        return origins
    }

    /// Sorts each bucket's origins by their keys, buckets on every core.
    static func sortBuckets(
        _ origins: inout [Origin], _ buckets: Buckets, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>
    ) {
        nonisolated(unsafe) let units = units, starts = starts
        origins.withUnsafeMutableBufferPointer { origins in
            nonisolated(unsafe) let origins = origins
            ParallelWork.forEach(buckets.filled.count, batch: 1) { index in
                let bucket = buckets.origins(of: buckets.filled[index])
                sort(UnsafeMutableBufferPointer(rebasing: origins[bucket]), units, starts)
            }
        }
    }

    /// The sorted origins' distinct keys: equal keys of different builders are neighbours and
    /// become one key. A key that starts a bucket is new; a key inside one shares the first unit
    /// of the key before, so only the rest is compared, without reading that unit of either.
    static func joinEqualKeys(
        _ origins: [Origin], _ buckets: Buckets, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>
    ) -> DistinctKeys {
        var rank = [Int32](repeating: 0, count: origins.count)
        var keyCount = 0
        var keyEnd: [Int32] = []
        let keyStart = [Int32](unsafeUninitializedCapacity: origins.count) { keyStarts, keyStartCount in
            keyEnd = [Int32](unsafeUninitializedCapacity: origins.count) { keyEnds, keyEndCount in
                origins.withUnsafeBufferPointer { origins in
                    rank.withUnsafeMutableBufferPointer { rank in
                        var bucketEnd = 0, nextBucket = 0
                        for index in origins.indices {
                            let origin = Int(origins[index].number)
                            let startsBucket = index == bucketEnd
                            if startsBucket {
                                bucketEnd = buckets.start[buckets.filled[nextBucket] + 1]
                                nextBucket += 1
                            }
                            if startsBucket
                                || compare(origins[index - 1], origins[index], units, starts) != 0
                            {
                                keyStarts.initializeElement(at: keyCount, to: starts[origin])
                                keyEnds.initializeElement(at: keyCount, to: starts[origin + 1])
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
        return DistinctKeys(start: keyStart, end: keyEnd, rank: rank)
    }

    /// Calls `body` with every origin and how many postings its builder has of it.
    @inline(__always)
    private static func forEachOrigin(
        of builders: [Builder], _ firstOrigin: [Int], _ body: (_ origin: Int, _ postings: Int32) -> Void
    ) {
        for (builder, first) in zip(builders, firstOrigin) {
            builder.keyPostings.withUnsafeBufferPointer { keyPostings in
                for (key, count) in keyPostings.enumerated() { body(first + key, count) }
            }
        }
    }

    /// Where each key's postings start, and where the last key's end: the keys' postings lie one
    /// after another, in key order.
    static func postingStarts(
        of keys: DistinctKeys, in builders: [Builder], _ firstOrigin: [Int]
    ) -> [Int32] {
        var postingStart = [Int32](repeating: 0, count: keys.start.count + 1)
        keys.rank.withUnsafeBufferPointer { rank in
            postingStart.withUnsafeMutableBufferPointer { postingStart in
                forEachOrigin(of: builders, firstOrigin) { origin, count in
                    postingStart[Int(rank[origin]) + 1] += count
                }
                for key in 0..<postingStart.count - 1 { postingStart[key + 1] += postingStart[key] }
            }
        }
        return postingStart
    }

    /// Where each origin's postings start: within its key's, builder after builder, so in
    /// contact order.
    static func firstPlaces(
        of keys: DistinctKeys, _ postingStart: [Int32], in builders: [Builder], _ firstOrigin: [Int]
    ) -> [Int32] {
        var place = [Int32](repeating: 0, count: keys.rank.count)
        var next = postingStart
        keys.rank.withUnsafeBufferPointer { rank in
            next.withUnsafeMutableBufferPointer { next in
                place.withUnsafeMutableBufferPointer { place in
                    forEachOrigin(of: builders, firstOrigin) { origin, count in
                        let keyRank = Int(rank[origin])
                        place[origin] = next[keyRank]
                        next[keyRank] += count
                    }
                }
            }
        }
        return place
    }

    /// Every posting's contact and tier, in its place: every builder copies its own on every core,
    /// each moving its origins' `places` on as it fills them.
    static func copyPostings(
        of builders: [Builder], _ firstOrigin: [Int], to places: inout [Int32], count: Int
    ) -> (contacts: [Int32], tiers: [SearchTier]) {
        var contacts = [Int32](repeating: 0, count: count)
        var tiers = [SearchTier](repeating: .name, count: count)
        contacts.withUnsafeMutableBufferPointer { contacts in
            tiers.withUnsafeMutableBufferPointer { tiers in
                places.withUnsafeMutableBufferPointer { places in
                    // Each builder writes only its own keys' places and postings.
                    nonisolated(unsafe) let contacts = contacts, tiers = tiers, places = places
                    ParallelWork.forEach(builders.count, batch: 1) { index in
                        copyPostings(
                            of: builders[index], firstOrigin[index], to: places,
                            contacts: contacts, tiers: tiers)
                    }
                }
            }
        }
        return (contacts, tiers)
    }

    /// Copies one builder's postings, contact after contact, to its origins' places.
    @inline(__always)
    private static func copyPostings(
        of builder: Builder, _ firstOrigin: Int, to places: UnsafeMutableBufferPointer<Int32>,
        contacts: UnsafeMutableBufferPointer<Int32>, tiers: UnsafeMutableBufferPointer<SearchTier>
    ) {
        builder.contactStart.withUnsafeBufferPointer { contactStart in
            builder.postings.withUnsafeBufferPointer { postings in
                for contact in 0..<contactStart.count - 1 {
                    let number = Int32(builder.firstContact + contact)
                    let range = Int(contactStart[contact])..<Int(contactStart[contact + 1])
                    for posting in postings[range] {
                        let origin = firstOrigin + Int(posting >> 2)
                        let position = Int(places[origin])
                        places[origin] += 1
                        contacts[position] = number
                        tiers[position] = SearchTier(rawValue: UInt8(posting & 3))!
                    }
                }
            }
        }
    }
}
