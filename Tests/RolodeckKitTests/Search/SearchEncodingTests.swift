import Testing
@testable import RolodeckKit

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
