import Foundation
import Testing
@testable import RolodeckLocale

/// One sort string and the section label it must land in.
struct SectionCase: CustomTestStringConvertible, Sendable {
    let locale: String
    let name: String
    let label: String

    init(_ locale: String, _ name: String, _ label: String) {
        self.locale = locale
        self.name = name
        self.label = label
    }

    var testDescription: String { "\(locale): \(name.debugDescription) → \(label)" }
}

@Suite("Section labels")
struct SectionLabelerTests {
    static let english: [SectionCase] = [
        .init("en", "Smith", "S"), .init("en", "smith", "S"), .init("en", "Émile", "E"),
        .init("en", "  Émile", "E"), .init("en", "'Ali", "A"), .init("en", "«Quote»", "Q"),
        .init("en", "-Dash", "D"), .init("en", "\tTab", "T"), .init("en", "#hashtag", "H"),
        .init("en", "ʻOkina", "O"), .init("en", "Æsop", "A"), .init("en", "Øster", "O"),
        .init("en", "Œuvre", "O"), .init("en", "Łukasz", "L"), .init("en", "Đorđe", "D"),
        .init("en", "Ðan", "D"), .init("en", "Þór", "T"), .init("en", "ıpek", "I"),
        .init("en", "İpek", "I"), .init("en", "Ｆｕｌｌ", "F"), .init("en", "Mu\u{308}ller", "M"),
        .init("en", "U\u{308}ber", "U"), .init("en", "Ärger", "A"), .init("en", "ßa", "S"),
        .init("en", "Ñandú", "N"), .init("en", "Çelik", "C"), .init("en", "Ĳsselmeer", "I"),
        .init("en", "ǅemal", "D"), .init("en", "Åsa", "A"), .init("en", "Ǿrsted", "O"),
        .init("en", "ɓala", "B"),
        .init("en", "1Password", "#"), .init("en", "007", "#"), .init("en", "😀 Kim", "#"),
        .init("en", "★Star", "#"), .init("en", "+82", "#"), .init("en", "$Money", "#"),
        .init("en", "", "#"), .init("en", "   ", "#"), .init("en", "---", "#"),
        .init("en", "Иван", "#"), .init("en", "Ελένη", "#"), .init("en", "محمد", "#"),
        .init("en", "דוד", "#"), .init("en", "山田", "#"), .init("en", "ʔa", "#"),
        .init("en", "김민준", "ㄱ"), .init("en", "たなか", "た"), .init("en", "タナカ", "た"),
        .init("en", "(주)다온소프트", "ㅈ"),
    ]

    static let german: [SectionCase] = [
        .init("de", "Müller", "M"), .init("de", "Ärger", "A"), .init("de", "Öl", "O"),
        .init("de", "Übel", "U"), .init("de", "ẞ", "S"), .init("de", "Straße", "S"),
        .init("de", "Østergaard", "O"), .init("de", "Åsa", "A"), .init("de", "O\u{308}l", "O"),
        .init("de-AT", "Ähre", "A"), .init("de_CH", "Zürich", "Z"), .init("de", "4711", "#"),
    ]

    static let swedish: [SectionCase] = [
        .init("sv", "Åberg", "Å"), .init("sv", "åsa", "Å"), .init("sv", "A\u{30A}berg", "Å"),
        .init("sv", "Ängström", "Ä"), .init("sv", "Östlund", "Ö"), .init("sv", "O\u{308}stlund", "Ö"),
        .init("sv", "Ærø", "Ä"), .init("sv", "Øberg", "Ö"), .init("sv", "Über", "Y"),
        .init("sv", "Émile", "E"), .init("sv", "Zander", "Z"), .init("sv", "Wallin", "W"),
        .init("sv", "Yngve", "Y"), .init("sv", "Aaberg", "A"), .init("sv_SE", "Örjan", "Ö"),
        .init("sv", "Ångström", "Å"), .init("sv", "1:a", "#"),
    ]

