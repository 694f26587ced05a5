import Testing
@testable import RolodeckLocale

/// The expected page order of all sections for one locale.
struct SectionOrderCase: CustomTestStringConvertible, Sendable {
    let locale: String
    let labels: [String]
    var testDescription: String { locale }
}

@Suite("Section order and anchors")
struct SectionOrderTests {
    static let latin = (65...90).map { String(UnicodeScalar(UInt8($0))) }
    static let hangul = ["ㄱ", "ㄴ", "ㄷ", "ㄹ", "ㅁ", "ㅂ", "ㅅ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]
    static let kana = ["あ", "か", "さ", "た", "な", "は", "ま", "や", "ら", "わ"]

    static let cases: [SectionOrderCase] = [
        .init(locale: "en", labels: latin + hangul + kana + ["#"]),
        .init(locale: "de", labels: latin + hangul + kana + ["#"]),
        .init(locale: "fr", labels: latin + hangul + kana + ["#"]),
        .init(locale: "sv", labels: latin + ["Å", "Ä", "Ö"] + hangul + kana + ["#"]),
        .init(locale: "fi", labels: latin + ["Å", "Ä", "Ö"] + hangul + kana + ["#"]),
        .init(locale: "da", labels: latin + ["Æ", "Ø", "Å"] + hangul + kana + ["#"]),
        .init(locale: "ko", labels: hangul + latin + kana + ["#"]),
        .init(locale: "ko-KR", labels: hangul + latin + kana + ["#"]),
        .init(locale: "ja", labels: kana + latin + hangul + ["#"]),
    ]

    @Test("all sections in page order", arguments: cases)
    func order(_ example: SectionOrderCase) {
        let sections = SectionLabeler(localeIdentifier: example.locale).allSections
        #expect(sections.map(\.label) == example.labels)
        #expect(sections == sections.sorted())
        #expect(sections.last == .other)
    }

    @Test("anchors are ASCII, unique and stable", arguments: cases)
    func anchors(_ example: SectionOrderCase) {
        let sections = SectionLabeler(localeIdentifier: example.locale).allSections
        let anchors = sections.map(\.anchor)
        #expect(Set(anchors).count == anchors.count)
        for anchor in anchors {
            #expect(!anchor.isEmpty)
            #expect(anchor.utf8.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        }
    }

    @Test("sample anchors")
    func sampleAnchors() {
        let english = SectionLabeler(localeIdentifier: "en")
        #expect(english.section(for: "Adams").anchor == "a")
        #expect(english.section(for: "김").anchor == "ko-g")
        #expect(english.section(for: "이").anchor == "ko-ng")
        #expect(english.section(for: "あ").anchor == "ja-a")
        #expect(english.section(for: "わ").anchor == "ja-wa")
        #expect(english.section(for: "1").anchor == "other")
        let swedish = SectionLabeler(localeIdentifier: "sv")
        #expect(swedish.section(for: "Åberg").anchor == "a-ring")
        #expect(swedish.section(for: "Ärla").anchor == "a-umlaut")
        #expect(swedish.section(for: "Öberg").anchor == "o-umlaut")
    }

    @Test("section scripts and heading languages")
    func scripts() {
        let labeler = SectionLabeler(localeIdentifier: "en")
        #expect(labeler.section(for: "Kim").script == .latin)
        #expect(labeler.section(for: "김").script == .hangul)
        #expect(labeler.section(for: "김").script.headingLanguage == "ko")
        #expect(labeler.section(for: "かとう").script == .kana)
        #expect(labeler.section(for: "かとう").script.headingLanguage == "ja")
        #expect(labeler.section(for: "?").script == .other)
    }

    @Test("a blank locale identifier means en")
    func blankLocale() {
        #expect(SectionLabeler(localeIdentifier: " ").localeIdentifier == "en")
        #expect(SectionLabeler(localeIdentifier: "").allSections == SectionLabeler(localeIdentifier: "en").allSections)
    }
}
