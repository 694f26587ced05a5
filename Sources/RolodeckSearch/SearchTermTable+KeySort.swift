// Sorting the keys of one bucket, for `SearchTermTable(merging:contactCount:)`.
extension SearchTermTable {
    /// A key as the builders numbered it, in its first unit's bucket: `prefix` packs its next
    /// four units (0 past its end; keys never hold a 0), so most comparisons need no more.
    /// While a long run of keys sharing those is sorted, it packs the four units after them.
    struct Origin {
        /// Four units of the key, packed (see `packedPrefix`).
        var prefix: UInt64
        /// The key's origin number, counted across the builders.
        var number: Int32
    }

    /// Below this many keys a bucket is sorted by comparing keys; from it on by radix first.
    static let radixSortMinimum = 128
    /// Keys with equal prefixes up to this many are sorted by insertion; longer runs by their
    /// next four units, like a bucket.
    static let insertionSortMaximum = 16

    /// Sorts the keys of one bucket, or of a run of keys that share their units up to `offset`
    /// and whose `prefix` packs the four units from `offset` on. A long bucket is sorted by
    /// `prefix` first, then each run of equal prefixes by the rest of its keys; that compares far
    /// fewer keys than a comparison sort of the whole bucket.
    static func sort(
        _ bucket: UnsafeMutableBufferPointer<Origin>, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>, offset: Int = 1
    ) {
        guard bucket.count >= radixSortMinimum else {
            var bucket = bucket
            bucket.sort { compare($0, $1, units, starts, offset: offset) < 0 }
            return
        }
        radixSortByPrefix(bucket)
        sortRunsOfEqualPrefixes(bucket, units, starts, offset: offset)
    }

    /// Sorts origins by `prefix` with a radix sort, a byte at a time from the lowest, skipping
    /// bytes every origin has alike (such as the high bytes of ASCII units).
    static func radixSortByPrefix(_ bucket: UnsafeMutableBufferPointer<Origin>) {
        // How many keys have each value of each of the prefix's eight bytes. Plain memory, not an
        // array, so the counts read and written in the loops below are not bounds-checked.
        let counts = UnsafeMutableBufferPointer<Int>.allocate(capacity: 8 * 256)
        counts.initialize(repeating: 0)
        defer { counts.deallocate() }
        for origin in bucket {
            for byte in 0..<8 {
                counts[byte << 8 | Int(truncatingIfNeeded: origin.prefix >> (8 * byte)) & 0xFF] += 1
            }
        }
        let other = UnsafeMutableBufferPointer<Origin>.allocate(capacity: bucket.count)
        other.initialize(repeating: Origin(prefix: 0, number: 0))
        defer { other.deallocate() }
        var from = bucket, to = other
        for byte in 0..<8 {
            let table = byte << 8, shift = 8 * byte
            if counts[table | Int(truncatingIfNeeded: from[0].prefix >> shift) & 0xFF] == bucket.count {
                continue
            }
            var next = 0
            for value in table..<table + 256 {
                let count = counts[value]
                counts[value] = next
                next += count
            }
            for origin in from {
                let slot = table | Int(truncatingIfNeeded: origin.prefix >> shift) & 0xFF
                to[counts[slot]] = origin
                counts[slot] += 1
            }
            swap(&from, &to)
        }
        if from.baseAddress != bucket.baseAddress {
            bucket.baseAddress!.update(from: from.baseAddress!, count: bucket.count)
        }
    }

    /// Sorts each run of origins with equal prefixes by the rest of their keys, in which they
    /// differ if at all. Most such runs are short, often one key found by several builders:
    /// sorting by insertion takes one comparison per key there. Long runs (the digits of phone
    /// numbers share many units) are sorted like a bucket by their next four units, which keeps
    /// the cost linear in the run's length.
    static func sortRunsOfEqualPrefixes(
        _ bucket: UnsafeMutableBufferPointer<Origin>, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>, offset: Int
    ) {
        var start = 0
        while start < bucket.count {
            var end = start + 1
            while end < bucket.count, bucket[end].prefix == bucket[start].prefix { end += 1 }
            if end - start > insertionSortMaximum {
                sortLongRun(
                    UnsafeMutableBufferPointer(rebasing: bucket[start..<end]), units, starts, offset: offset)
            } else {
                insertionSort(bucket, start..<end, units, starts, offset: offset)
            }
            start = end
        }
    }

    /// Sorts a run of origins with equal prefixes like a bucket, by the four units after the
    /// prefix, and gives them back the run's prefix, which joining equal keys compares.
    static func sortLongRun(
        _ run: UnsafeMutableBufferPointer<Origin>, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>, offset: Int
    ) {
        let shared = run[0].prefix
        // A prefix that ends in 0 packs keys that all end within it: they are equal.
        guard shared & 0xFFFF != 0 else { return }
        for index in run.indices {
            run[index].prefix = packedPrefix(of: Int(run[index].number), from: offset + 4, units, starts)
        }
        sort(run, units, starts, offset: offset + 4)
        for index in run.indices { run[index].prefix = shared }
    }

    /// Sorts the origins of a short run with equal prefixes, at `run` in `origins`, by insertion.
    @inline(__always)
    static func insertionSort(
        _ origins: UnsafeMutableBufferPointer<Origin>, _ run: Range<Int>,
        _ units: UnsafeBufferPointer<UInt16>, _ starts: UnsafeBufferPointer<Int32>, offset: Int
    ) {
        for index in run.lowerBound + 1..<run.upperBound {
            let origin = origins[index]
            var place = index
            while place > run.lowerBound,
                compare(origin, origins[place - 1], units, starts, offset: offset) < 0
            {
                origins[place] = origins[place - 1]
                place -= 1
            }
            origins[place] = origin
        }
    }

    /// Four units of a key from `offset` on, packed into one number that sorts like them (0 past
    /// the key's end; keys never hold a 0).
    @inline(__always)
    static func packedPrefix(
        of number: Int, from offset: Int, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>
    ) -> UInt64 {
        let start = Int(starts[number]) + offset, end = Int(starts[number + 1])
        var prefix: UInt64 = 0
        for position in start..<start + 4 {
            prefix = prefix << 16 | (position < end ? UInt64(units[position]) : 0)
        }
        return prefix
    }

    /// Compares two keys that share their units up to `offset` (the first, in a bucket) and whose
    /// prefixes pack the four units from `offset` on, as UTF-16 code units: negative, zero or
    /// positive.
    @inline(__always)
    static func compare(
        _ lhs: Origin, _ rhs: Origin, _ units: UnsafeBufferPointer<UInt16>,
        _ starts: UnsafeBufferPointer<Int32>, offset: Int = 1
    ) -> Int {
        if lhs.prefix != rhs.prefix { return lhs.prefix < rhs.prefix ? -1 : 1 }
        // Equal prefixes: the units after them, then the shorter key first.
        let lhsEnd = Int(starts[Int(lhs.number) + 1]), rhsEnd = Int(starts[Int(rhs.number) + 1])
        var left = min(Int(starts[Int(lhs.number)]) + offset + 4, lhsEnd)
        var right = min(Int(starts[Int(rhs.number)]) + offset + 4, rhsEnd)
        while left < lhsEnd, right < rhsEnd {
            if units[left] != units[right] { return units[left] < units[right] ? -1 : 1 }
            left += 1
            right += 1
        }
        let lhsLength = lhsEnd - Int(starts[Int(lhs.number)]),
            rhsLength = rhsEnd - Int(starts[Int(rhs.number)])
        return lhsLength == rhsLength ? 0 : lhsLength < rhsLength ? -1 : 1
    }
}
