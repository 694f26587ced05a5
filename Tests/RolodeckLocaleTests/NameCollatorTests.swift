import Foundation
import Testing
@testable import RolodeckLocale

/// Two names and the order the collator must give them.
struct CollationPairCase: CustomTestStringConvertible, Sendable {
    let locale: String
    let first: String
    let second: String
    let note: String

    init(_ locale: String, _ first: String, _ second: String, _ note: String) {
        self.locale = locale
        self.first = first
        self.second = second
        self.note = note
    }

    var testDescription: String { "\(locale): \(first) < \(second) (\(note))" }
}

@Suite("Name collation")
struct NameCollatorTests {
    /// Behaviour of Foundation/ICU on this toolchain, pinned down.
    static let pairs: [CollationPairCase] = [
        .init("sv", "Zander", "Östlund", "sv puts Ö after Z"),
        .init("sv", "Zander", "Åberg", "sv puts Å after Z"),
        .init("sv", "Åberg", "Ärla", "sv Å before Ä"),
        .init("sv", "Ärla", "Ölund", "sv Ä before Ö"),
        .init("sv", "Ängström", "Ærø", "sv Æ sorts as Ä"),
        .init("sv", "Zorn", "Øberg", "sv Ø after Z"),
        .init("sv", "Über", "Yngve", "sv Ü sorts as Y"),
        .init("sv", "Vik", "Wallin", "sv v and w are distinct"),
        .init("en", "Östlund", "Zander", "en folds Ö to O"),
        .init("de", "Muller", "Müller", "de umlaut is an accent on its base letter"),
        .init("de", "Müller", "Mutter", "de Müller before Mutter"),
        .init("de", "Mueller", "Muller", "de standard collation is not phonebook"),
        .init("de", "Strasse", "Straße", "ß equals ss, then ß sorts after"),
        .init("de", "Straße", "Strauss", "ß is primary ss"),
        .init("en", "Emil", "Émile", "shorter first"),
        .init("en", "Émile", "Eve", "accents are secondary"),
        .init("en", "zoe", "Zoë", "accent beats case"),
        .init("en", "lee", "Lee", "lowercase first"),
        .init("en", "Lee", "LEE", "lowercase first"),
        .init("en", "O'Brien", "Obrien", "apostrophe is not ignorable and sorts before letters"),
        .init("en", "De Vries", "Dean", "space sorts before letters"),
        .init("en", "Adams", "Æsop", "Æ expands to AE"),
        .init("en", "Zoe", "Þór", "root puts Þ after Z"),
        .init("en", "Zz", "가", "Hangul after Latin in en"),
        .init("en", "가", "あ", "kana after Hangul in en"),
        .init("ko", "가", "나", "ko 가 before 나"),
        .init("ko", "가", "까", "tense consonant after plain"),
        .init("ko", "가하", "각", "syllable by syllable"),
        .init("ko", "1", "가", "digits first"),
        .init("ko", "힣", "Adams", "ko puts Hangul before Latin"),
        .init("ko", "Adams", "あ", "kana after Latin in ko"),
        .init("ja", "か", "き", "ja gojuon order"),
        .init("ja", "カ", "き", "katakana and hiragana interleave"),
        .init("ja", "か", "カ", "equal for Foundation; hiragana first by tie-break"),
        .init("ja", "か", "が", "voiced after unvoiced"),
        .init("ja", "ゃ", "や", "small before normal"),
        .init("ja", "う", "ヴ", "ヴ sorts with う"),
        .init("ja", "ヴ", "え", "ヴ before え"),
        .init("ja", "Smith", "あ", "Latin before kana in ja"),
        .init("ja", "あ", "山", "kanji after kana in ja"),
        .init("ja", "山", "가", "Hangul after kanji in ja"),
        .init("ja", "ー", "あ", "a lone long mark sorts first"),
    ]

    @Test("pinned Foundation order", arguments: pairs)
    func pair(_ example: CollationPairCase) {
        let collator = NameCollator(localeIdentifier: example.locale)
        #expect(collator.compare(example.first, example.second) == .orderedAscending)
        #expect(collator.compare(example.second, example.first) == .orderedDescending)
    }

    @Test("Foundation itself: what the collator builds on")
    func foundationFacts() {
        func compare(_ a: String, _ b: String, _ locale: String, _ options: String.CompareOptions = []) -> ComparisonResult {
            a.compare(b, options: options, range: nil, locale: Locale(identifier: locale))
        }
        // No options already ignores width and kana type.
        #expect(compare("Ａ", "A", "en") == .orderedSame)
        #expect(compare("ｶ", "カ", "ja") == .orderedSame)
        #expect(compare("か", "カ", "ja") == .orderedSame)
        // .caseInsensitive takes a different, inconsistent path: ß/ss.
        #expect(compare("ßa", "ssb", "de") == .orderedAscending)
        #expect(compare("ßa", "ssb", "de", [.caseInsensitive]) == .orderedDescending)
        // The receiver-order bug: with the longer string first, both directions say "greater".
        #expect(compare("간", "가김", "ko") == .orderedDescending)
        #expect(compare("가김", "간", "ko") == .orderedDescending)
    }

    @Test("different strings never compare equal")
    func totalOrder() {
        let collator = NameCollator(localeIdentifier: "ja")
        let names = ["か", "カ", "ｶ", "'Ali", "Ali", "Ａｌｉ", "Müller", "Mu\u{308}ller", "", " "]
        for a in names {
            for b in names {
                let same = a.unicodeScalars.elementsEqual(b.unicodeScalars)
                #expect((collator.compare(a, b) == .orderedSame) == same, "\(a.debugDescription) vs \(b.debugDescription)")
            }
        }
    }

    @Test("NFD input sorts next to its NFC spelling", arguments: ["en", "de", "sv", "ko", "ja"])
    func nfdPosition(_ locale: String) {
        let collator = NameCollator(localeIdentifier: locale)
        let others = ["Muller", "Mutter", "Mz", "Ma", "가", "까", "か", "が", "Zed", "Öberg", "Oz"]
        for name in ["Müller", "Öberg", "가", "が"] {
            let nfd = name.decomposedStringWithCanonicalMapping
            for other in others where other != name {
                #expect(collator.compare(name, other) == collator.compare(nfd, other), "\(name) vs \(other)")
            }
        }
    }

    @Test("comparisons are antisymmetric and transitive on mixed random names",
          arguments: ["en", "de", "sv", "ko", "ja", "fr"])
    func consistency(_ locale: String) {
        let collator = NameCollator(localeIdentifier: locale)
        var random = LocaleTestRandom(seed: 11)
        let alphabet = ["a", "A", "é", "ö", "Å", "ä", "ß", "z", " ", "-", "'", "1", "가", "각", "간", "까", "하",
                        "か", "が", "カ", "ゃ", "ー", "山", "ü", "y", "ø"]
        let names = (0..<120).map { _ in random.string(from: alphabet, maxLength: 5) }
        let sorted = names.sorted { collator.compare($0, $1) == .orderedAscending }
        for i in sorted.indices {
            for j in sorted.indices where j > i {
                #expect(collator.compare(sorted[i], sorted[j]) != .orderedDescending,
                        "\(sorted[i]) vs \(sorted[j])")
                #expect(collator.compare(sorted[j], sorted[i]) != .orderedAscending)
            }
        }
    }
}
