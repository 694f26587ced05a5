import Testing
@testable import RolodeckSearch
@testable import RolodeckPlan
@testable import RolodeckCore

/// How the table joins the builders' keys: sorted as UTF-16 units, each key once, with the
/// contacts of every builder that found it.
@Suite struct SearchTermTableTests {
    /// Keys of one bucket (they all start with "a"), many sharing their first five units or
    /// more, some shorter than five, some with units above the ASCII range.
    static func keys(count: Int) -> [[UInt16]] {
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet: [UInt16] = Array("abz09".utf16) + [0x3131, 0x314F, 0xAC00, 0xD55C]
        return (0..<count).map { _ in
            let stem: [UInt16] = next(2) == 0 ? Array("abzab".utf16) : [UInt16(0x61)]
            return stem + (0..<next(8)).map { _ in alphabet[next(alphabet.count)] }
        }
    }

    @Test func aLongBucketIsSortedAndItsKeysJoined() {
        // A few keys that share their first five units and differ after them.
        let keys =
            Self.keys(count: 3 * SearchTermTable.radixSortMinimum)
            + ["a0909z", "a0909a", "a09090", "a0909"].map { Array($0.utf16) }
        // Two builders of two contacts each; every key is found by one contact of each.
        var builders: [SearchTermTable.Builder] = []
        for first in [0, 2] {
            var builder = SearchTermTable.Builder(firstContact: first)
            for contact in 0..<2 {
                builder.nextContact()
                for key in keys.indices where key % 2 == contact { builder.add(keys[key][...], .name) }
            }
            builder.finish()
            builders.append(builder)
        }
        let table = SearchTermTable(merging: builders, contactCount: 4)
        let expected = Set(keys).sorted { $0.lexicographicallyPrecedes($1) }
        #expect(expected.count > SearchTermTable.radixSortMinimum)
        #expect((0..<table.count).map { Array(table.key($0)) } == expected)
        for index in 0..<table.count {
            let contacts = table.postings(index).map { table.contacts[$0] }
            #expect(contacts == [0, 2] || contacts == [1, 3] || contacts == [0, 1, 2, 3])
        }
    }

    /// Each bucket's first key is a key of its own, however alike the last key of the bucket
    /// before looks after its first unit ("a" and "b", "ax" and "bx"), and keys several
    /// builders found are joined within their bucket.
    @Test func keysOfNeighbouringBucketsStayApart() {
        let keys = ["a", "ax", "b", "bx", "bxy", "c", "cx", "z", "é", "éx"].map { Array($0.utf16) }
        var builders: [SearchTermTable.Builder] = []
        for first in [0, 1, 2] {
            var builder = SearchTermTable.Builder(firstContact: first)
            builder.nextContact()
            for key in keys.indices where (key + first) % 3 != 0 { builder.add(keys[key][...], .other) }
            builder.finish()
            builders.append(builder)
        }
        let table = SearchTermTable(merging: builders, contactCount: 3)
        #expect((0..<table.count).map { Array(table.key($0)) } == keys)
        for index in 0..<table.count {
            let contacts = table.postings(index).map { table.contacts[$0] }
            #expect(contacts == [0, 1, 2].filter { (index + Int($0)) % 3 != 0 }, "\(index)")
        }
    }

