import Foundation
import Mustache
import Testing
@testable import RolodeckCore
@testable import RolodeckSearch
@testable import RolodeckPlan
@testable import RolodeckSite

/// The built index, read back the way search.js reads it, against a brute-force search over
/// every contact's terms.
@Suite struct SearchIndexTests {
    /// A small deterministic directory with names in several scripts, phone numbers, emails and
    /// groups; the same seed always gives the same store.
    static func store(count: Int, seed: UInt64 = 7) -> Store {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let given = [
            "Jürgen", "Anna-Lena", "Søren", "Zoë", "Mary", "철수", "미숙", "花子", "Hélène", "Björn", "Liam",
        ]
        let family = [
            "Müller", "Mueller", "Weiß", "O'Brien", "김", "이", "佐藤", "Lefèvre", "Straße", "Smith", "Kim",
        ]
        let organizations = ["", "", "Acme Corp.", "Müller & Söhne GmbH", "한빛전자", "株式会社サクラ"]
        let groups = (0..<6).map {
            Group(id: "g\($0)", name: ["Family", "Tennis Grün-Weiß", "동창회", "Book Club"][$0 % 4])
        }
        let contacts = (0..<count).map { index -> Contact in
            var contact = Contact(id: "c\(index)")
            contact.givenName = given[next(given.count)]
            contact.familyName = family[next(family.count)]
            contact.organization = organizations[next(organizations.count)]
            if next(5) == 0 { contact.nickname = ["Jo", "Büffel", "짱"][next(3)] }
            if next(4) > 0 {
                contact.emails = [
                    LabeledValue(label: "home", value: "user\(index).\(["x", "ü"][next(2)])@ex\(next(9)).org")
                ]
            }
            for _ in 0..<next(3) {
                let digits = (0..<8).map { _ in String(next(10)) }.joined()
                let number = next(2) == 0 ? "010-\(digits.prefix(4))-\(digits.suffix(4))" : "+49 30 \(digits)"
                contact.phones.append(LabeledValue(label: "mobile", value: number))
            }
            contact.groupIDs = (0..<next(3)).map { _ in "g\(next(groups.count))" }
            return contact
        }
        return Store(contacts: contacts, groups: groups)
    }

    static let limits = SearchIndex.Limits(termPieceBytes: 1_500, hotPieceBytes: 700, rowPieceBytes: 400)

    static func files(_ index: SearchIndex) -> [String: [UInt8]] {
        Dictionary(uniqueKeysWithValues: index.files.map { ($0.path, $0.bytes) })
    }

    /// Every contact's terms, as the brute force sees them.
    static func terms(of directory: Directory) -> [[String: SearchTier]] {
        directory.entries.map { entry in
            var collector = SearchTermsTests.Collector()
            let groupNames = entry.contact.groupIDs.compactMap { directory.groupIndex[$0] }
                .map { directory.groups[$0].group.name }
            SearchTerms.add(entry: entry, groupNames: groupNames, config: directory.config, to: &collector)
            return collector.terms
        }
    }

    /// The brute-force answer: contacts every word finds (by any term starting with the word,
    /// inside terms only for words long enough), by the sum of their best tiers, then in order.
    struct BruteForce {
        /// For every prefix of every term: each contact's best tier, without and with `inside`.
        var prefixes: [String: (starts: [Int: SearchTier], all: [Int: SearchTier])] = [:]

        init(_ terms: [[String: SearchTier]]) {
            for (contact, contactTerms) in terms.enumerated() {
                for (key, tier) in contactTerms {
                    var prefix = ""
                    for scalar in key.unicodeScalars {
                        prefix.unicodeScalars.append(scalar)
                        var entry = prefixes[prefix] ?? ([:], [:])
                        entry.all[contact] = min(entry.all[contact] ?? tier, tier)
                        if tier != .inside {
                            entry.starts[contact] = min(entry.starts[contact] ?? tier, tier)
                        }
                        prefixes[prefix] = entry
                    }
                }
            }
        }

