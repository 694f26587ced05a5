import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckSearch

/// The folding rules, from the cases `search.js` is checked against too (Tests/Browser).
@Suite struct SearchFoldingTests {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var text: String
        var keys: [String]
        var note: String
        var testDescription: String { "\(note): \(text)" }
    }

    static let cases: [Case] = {
        let url = Fixtures.packageRoot.appendingPathComponent(
            "Tests/RolodeckSearchTests/folding-cases.json")
        guard let data = try? Data(contentsOf: url) else { return [] }
        return (try? JSONDecoder().decode([Case].self, from: data)) ?? []
    }()

    @Test func theSharedCasesAreThere() {
        #expect(Self.cases.count > 30)
    }

    @Test(arguments: cases)
    func queryKeys(_ example: Case) {
        let keys = SearchFolding.queryKeys(example.text).map { String(decoding: $0, as: UTF16.self) }
        #expect(keys == example.keys)
    }

    struct PartCase: CustomTestStringConvertible, Sendable {
        var text: String
        /// Each part as "short|long|initials" with its character starts, "-" for none.
        var parts: [String]
        var testDescription: String { text }
    }

    static let partCases: [PartCase] = [
        PartCase(text: "Müller", parts: ["muller 0,1,2,3,4,5 | mueller 0,1,3,4,5,6 | -"]),
        PartCase(text: "Straße", parts: ["strasse 0,1,2,3,4,6 | - | -"]),
        PartCase(text: "O'Brien", parts: ["o 0 | - | -", "brien 0,1,2,3,4 | - | -"]),
        PartCase(text: "김철수", parts: ["ㄱㅣㅁㅊㅓㄹㅅㅜ 0,3,6 | - | ㄱㅊㅅ"]),
        PartCase(text: "김a", parts: ["ㄱㅣㅁa 0,3 | - | -"]),
        PartCase(text: "ㄱㅊ", parts: ["ㄱㅊ 0,1 | - | -"]),
        PartCase(text: "과자", parts: ["ㄱㅗㅏㅈㅏ 0,3 | - | ㄱㅈ"]),
    ]

    @Test(arguments: partCases)
    func partsRememberWhereCharactersStart(_ example: PartCase) {
        let parts = SearchFolding.words(example.text).flatMap { $0 }.map { part in
            let text = { (units: [UInt16]) in String(decoding: units, as: UTF16.self) }
            let starts = { (starts: [Int]) in starts.map(String.init).joined(separator: ",") }
            let long = part.long.map { "\(text($0.units)) \(starts($0.starts))" } ?? "-"
            return "\(text(part.units)) \(starts(part.starts)) | \(long) | \(part.initials.map(text) ?? "-")"
        }
        #expect(parts == example.parts)
    }

    /// Plain ASCII text takes a path of its own; in a text with other characters its
    /// characters go through the general one, and must fold the same there.
    @Test(arguments: [
        "O'Brien-Smith", "ANNA lena\t42", "a.b@ex.org", "x_y+z (1)/2 ~", "Zz09\u{7F}\r\nAz",
        String((0..<128).map { Character(Unicode.Scalar(UInt8($0))) }),
    ])
    func asciiFoldsAloneAsAmongOtherCharacters(_ text: String) {
        let ascii = SearchFolding.words(text)
        let mixed = SearchFolding.words(text + " é")
        #expect(!ascii.isEmpty)
        #expect(Array(mixed.dropLast()) == ascii)
        #expect(mixed.last == SearchFolding.words("é").first)
    }

    /// The decomposition worked out scalar by scalar is Foundation's, for every scalar it takes
    /// on its own and for texts that mix them with marks; a text with a scalar it does not take
    /// (a mark that could be reordered, a script it has no table for) is left to Foundation.
    @Test func scalarByScalarDecompositionIsFoundations() {
        func foundation(_ text: String) -> [Unicode.Scalar] {
            Array(text.decomposedStringWithCompatibilityMapping.unicodeScalars)
        }
        func scalarByScalar(_ text: String) -> [Unicode.Scalar] {
            var scalars: [Unicode.Scalar] = []
            SearchFolding.Decomposition.forEachScalar(of: text) { scalars.append($0) }
            return scalars
        }
        let ranges: [ClosedRange<UInt32>] = [
            0x00A0...0x024F, 0x3000...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3,
        ]
        var taken = 0
        for value in ranges.joined() {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = String(scalar)
            guard SearchFolding.Decomposition.decomposes(text) else { continue }
            taken += 1
            #expect(scalarByScalar(text) == foundation(text), "U+\(String(value, radix: 16))")
        }
        #expect(taken > 32_800)
        for text in [
            "Müller-Lüdenscheidt", "José Ñúñez", "Łukasz Żółć", "がっこう ガッコウ ヴァ", "김철수 과자",
            "佐藤 花子", "ǖǘ ﬁ", "a\u{0301}", "ü\u{0323}", "が\u{3099}", "ü\u{3099}", "Ａｂｃ", "Иван",
        ] {
            if SearchFolding.Decomposition.decomposes(text) {
                #expect(scalarByScalar(text) == foundation(text), "\(text)")
            }
        }
        #expect(SearchFolding.Decomposition.decomposes("Müller 김철수 がっこう 佐藤"))
        #expect(!SearchFolding.Decomposition.decomposes("ü\u{3099}"))
        #expect(!SearchFolding.Decomposition.decomposes("a\u{0301}"))
        #expect(!SearchFolding.Decomposition.decomposes("Иван"))
    }

    /// Kana and ideographs skip the Unicode tables: each must be a letter, neither white space
    /// nor a jamo, and (as hiragana) fold to itself.
    @Test func kanaAndIdeographsAreLettersThatFoldToThemselves() {
        let letters: Set<Unicode.GeneralCategory> = [
            .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
        ]
        for value in UInt32(0x3000)...0x9FFF {
            guard let scalar = Unicode.Scalar(value), SearchFolding.isKanaOrIdeograph(scalar) else {
                continue
            }
            #expect(letters.contains(scalar.properties.generalCategory), "U+\(String(value, radix: 16))")
            #expect(!scalar.properties.isWhitespace && HangulKeystrokes.jamo(scalar) == nil)
            let hiragana = SearchFolding.hiragana(scalar)
            if SearchFolding.foldsToItself(hiragana) {
                #expect(String(hiragana).lowercased() == String(hiragana))
                let units = SearchFolding.words(String(hiragana)).first?.first?.units
                #expect(units == [UInt16(hiragana.value)])
            }
        }
    }

    @Test func whiteSpaceSplitsWordsAndPunctuationSplitsParts() {
        let words = SearchFolding.words("Anna-Lena  Meyer\u{3000}Lüdenscheidt")
        #expect(words.map { $0.count } == [2, 1, 1])
    }
}