    /// Digits share long runs of units (the tails of many phone numbers start alike): such runs
    /// are sorted again by their next units, however deep they share them, and a key many
    /// builders found is still one key with every builder's contact.
    @Test func longRunsOfSharedUnitsAreSortedAndTheirKeysJoined() {
        var state: UInt64 = 7
        func digits(_ count: Int) -> [UInt16] {
            (0..<count).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt16(0x30 + (state >> 33) % 3)
            }
        }
        // Runs sharing 5 and 9 units, longer than a radix sort's minimum, with keys ending inside
        // every window of four units.
        let deep = (0..<3 * SearchTermTable.radixSortMinimum).map { Array("01012".utf16) + digits($0 % 11) }
        let deeper = (0..<SearchTermTable.radixSortMinimum).map { Array("010123456".utf16) + digits($0 % 6) }
        // Keys every builder finds: one ends inside the first window, one after the second.
        let everywhere = ["0101", "010123456"].map { Array($0.utf16) }
        let builderCount = SearchTermTable.insertionSortMaximum + 4
        var builders: [SearchTermTable.Builder] = []
        var expected: [[UInt16]: Set<Int32>] = [:]
        for first in 0..<builderCount {
            var builder = SearchTermTable.Builder(firstContact: first)
            builder.nextContact()
            for key in everywhere { builder.add(key[...], .other) }
            for (index, key) in (deep + deeper).enumerated() where index % builderCount == first {
                builder.add(key[...], .inside)
                expected[key, default: []].insert(Int32(first))
            }
            builder.finish()
            builders.append(builder)
            for key in everywhere { expected[key, default: []].insert(Int32(first)) }
        }
        let table = SearchTermTable(merging: builders, contactCount: builderCount)
        let keys = expected.keys.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(Set(deep).count > SearchTermTable.radixSortMinimum)
        #expect((0..<table.count).map { Array(table.key($0)) } == keys)
        for index in 0..<table.count {
            let contacts = table.postings(index).map { table.contacts[$0] }
            #expect(contacts == expected[Array(table.key(index))]!.sorted(), "\(Array(table.key(index)))")
        }
    }

    struct BucketCase: CustomTestStringConvertible, Sendable {
        var name: String
        /// The joined keys, in origin order.
        var keys: [[UInt16]]
        /// Each filled bucket's first unit and its origins, in order.
        var buckets: [(unit: UInt16, origins: [Int32])]
        var testDescription: String { name }
    }

    static let bucketCases: [BucketCase] = [
        BucketCase(name: "no keys", keys: [], buckets: []),
        BucketCase(
            name: "origins keep their order within a bucket",
            keys: ["b", "ax", "a", "bz", "ab"].map { Array($0.utf16) },
            buckets: [(0x61, [1, 2, 4]), (0x62, [0, 3])]),
        BucketCase(
            name: "the first and the last unit a key can start with",
            keys: [[0xFFFF, 0x61], [0x01], [0xAC00], [0xFFFF]],
            buckets: [(0x01, [1]), (0xAC00, [2]), (0xFFFF, [0, 3])]),
    ]

    /// Before sorting, each origin goes to the bucket of its first unit, in origin order there,
    /// with the units after the first packed; only buckets that hold origins are filled.
    @Test(arguments: bucketCases)
    func originsGoToTheBucketOfTheirFirstUnit(_ testCase: BucketCase) {
        let units = testCase.keys.flatMap { $0 }
        let starts = testCase.keys.reduce(into: [Int32(0)]) { $0.append($0.last! + Int32($1.count)) }
        units.withUnsafeBufferPointer { units in
            starts.withUnsafeBufferPointer { starts in
                let buckets = SearchTermTable.Buckets(counting: units, starts)
                let origins = SearchTermTable.originsInBuckets(buckets, units, starts)
                #expect(buckets.filled == testCase.buckets.map { Int($0.unit) })
                for (unit, expected) in testCase.buckets {
                    let bucket = origins[buckets.origins(of: Int(unit))]
                    #expect(bucket.map(\.number) == expected, "bucket \(unit)")
                    for origin in bucket {
                        let key = testCase.keys[Int(origin.number)]
                        let packed = (1..<5).reduce(UInt64(0)) {
                            $0 << 16 | UInt64($1 < key.count ? key[$1] : 0)
                        }
                        #expect(origin.prefix == packed, "origin \(origin.number)")
                    }
                }
            }
        }
    }

    /// A contact's terms in a builder, as `SearchTermsTests.Collector` lines ("key:tier").
    static func lines(of builder: SearchTermTable.Builder, contact: Int) -> [String] {
        let postings = Int(builder.contactStart[contact])..<Int(builder.contactStart[contact + 1])
        return builder.postings[postings].map { posting in
            let key = Int(posting >> 2)
            let units = builder.units[Int(builder.keyStart[key])..<Int(builder.keyStart[key + 1])]
            return "\(String(decoding: units, as: UTF16.self)):\(["n", "o", "i"][Int(posting & 3)])"
        }.sorted()
    }

    /// A builder hashes the tails of a key together, from its end: it must find the same keys
    /// as adding each tail by itself, across thousands of keys (the hash table grows) and
    /// keys that come again in later contacts.
    @Test func tailsHashedTogetherAreTheKeysAddedOneByOne() {
        var state: UInt64 = 5
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var builder = SearchTermTable.Builder(firstContact: 7)
        var expected: [[String]] = []
        for contact in 0..<600 {
            builder.nextContact()
            var collector = SearchTermsTests.Collector()
            let phone = "+49 1" + String((0..<10).map { _ in Character(String(next(10))) })
            let email = "user\(contact % 50).x\(next(3))@\(["mail", "müller", "佐藤"][next(3)]).example"
            for text in [email, "Jürgen O'Brien-Smith", "김철수 \(next(4))"] {
                SearchTerms.add(text: text, tier: .other, to: &builder)
                SearchTerms.add(text: text, tier: .other, to: &collector)
            }
            SearchTerms.add(phone: phone, region: "DE", to: &builder)
            SearchTerms.add(phone: phone, region: "DE", to: &collector)
            expected.append(collector.lines)
        }
        builder.finish()
        #expect(builder.keyCount > 1 << 13, "the table of 1 << 14 slots grew")
        for contact in expected.indices {
            #expect(Self.lines(of: builder, contact: contact) == expected[contact], "contact \(contact)")
        }
        // Each key counts the contacts that have it.
        var counts = [Int32](repeating: 0, count: builder.keyCount)
        for posting in builder.postings { counts[Int(posting >> 2)] += 1 }
        #expect(builder.keyPostings == counts)
    }

    /// A batch of terms makes room for all it may add at once: the tails of a word longer than
    /// a builder's first room (for keys, their units, postings and a shared text's recorded
    /// terms) are all added, in the contact that folds the word and in the next that has it.
    @Test func aBatchLargerThanTheFirstRoomMakesRoomForAllItsTerms() {
        let word = String((0..<1_500).map { Character(Unicode.Scalar(UInt8(0x61 + $0 * 7 % 26))) })
        var collector = SearchTermsTests.Collector()
        SearchTerms.add(text: word, tier: .name, to: &collector)
        var builder = SearchTermTable.Builder()
        for _ in 0..<2 {
            builder.nextContact()
            builder.add(sharedText: word, tier: .name)
        }
        builder.finish()
        #expect(collector.lines.count > 1_400)
        #expect(builder.units.count > 1_000_000)
        #expect(Self.lines(of: builder, contact: 0) == collector.lines)
        #expect(Self.lines(of: builder, contact: 1) == collector.lines)
    }

    /// A shared text's terms are folded once and added again for each contact that has it, in
    /// the tier it has there: the same text in another tier is another shared text.
    @Test func sharedTextsAreRememberedByTextAndTier() {
        let texts: [(String, SearchTier)] = [
            ("Anna Berg", .name), ("Anna Berg", .other), ("Anna Berg", .name), ("Anna Bergmann", .name),
            ("Jos\u{E9}", .name), ("Jose\u{301}", .name), ("", .other), ("Anna Berg", .other),
            // Texts of parts, and a part alone, which the parts' terms are remembered by.
            ("Mary-Ann O'Brien", .name), ("mary", .name), ("Mary-Ann O'Brien", .name),
            ("ann@o.brien", .other),
            ("Mary-Ann", .name),
        ]
        var builder = SearchTermTable.Builder()
        var expected: [[String]] = []
        for (text, tier) in texts + texts + texts {
            builder.nextContact()
            builder.add(sharedText: text, tier: tier)
            var collector = SearchTermsTests.Collector()
            SearchTerms.add(text: text, tier: tier, to: &collector)
            expected.append(collector.lines)
        }
        builder.finish()
        for contact in expected.indices {
            #expect(Self.lines(of: builder, contact: contact) == expected[contact], "contact \(contact)")
        }
        #expect(expected[0] != expected[1] && expected[0] != expected[3] && expected[4] == expected[5])
    }

    /// A prefix's merged lists, found by walking the bits of the contacts found (many or few,
    /// near together or far apart, on both sides of a word's 64 contacts), against every key
    /// read one by one.
    @Test func mergedListsHoldEachContactOnceInItsBestTier() {
        let directory = Directory(store: SearchIndexTests.store(count: 300), config: SiteConfig())
        let table = SearchIndex.terms(of: directory, runs: 3)
        var scratch = SearchTermTable.MergeScratch(contactCount: table.contactCount)
        var found: [[Int32]] = []
        // Whole keys that find a few contacts, within one word and across words.
        func few(_ oneWord: Bool) -> [UInt16] {
            let index = (0..<table.count).first { index in
                let contacts = table.postings(index).map { table.contacts[$0] }
                return contacts.count > 1 && contacts.count < 16
                    && (contacts.first! / 64 == contacts.last! / 64) == oneWord
            }
            return Array(table.key(index!))
        }
        let prefixes =
            ["m", "mu", "muel", "ㄱ", "0", "010", "49", "u", "user12", "user123", "zz"].map { Array($0.utf16) }
            + [few(true), few(false)]
        for units in prefixes {
            let prefix = String(decoding: units, as: UTF16.self)
            for includeInside in [false, true] {
                var best: [Int32: SearchTier] = [:]
                for index in 0..<table.count where table.key(index).starts(with: units) {
                    for posting in table.postings(index)
                    where includeInside || table.tiers[posting] != .inside {
                        best[table.contacts[posting]] = min(
                            best[table.contacts[posting]] ?? .inside, table.tiers[posting])
                    }
                }
                let expected = SearchTier.allCases.map { tier in
                    best.filter { $0.value == tier }.keys.sorted()
                }
                let lists = table.mergedLists(
                    ofPrefix: units, includeInside: includeInside, scratch: &scratch)
                #expect(lists == expected, "\(prefix)")
                found.append(best.keys.sorted())
            }
        }
        #expect(scratch.tiers.allSatisfy { $0 == UInt8.max })
        #expect(scratch.found.allSatisfy { $0 == 0 })
        // Most contacts, a few, none; and a few that lie in one word and in several.
        #expect(found.contains { $0.count > table.contactCount / 2 })
        #expect(found.contains { $0.count > 1 && $0.count < 16 && $0.first! / 64 == $0.last! / 64 })
        #expect(found.contains { $0.count > 1 && $0.count < 16 && $0.first! / 64 != $0.last! / 64 })
        #expect(found.contains { $0.isEmpty })
    }

    /// A table patched where it lies (what a watch save does) holds what a table built anew
    /// from the edited contacts holds, key by key; the keys it kept stand where `Changes` says;
    /// and a copy of the table taken before is left as it was. The edits insert and remove
    /// keys all over, so that the blocks between them move left and right in one patch.
    @Test(arguments: [1, 2, 3, 4])
    func aTablePatchedInPlaceIsTheTableBuiltAnew(seed: UInt64) throws {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        // Keys of one to three units from a small alphabet: many shared, some not.
        let alphabet = Array("0159aemz".utf16) + [0xAC00]
        func terms() -> [[UInt16]: SearchTier] {
            var terms: [[UInt16]: SearchTier] = [:]
            for _ in 0..<next(12) {
                terms[(0...next(3)).map { _ in alphabet[next(alphabet.count)] }] = SearchTier(
                    rawValue: UInt8(next(3)))!
            }
            return terms
        }
        func table(of contacts: [[[UInt16]: SearchTier]]) -> SearchTermTable {
            var builder = SearchTermTable.Builder()
            for terms in contacts {
                builder.nextContact()
                for (key, tier) in terms.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
                    builder.add(key[...], tier)
                }
            }
            builder.finish()
            return SearchTermTable(merging: [builder], contactCount: contacts.count)
        }
        func listing(_ table: SearchTermTable) -> [[UInt16]: [String]] {
            var keys: [[UInt16]: [String]] = [:]
            for index in 0..<table.count {
                keys[Array(table.key(index))] = table.postings(index).map {
                    "\(table.contacts[$0]):\(table.tiers[$0])"
                }
            }
            return keys
        }
        var contacts = (0..<60).map { _ in terms() }
        var patched = table(of: contacts)
        for step in 0..<6 {
            // Every other step, a copy is held while the table is patched.
            let before = step % 2 == 0 ? patched : nil
            let beforeKeys = (0..<patched.count).map { Array(patched.key($0)) }
            let beforeListing = listing(patched)
            var edits: [[UInt16]: SearchTermTable.KeyEdit] = [:]
            for contact in Set((0..<(1 + next(8))).map { _ in next(contacts.count) }).sorted() {
                let old = contacts[contact], new = terms()
                for (key, tier) in new where old[key] != tier {
                    edits[key, default: SearchTermTable.KeyEdit(key: key)].added.append(
                        (Int32(contact), tier))
                    if old[key] != nil { edits[key]!.removed.insert(Int32(contact)) }
                }
                for key in old.keys where new[key] == nil {
                    edits[key, default: SearchTermTable.KeyEdit(key: key)].removed.insert(Int32(contact))
                }
                contacts[contact] = new
            }
            let ordered = edits.values.sorted { $0.key.lexicographicallyPrecedes($1.key) }
            let changes = patched.patch(ordered)
            let expected = table(of: contacts)
            #expect(patched.count == expected.count, "step \(step)")
            #expect(
                (0..<patched.count).map { Array(patched.key($0)) }
                    == (0..<expected.count).map {
                        Array(expected.key($0))
                    }, "step \(step)")
            #expect(listing(patched) == listing(expected), "step \(step)")
            #expect(patched.postingStart.last.map(Int.init) == patched.contacts.count, "step \(step)")
            for (old, key) in beforeKeys.enumerated() where edits[key] == nil {
                #expect(Array(patched.key(changes.newPosition(of: old))) == key, "step \(step): key \(old)")
            }
            if let before {
                #expect(listing(before) == beforeListing, "step \(step): the copy held")
            }
            #expect(!changes.inserted.isEmpty && !changes.removed.isEmpty, "step \(step)")
        }
    }
}