        func search(_ query: String) -> [Int] {
            let keys = SearchFolding.queryKeys(query).map { String(decoding: $0, as: UTF16.self) }
            guard !keys.isEmpty else { return [] }
            let words = keys.map { key in
                let inside = key.utf16.count >= SearchTerms.minimumInsideLength(of: Array(key.utf16))
                return (inside ? prefixes[key]?.all : prefixes[key]?.starts) ?? [:]
            }
            return words[0].keys.compactMap { contact -> (Int, Int)? in
                var score = 0
                for word in words {
                    guard let tier = word[contact] else { return nil }
                    score += Int(tier.rawValue)
                }
                return (score, contact)
            }.sorted { $0 < $1 }.map(\.1)
        }
    }

    static func expected(_ query: String, terms: [[String: SearchTier]]) -> [Int] {
        BruteForce(terms).search(query)
    }

    @Test func smallLimitsMakeManyPiecesAndHotPrefixes() throws {
        let directory = Directory(store: Self.store(count: 300), config: SiteConfig())
        let reader = try SearchIndexReader(
            files: Self.files(SearchIndex(directory: directory, limits: Self.limits)))
        #expect(reader.termSeparators.count > 20)
        #expect(reader.hotSeparators.count > 3)
        #expect(reader.contactCount == 300)
        #expect(reader.termSeparators.first == "")
    }

