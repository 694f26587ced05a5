import Foundation
import Testing
@testable import RolodeckLocale

/// A locale identifier, a key and its expected text.
struct InterfaceStringCase: CustomTestStringConvertible, Sendable {
    let locale: String
    let key: InterfaceKey
    let text: String

    init(_ locale: String, _ key: InterfaceKey, _ text: String) {
        self.locale = locale
        self.key = key
        self.text = text
    }

    var testDescription: String { "\(locale) \(key.rawValue)" }
}

/// A raw contact label, a locale and the expected localized label.
struct ContactLabelCase: CustomTestStringConvertible, Sendable {
    let raw: String
    let locale: String
    let text: String

    init(_ raw: String, _ locale: String, _ text: String) {
        self.raw = raw
        self.locale = locale
        self.text = text
    }

    var testDescription: String { "\(locale) \(raw.debugDescription)" }
}

@Suite("Interface strings")
struct InterfaceStringsTests {
    @Test("language from locale identifier", arguments: [
        ("en", InterfaceLanguage.english), ("de", .german), ("de-AT", .german), ("DE_ch", .german),
        ("ko", .korean), ("ko_KR", .korean), ("ja-JP", .japanese), ("fr", .english), ("sv", .english),
        ("", .english), ("en-GB", .english),
    ])
    func language(_ identifier: String, _ expected: InterfaceLanguage) {
        #expect(InterfaceLanguage(localeIdentifier: identifier) == expected)
        #expect(InterfaceStrings(localeIdentifier: identifier).language == expected)
    }

    static let samples: [InterfaceStringCase] = [
        .init("en", .contacts, "Contacts"), .init("de", .contacts, "Kontakte"), .init("ko", .contacts, "연락처"),
        .init("ja", .contacts, "連絡先"), .init("fr", .contacts, "Contacts"),
        .init("en", .searchResults, "Search Results"), .init("de", .skipToContent, "Zum Inhalt springen"),
        .init("ko", .jumpToSection, "섹션으로 이동"), .init("ja", .pageNotFound, "ページが見つかりません"),
        .init("en", .backToDirectory, "Back to the directory"), .init("de", .priorityHigh, "Hoch"),
        .init("ko", .priorityLow, "낮음"), .init("ja", .priorityMedium, "中"), .init("en", .jobTitle, "Title"),
        .init("en", .labelMobile, "Mobile"), .init("de", .labelMobile, "Mobil"),
        .init("ko", .labelMobile, "휴대전화"), .init("ja", .labelMobile, "携帯"), .init("de-AT", .email, "E-Mail"),
    ]

    @Test("sample strings", arguments: samples)
    func sample(_ example: InterfaceStringCase) {
        #expect(InterfaceStrings(localeIdentifier: example.locale)[example.key] == example.text)
    }

    @Test("every key has text in every language", arguments: InterfaceLanguage.allCases)
    func complete(_ language: InterfaceLanguage) {
        let strings = InterfaceStrings(language: language)
        for key in InterfaceKey.allCases {
            #expect(!strings[key].isEmpty, "\(key)")
            #expect(strings[key] == strings[key].trimmingCharacters(in: .whitespaces))
        }
        let translated = InterfaceKey.allCases.filter {
            strings[$0] != InterfaceStrings(language: .english)[$0]
        }
        #expect(language == .english ? translated.isEmpty : translated.count > InterfaceKey.allCases.count / 2)
    }

    @Test("contact and member counts", arguments: [
        ("en", 0, "0 contacts", "0 members"), ("en", 1, "1 contact", "1 member"),
        ("en", 2, "2 contacts", "2 members"), ("en", 1234, "1,234 contacts", "1,234 members"),
        ("de", 1, "1 Kontakt", "1 Mitglied"), ("de", 2, "2 Kontakte", "2 Mitglieder"),
        ("de", 1_234_567, "1.234.567 Kontakte", "1.234.567 Mitglieder"),
        ("ko", 1, "연락처 1개", "구성원 1명"), ("ko", 12_000, "연락처 12,000개", "구성원 12,000명"),
        ("ja", 3, "3件の連絡先", "メンバー3人"), ("fr", 1, "1 contact", "1 member"),
    ])
    func counts(_ locale: String, _ count: Int, _ contacts: String, _ members: String) {
        let strings = InterfaceStrings(localeIdentifier: locale)
        #expect(strings.contactCount(count) == contacts)
        #expect(strings.memberCount(count) == members)
    }

    @Test("grouped numbers", arguments: [(0, "0"), (999, "999"), (1000, "1,000"), (-12345, "-12,345")])
    func grouped(_ value: Int, _ text: String) {
        #expect(InterfaceStrings(language: .english).groupedNumber(value) == text)
    }

    static let labels: [ContactLabelCase] = [
        .init("home", "en", "Home"), .init("HOME", "de", "Privat"), .init("Work", "ko", "직장"),
        .init("work", "ja", "勤務先"), .init("cell", "en", "Mobile"), .init("CELL", "de", "Mobil"),
        .init("Mobile", "ko", "휴대전화"), .init("mobile", "ja", "携帯"), .init("_$!<Mobile>!$_", "en", "Mobile"),
        .init("_$!<HomeFAX>!$_", "de", "Fax"), .init("work,voice", "en", "Work"), .init("WORK;FAX", "en", "Fax"),
        .init("TYPE=HOME", "de", "Privat"), .init("  Main ", "ko", "대표"), .init("pager", "ja", "ポケベル"),
        .init("other", "de", "Andere"), .init("fax", "ko", "팩스"), .init("cell,pref", "ja", "携帯"),
        .init("Cottage", "en", "Cottage"), .init("_$!<Anniversary>!$_", "en", "Anniversary"),
        .init("iPhone", "ko", "iPhone"), .init("Büro 2", "de", "Büro 2"), .init("", "en", ""),
        .init("pref", "en", "pref"),
    ]

    @Test("contact labels", arguments: labels)
    func label(_ example: ContactLabelCase) {
        #expect(InterfaceStrings(localeIdentifier: example.locale).label(for: example.raw) == example.text)
    }
}
