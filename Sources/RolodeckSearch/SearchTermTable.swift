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
    var units: [UInt16]
    /// Where each key starts and ends in `units`, in key order.
    var keyStart: [Int32]
    var keyEnd: [Int32]
    /// Where each key's postings start in `contacts` and `tiers`; one more entry than keys.
    var postingStart: [Int32]
    /// Contact numbers, ascending within each key.
    var contacts: [Int32]
    /// The tier of each posting, parallel to `contacts`.
    var tiers: [SearchTier]
    /// How many contacts were indexed.
    var contactCount: Int

    /// Joins builders of consecutive runs of contacts, given in contact order, and sorts their
    /// keys.
    init(merging builders: [Builder], contactCount: Int) {
        var builders = builders
        let joined = JoinedKeys(taking: &builders)
        let keys = Self.distinctKeys(sorting: joined)
        let postingStart = Self.postingStarts(of: keys, in: builders, joined.firstOrigin)
        var places = Self.firstPlaces(of: keys, postingStart, in: builders, joined.firstOrigin)
        let postings = Self.copyPostings(
            of: builders, joined.firstOrigin, to: &places, count: Int(postingStart[keys.start.count]))
        units = joined.units
        keyStart = keys.start
        keyEnd = keys.end
        self.postingStart = postingStart
        contacts = postings.contacts
        tiers = postings.tiers
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