    /// Every prefix of every term, and words that find nothing, give exactly the brute-force
    /// results, and each needs one piece besides the root.
    @Test func everyOneWordQueryMatchesTheBruteForceFromOnePiece() throws {
        let directory = Directory(store: Self.store(count: 300), config: SiteConfig())
        let reader = try SearchIndexReader(
            files: Self.files(SearchIndex(directory: directory, limits: Self.limits)))
        let terms = Self.terms(of: directory)
        var queries = Set<String>()
        for contactTerms in terms {
            for key in contactTerms.keys {
                let units = Array(key.unicodeScalars)
                for length in 1...min(units.count, 5) {
                    queries.insert(String(String.UnicodeScalarView(units[..<length])))
                }
            }
        }
        queries.formUnion(["zzz", "0", "ㅎ", "qx", "9999999"])
        #expect(queries.count > 1_000)
        var failures: [String] = []
        let bruteForce = BruteForce(terms)
        for query in queries.sorted() {
            let (found, pieces) = reader.search(query)
            if found != bruteForce.search(query) { failures.append(query) }
            if pieces.count != 1 { failures.append("\(query) needs \(pieces.sorted())") }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20))")
    }

    struct QueryCase: CustomTestStringConvertible, Sendable {
        var query: String
        /// A display name that must be among the results.
        var finds: String
        var testDescription: String { "\(query) finds \(finds)" }
    }

    static let queryCases: [QueryCase] = [
        QueryCase(query: "muller", finds: "Müller"),
        QueryCase(query: "mueller", finds: "Müller"),
        QueryCase(query: "MÜLLER", finds: "Mueller"),
        QueryCase(query: "strasse", finds: "Straße"),
        QueryCase(query: "weiss", finds: "Weiß"),
        QueryCase(query: "soren", finds: "Søren"),
        QueryCase(query: "soeren", finds: "Søren"),
        QueryCase(query: "obrien", finds: "O'Brien"),
        QueryCase(query: "ㄱㅊㅅ", finds: "김철수"),
        QueryCase(query: "ㅊㅅ", finds: "김철수"),
        QueryCase(query: "철수", finds: "김철수"),
        QueryCase(query: "김철", finds: "김철수"),
        QueryCase(query: "김처", finds: "김철수"),
        QueryCase(query: "ller", finds: "Müller"),
        QueryCase(query: "grun weiss", finds: ""),
        QueryCase(query: "jürgen müller", finds: "Jürgen Müller"),
    ]

    @Test(arguments: queryCases)
    func queriesFindWhatTheIssueAsksFor(_ example: QueryCase) throws {
        let directory = Directory(store: Self.store(count: 300), config: SiteConfig())
        let reader = try SearchIndexReader(
            files: Self.files(SearchIndex(directory: directory, limits: Self.limits)))
        let found = reader.search(example.query).contacts
        #expect(found == Self.expected(example.query, terms: Self.terms(of: directory)))
        #expect(!found.isEmpty)
        if !example.finds.isEmpty {
            let names = found.map { directory.entries[$0].displayName }
            #expect(names.contains { $0.contains(example.finds) }, "\(names.prefix(5))")
        }
    }

    @Test func phoneNumbersAreFoundByAnyRunOfDigitsWithOrWithoutTheCountryCode() throws {
        var contact = Contact(id: "kim")
        contact.givenName = "철수"
        contact.familyName = "김"
        contact.phones = [LabeledValue(label: "mobile", value: "010-1234-5678")]
        var config = SiteConfig()
        config.phoneRegion = "KR"
        let directory = Directory(store: Store(contacts: [contact]), config: config)
        let reader = try SearchIndexReader(files: Self.files(SearchIndex(directory: directory)))
        for query in [
            "1234", "234-56", "010 1234 5678", "+82 10 1234 5678", "+82 010-1234-5678", "0082 10 1234",
            "5678", "01012345678",
        ] {
            #expect(reader.search(query).contacts == [0], "\(query)")
        }
        for query in ["1243", "+81 10 1234", "12345679"] {
            #expect(reader.search(query).contacts.isEmpty, "\(query)")
        }
    }

    @Test func rowsCarryWhatResultsShowInDirectoryOrder() throws {
        var store = Self.store(count: 40)
        store.contacts[3].familyName = "</script><b>'\"\\"
        var config = SiteConfig()
        config.hiddenContacts = ["c5"]
        config.hiddenFields = [.emails]
        let directory = Directory(store: store, config: config)
        let files = Self.files(SearchIndex(directory: directory, limits: Self.limits))
        let reader = try SearchIndexReader(files: files)
        #expect(reader.contactCount == 39)
        for (number, entry) in directory.entries.enumerated() {
            let row = reader.row(number).row
            #expect(row.first as? String == entry.slug)
            #expect(row.count > 1 && row[1] as? String == entry.displayName)
            #expect(row.count <= 5 || (row[5] as? [String])?.isEmpty == true, "emails are hidden")
        }
        #expect(directory.entries.contains { $0.displayName.contains("</script>") })
        for (path, bytes) in files {
            #expect(!bytes.contains(UInt8(ascii: "<")), "\(path) has a raw <")
            #expect(!String(decoding: bytes, as: UTF8.self).contains("@ex"), "\(path) has a hidden email")
        }
    }

    /// Result rows take the first phone number's form, the organization and the name's language
    /// from the directory's list rows when they are handed over, and come out as if formatted
    /// anew.
    @Test(arguments: [nil, "KR"])
    func rowsFromTheListRowsAreTheRowsFormattedAnew(phoneRegion: String?) {
        var config = SiteConfig()
        config.phoneRegion = phoneRegion
        let directory = Directory(store: Self.store(count: 200), config: config)
        let views = ViewBuilder(directory: directory, today: PartialDate(year: 2026, month: 11, day: 30))
        let anew = SearchRows(directory: directory).rows
        #expect(SearchRows(directory: directory, listRows: SearchListRows.Rows(views.rows)).rows == anew)
        let texts = anew.map { String(decoding: $0, as: UTF8.self) }
        #expect(texts.contains { $0.contains(#""ko""#) } && texts.contains { $0.contains(#"["010-"#) })

        // What the list rows say is what the result rows show.
        let phoneKeys = MustacheTable.Keys(["label", "display", "tel"])
        let marked = views.rows.map { row in
            RowData(
                id: row.id, name: row.name, lang: "xx", path: row.path, salutation: row.salutation,
                organization: "Marked", title: row.title,
                phone: row.phone.map { _ in
                    MustacheTable(keys: phoneKeys, values: [.string("mobile"), .string("555"), .absent])
                },
                email: row.email)
        }
        let markedTexts = SearchRows(directory: directory, listRows: SearchListRows.Rows(marked)).rows.map {
            String(decoding: $0, as: UTF8.self)
        }
        // (A first number that is shown as written is told by its bytes instead.)
        var marks = 0
        for (entry, text) in zip(directory.entries, markedTexts) {
            #expect(text.contains(#""xx","Marked""#))
            let first = entry.contact.phones.first?.value
            let told = first.map { SearchRows.showsAsWritten($0, region: phoneRegion) } ?? true
            #expect(text.contains(#"["555""#) == !told)
            if !told { marks += 1 }
        }
        // Without a region, the store's numbers are all shown as written; in KR, none is.
        #expect(phoneRegion == nil ? marks == 0 : marks > 20)
    }

    @Test func theFirstResultNeedsAtMostThreePieces() throws {
        let directory = Directory(store: Self.store(count: 300), config: SiteConfig())
        let reader = try SearchIndexReader(
            files: Self.files(SearchIndex(directory: directory, limits: Self.limits)))
        for query in ["kim", "müller", "ㄱㅊㅅ", "010", "49 30", "k", "e", "0"] {
            let (found, pieces) = reader.search(query)
            let first = try #require(found.first, "\(query) finds nothing")
            #expect(pieces.union(["root", reader.row(first).piece]).count <= 3, "\(query)")
        }
    }

    /// The version hash takes eight bytes a step as its definition says, whatever the length and
    /// the bytes' alignment, and a change of any bit of what it took changes it.
    @Test func theVersionHashTakesWordsAndSeesEveryBit() {
        var hash = SearchIndex.VersionHash()
        var expected: UInt64 = 0xcbf2_9ce4_8422_2325
        let prime = SearchIndex.VersionHash.prime
        for length in 0..<40 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length) }
            // Unaligned: a slice that starts one byte into its storage.
            let unaligned = ([0xFF] + bytes)[1...]
            unaligned.withUnsafeBytes { hash.add($0) }
            var start = 0
            while start + 8 <= length {
                var word: UInt64 = 0
                for (shift, byte) in bytes[start..<start + 8].enumerated() {
                    word |= UInt64(byte) << (8 * shift)
                }
                expected = (expected ^ word) &* prime
                expected ^= expected >> 32
                start += 8
            }
            for byte in bytes[start...] + [0] { expected = (expected ^ UInt64(byte)) &* prime }
            #expect(hash.value == expected, "\(length)")
        }
        let bytes = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 7) }
        var whole = SearchIndex.VersionHash()
        whole.add(bytes)
        var seen: Set<UInt64> = [whole.value]
        for bit in 0..<(bytes.count * 8) {
            var flipped = bytes
            flipped[bit / 8] ^= 1 << (bit % 8)
            var other = SearchIndex.VersionHash()
            other.add(flipped)
            seen.insert(other.value)
        }
        #expect(seen.count == bytes.count * 8 + 1, "a flipped bit left the hash as it was")
        // Two pieces are not their bytes run together: each ends with a zero byte.
        var split = SearchIndex.VersionHash()
        split.add(Array(bytes[..<20]))
        split.add(Array(bytes[20...]))
        #expect(split.value != whole.value)
    }

    @Test func twoBuildsAreByteIdentical() {
        let directory = Directory(store: Self.store(count: 120), config: SiteConfig())
        let first = SearchIndex(directory: directory, limits: Self.limits)
        let second = SearchIndex(directory: directory, limits: Self.limits)
        #expect(first.files == second.files)
        #expect(first.version == second.version)
        let changed = Directory(store: Self.store(count: 121), config: SiteConfig())
        #expect(SearchIndex(directory: changed, limits: Self.limits).version != first.version)
    }

    /// Runs of contacts are collected on every core and joined; where the cuts fall must not
    /// show in the table (keys found by several runs, postings in contact order).
    @Test(arguments: [2, 3, 7, 120])
    func termsAreTheSameHoweverTheContactsAreCutIntoRuns(runs: Int) {
        let directory = Directory(store: Self.store(count: 120), config: SiteConfig())
        func dump(_ table: SearchTermTable) -> [String] {
            (0..<table.count).map { index in
                let key = String(decoding: table.key(index), as: UTF16.self)
                let postings = table.postings(index).map { "\(table.contacts[$0])/\(table.tiers[$0])" }
                return key + " " + postings.joined(separator: ",")
            }
        }
        let whole = dump(SearchIndex.terms(of: directory, runs: 1))
        #expect(whole.count > 500)
        #expect(dump(SearchIndex.terms(of: directory, runs: runs)) == whole)
    }

    @Test func anEmptyDirectoryHasAnIndexThatFindsNothing() throws {
        let directory = Directory(store: Store(), config: SiteConfig())
        let index = SearchIndex(directory: directory)
        let reader = try SearchIndexReader(files: Self.files(index))
        #expect(reader.contactCount == 0)
        #expect(reader.search("a").contacts.isEmpty)
        #expect(index.files.map(\.path) == ["search/root.js", "search/t0.js"])
    }
}
