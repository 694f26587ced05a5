import Testing
@testable import RolodeckSearch
@testable import RolodeckPlan
@testable import RolodeckCore

/// The compact text of term and hot pieces, and the separators in the root.
@Suite struct SearchEncodingTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [
        (0, "0"), (9, "9"), (31, "V"), (32, "X0"), (33, "X1"), (1023, "$V"), (1024, "XW0"),
        (100_000, "ZXr0"),
    ])
    func numbers(value: Int, encoded: String) {
        var bytes: [UInt8] = []
        SearchEntryEncoding.append(number: value, to: &bytes)
        #expect(Self.text(bytes) == encoded)
        #expect(SearchEntryEncoding.digitCount(value) == encoded.count)
        var units = Array(encoded.utf16)[...]
        #expect(SearchIndexReader.number(&units) == value)
    }

    struct ListCase: CustomTestStringConvertible, Sendable {
        var list: [Int32]
        var encoded: String
        var testDescription: String { encoded }
    }

    static let listCases: [ListCase] = [
        ListCase(list: [], encoded: ""),
        ListCase(list: [5], encoded: "5"),
        ListCase(list: [0, 1, 2], encoded: "000"),
        ListCase(list: [3, 40, 41], encoded: "3X40"),
        ListCase(list: Array(0..<20), encoded: "*0J$$$3"),
        ListCase(
            list: Array(stride(from: 1000, to: 1200, by: 2)),
            encoded: "*$8XbE" + String(repeating: "L", count: 33) + "1"),
    ]

    @Test(arguments: listCases)
    func lists(_ example: ListCase) {
        var bytes: [UInt8] = []
        SearchEntryEncoding.append(list: example.list, to: &bytes)
        #expect(Self.text(bytes) == example.encoded)
        #expect(SearchIndexReader.decode(list: example.encoded) == example.list.map(Int.init))
    }

    @Test func listsRoundTripInTheShorterForm() {
        var state: UInt64 = 1
        for density in [1, 2, 3, 5, 8, 40, 500] {
            var list: [Int32] = []
            var contact: Int32 = 0
            for _ in 0..<300 {
                state = state &* 6_364_136_223_846_793_005 &+ 1
                contact += 1 + Int32((state >> 33) % UInt64(density))
                list.append(contact)
            }
            var bytes: [UInt8] = []
            SearchEntryEncoding.append(list: list, to: &bytes)
            #expect(
                SearchIndexReader.decode(list: Self.text(bytes)) == list.map(Int.init), "density \(density)")
            #expect(bytes.count <= list.count * 2 || density > 40)
        }
    }

    /// The shorter form, worked out the long way: every gap's digits against the bitmap's.
    static func shorterForm(_ list: [Int32]) -> String {
        func digits(_ number: Int, final: Bool = true) -> String {
            let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
            let rest = number >> 5, digit = String(alphabet[(final ? 0 : 32) + number & 31])
            return (rest > 0 ? digits(rest, final: false) : "") + digit
        }
        guard let first = list.first.map(Int.init), let last = list.last.map(Int.init) else { return "" }
        var gaps = "", previous = -1
        for contact in list {
            gaps += digits(Int(contact) - previous - 1)
            previous = Int(contact)
        }
        var bits = [Int](repeating: 0, count: (last - first) / 6 + 1)
        for contact in list { bits[(Int(contact) - first) / 6] |= 1 << ((Int(contact) - first) % 6) }
        let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$")
        let bitmap = "*" + digits(first) + digits(last) + String(bits.map { alphabet[$0] })
        return bitmap.count < gaps.count ? bitmap : gaps
    }

    /// Lists on both sides of the point where the bitmap gets shorter, from every density and
    /// spread, some of which the encoding decides without counting the gaps' digits.
    @Test func listsTakeTheShorterFormAtEveryDensity() {
        var state: UInt64 = 3
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<2_000 {
            let count = 1 + next(round % 7 == 0 ? 400 : 40), spread = 1 + next(1 << (1 + round % 20))
            var list = Set<Int32>()
            let start = Int32(next(70_000))
            while list.count < count { list.insert(start + Int32(next(spread + count))) }
            let sorted = list.sorted()
            var bytes: [UInt8] = []
            SearchEntryEncoding.append(list: sorted, to: &bytes)
            #expect(Self.text(bytes) == Self.shorterForm(sorted), "\(sorted)")
        }
    }

    /// A table's key is encoded as its lists would be, whether it finds one contact (written
    /// without lists) or several.
    @Test func aTableKeyIsEncodedAsItsLists() {
        let directory = Directory(store: SearchIndexTests.store(count: 120), config: SiteConfig())
        let table = SearchIndex.terms(of: directory)
        var fromTable = SearchEntryEncoding(), fromLists = SearchEntryEncoding()
        var counts = Set<Int>()
        for index in 0..<table.count {
            fromTable.append(key: index, of: table)
            fromLists.append(key: table.key(index), lists: table.lists(index))
            counts.insert(min(table.postings(index).count, 2))
        }
        #expect(counts == [1, 2])
        #expect(Self.text(fromTable.finishPiece()) == Self.text(fromLists.finishPiece()))
    }

    /// Keys are compared and copied several units at a time: generated keys of every length,
    /// sharing prefixes of every length with the key before, of ASCII, Hangul and surrogate
    /// pairs, are written as a unit-by-unit front coding writes them.
    @Test func keysAreFrontCodedAtEveryLengthAndOffset() {
        let alphabet = ["a", "b", "1", "ㄱ", "한", "𝒜"].map { Array($0.utf16) }
        var state: UInt64 = 5
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let keys = (0..<3_000).map { _ in
            (0..<1 + next(13)).flatMap { _ in alphabet[next(next(2) == 0 ? 3 : alphabet.count)] }
        }
        .sorted { $0.lexicographicallyPrecedes($1) }
        var encoding = SearchEntryEncoding()
        var expected: [UInt8] = [], previous: [UInt16] = []
        for (number, key) in keys.enumerated() {
            encoding.append(key: key[...], lists: [[Int32(number)]])
            var shared = zip(previous, key).prefix { $0 == $1 }.count
            if shared > 0, shared < key.count, UTF16.isTrailSurrogate(key[shared]) { shared -= 1 }
            SearchEntryEncoding.append(number: shared, to: &expected)
            expected += Array(String(decoding: key[shared...], as: UTF16.self).utf8) + [UInt8(ascii: ":")]
            SearchEntryEncoding.append(number: number, to: &expected)
            expected.append(UInt8(ascii: ";"))
            previous = key
        }
        #expect(Self.text(encoding.finishPiece()) == Self.text(expected))
    }

    @Test func entriesAreFrontCodedWithinAPiece() {
        var encoding = SearchEntryEncoding()
        encoding.append(key: Array("kim".utf16)[...], lists: [[1, 2], [], []])
        encoding.append(key: Array("kimura".utf16)[...], lists: [[], [7], []])
        encoding.append(key: Array("ㄱㅊㅅ".utf16)[...], lists: [[], [], [3]])
        #expect(Self.text(encoding.finishPiece()) == "0kim:10;3ura:,7;0ㄱㅊㅅ:,,3;")
        encoding.append(key: Array("kimura".utf16)[...], lists: [[4], [], []])
        encoding.append(key: Array("𝒜".utf16)[...], lists: [[1], [], []])
        encoding.append(key: Array("𝒜b".utf16)[...], lists: [[2], [], []])
        #expect(
            Self.text(encoding.finishPiece()) == "0kimura:4;0𝒜:1;2b:2;",
            "a new piece starts without a shared prefix; 𝒜 is one character, two units")
        let (keys, lists) = SearchIndexReader.entries(in: "0kim:10;3ura:,7;0ㄱㅊㅅ:,,3;")
        #expect(keys == ["kim", "kimura", "ㄱㅊㅅ"])
        #expect(lists == ["10", ",7", ",,3"])
    }

    /// Entries read back give the lists they were written from, in both list forms, with
    /// trailing empty lists left out, keys of every kind, and between a piece's prefix and suffix.
    @Test func entriesAreReadBackAsTheirLists() throws {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let keys = ["0", "01", "0101", "kim", "kimura", "ㄱㅊ", "𝒜", "𝒜b", "z"].map { Array($0.utf16) }
        var encoding = SearchEntryEncoding()
        var written: [[[Int32]]] = []
        for key in keys {
            let lists = (0..<3).map { tier -> [Int32] in
                // Empty, sparse, dense: every tier of every entry, the last tier often empty.
                guard next(tier == 2 ? 2 : 4) > 0 else { return [] }
                let spread = [3, 50, 4_000][next(3)]
                return Set((0..<1 + next(200)).map { _ in Int32(next(spread * 10)) }).sorted()
            }
            encoding.append(key: key[...], lists: lists)
            written.append(lists)
        }
        encoding.append(key: Array("zz".utf16)[...], lists: [[], [], []])
        written.append([[], [], []])
        let text = encoding.finishPiece(prefix: SearchIndex.hotPrefix, suffix: SearchIndex.entrySuffix)
        let read = try #require(
            SearchEntryDecoding.lists(
                ofPiece: text, prefix: SearchIndex.hotPrefix, suffix: SearchIndex.entrySuffix))
        #expect(read == written)
        #expect(written.contains { $0[2].isEmpty && !$0[1].isEmpty }, "an entry whose last list is left out")
    }

    /// Text that is not entries is refused, not read as something else.
    @Test(arguments: ["0kim", "0kim:", "0kim:1", "0kim:*05;", "0kim:1,2,3,4;", "0kim:1!;", "#kim:1;"])
    func brokenEntriesAreRefused(_ text: String) {
        #expect(SearchEntryDecoding.lists(ofPiece: Array(text.utf8), prefix: "", suffix: "") == nil)
    }

    @Test(arguments: [
        ("abc", "abd", "abd"), ("ab", "b", "b"), ("kim", "kimura", "kimu"), ("jz", "kab", "k"),
        ("0101", "0102", "0102"), ("a", "ab", "ab"),
    ])
    func separatorsAreTheShortestPrefixAfterThePreviousPiece(
        previous: String, next: String, separator: String
    ) {
        let result = SearchSeparators.between(Array(previous.utf16), Array(next.utf16))
        #expect(String(decoding: result, as: UTF16.self) == separator)
    }

    @Test func hotPrefixesAreTheShorterPrefixesOfSeparators() {
        let separators = ["", "b", "kimu", "kl", "𝒜x"].map { Array($0.utf16) }
        let hot = SearchSeparators.hotPrefixes(of: separators).map { String(decoding: $0, as: UTF16.self) }
        #expect(hot == ["k", "ki", "kim", "𝒜"], "never half of a surrogate pair")
    }
}