    static let korean: [SectionCase] = [
        .init("ko", "김", "ㄱ"), .init("ko", "꽃님", "ㄱ"), .init("ko", "나", "ㄴ"), .init("ko", "또", "ㄷ"),
        .init("ko", "류", "ㄹ"), .init("ko", "문", "ㅁ"), .init("ko", "박", "ㅂ"), .init("ko", "뽀", "ㅂ"),
        .init("ko", "서", "ㅅ"), .init("ko", "쌍", "ㅅ"), .init("ko", "이", "ㅇ"), .init("ko", "정", "ㅈ"),
        .init("ko", "짱", "ㅈ"), .init("ko", "최", "ㅊ"), .init("ko", "코", "ㅋ"), .init("ko", "탁", "ㅌ"),
        .init("ko", "표", "ㅍ"), .init("ko", "황", "ㅎ"), .init("ko", "힣", "ㅎ"),
        .init("ko", "ㄱ", "ㄱ"), .init("ko", "ㄲ", "ㄱ"), .init("ko", "ㅎ", "ㅎ"),
        .init("ko", "\u{1100}\u{1161}", "ㄱ"), .init("ko", "\u{1112}", "ㅎ"), .init("ko", "\u{FFA1}", "ㄱ"),
        .init("ko", "(주)다온소프트", "ㅈ"), .init("ko", "㈜다온", "ㅈ"), .init("ko", "Kim", "K"),
        .init("ko", "たなか", "た"), .init("ko", "ㅏ", "#"), .init("ko", "ㄳ", "#"),
        .init("ko", "123", "#"), .init("ko", "", "#"), .init("ko_KR", "김", "ㄱ"),
    ]

    static let japanese: [SectionCase] = [
        .init("ja", "あおき", "あ"), .init("ja", "いとう", "あ"), .init("ja", "がっこう", "か"),
        .init("ja", "ゕ", "か"), .init("ja", "ざ", "さ"), .init("ja", "ぢ", "た"), .init("ja", "ッタ", "た"),
        .init("ja", "ぬ", "な"), .init("ja", "ぱん", "は"), .init("ja", "ぶ", "は"), .init("ja", "ミキ", "ま"),
        .init("ja", "ゃ", "や"), .init("ja", "ょ", "や"), .init("ja", "ル", "ら"), .init("ja", "を", "わ"),
        .init("ja", "ゐ", "わ"), .init("ja", "ヷ", "わ"), .init("ja", "んじゃめな", "わ"),
        .init("ja", "ンガ", "わ"), .init("ja", "ゔぃん", "あ"), .init("ja", "ヴァイオリン", "あ"),
        .init("ja", "ｶﾄｳ", "か"), .init("ja", "ﾊﾟﾝ", "は"), .init("ja", "ｯ", "た"), .init("ja", "ｳﾞ", "あ"),
        .init("ja", "ㇰ", "か"), .init("ja", "ゟ", "や"), .init("ja", "か\u{3099}", "か"),
        .init("ja", "「さとう」", "さ"), .init("ja", "ー", "#"), .init("ja", "ーあ", "#"),
        .init("ja", "ゝ", "#"), .init("ja", "山田", "#"), .init("ja", "Smith", "S"), .init("ja", "김", "ㄱ"),
        .init("ja_JP", "さとう", "さ"),
    ]

    static let otherLatin: [SectionCase] = [
        .init("fr", "Élodie", "E"), .init("fr", "Çelik", "C"), .init("es", "Ñandú", "N"),
        .init("nl", "IJsselmeer", "I"), .init("tr", "Şahin", "S"), .init("tr", "ılgın", "I"),
        .init("da", "Aabye", "Å"), .init("da", "Ærø", "Æ"), .init("da", "Øre", "Ø"),
        .init("da", "Ähm", "Æ"), .init("nb", "Örn", "Ø"), .init("nb", "Åse", "Å"),
        .init("da", "Adam", "A"), .init("fi", "Äijälä", "Ä"), .init("", "Smith", "S"),
        .init("zz", "Émile", "E"), .init("fr", "김", "ㄱ"),
    ]

    @Test("section labels", arguments: english + german + swedish + korean + japanese + otherLatin)
    func label(_ example: SectionCase) {
        let labeler = SectionLabeler(localeIdentifier: example.locale)
        #expect(labeler.section(for: example.name).label == example.label)
    }

    @Test("NFD and NFC spellings land in the same section",
          arguments: ["Müller", "Ångström", "Émile", "Öberg", "가나", "がっこう", "パン"])
    func normalization(_ name: String) {
        for locale in ["en", "de", "sv", "ko", "ja"] {
            let labeler = SectionLabeler(localeIdentifier: locale)
            let nfd = name.decomposedStringWithCanonicalMapping
            #expect(nfd.unicodeScalars.count != name.unicodeScalars.count)
            #expect(labeler.section(for: nfd) == labeler.section(for: name))
        }
    }

    @Test("a labeler only returns sections it lists", arguments: ["en", "de", "sv", "ko", "ja", "da", "fr"])
    func sectionsAreListed(_ locale: String) {
        let labeler = SectionLabeler(localeIdentifier: locale)
        let names = (Self.english + Self.swedish + Self.korean + Self.japanese + Self.otherLatin).map(\.name)
        for name in names {
            #expect(labeler.allSections.contains(labeler.section(for: name)))
        }
    }
}
