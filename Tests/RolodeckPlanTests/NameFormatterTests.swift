import Testing
@testable import RolodeckCore
@testable import RolodeckPlan

@Suite struct NameFormatterTests {
    static func contact(_ given: String = "", _ family: String = "", additional: String = "", nickname: String = "",
                        organization: String = "", salutation: String = "", phoneticGiven: String = "",
                        phoneticFamily: String = "") -> Contact {
        var contact = Contact(id: "x")
        contact.givenName = given
        contact.familyName = family
        contact.additionalNames = additional
        contact.nickname = nickname
        contact.organization = organization
        contact.salutation = salutation
        contact.phoneticGivenName = phoneticGiven
        contact.phoneticFamilyName = phoneticFamily
        return contact
    }

    struct DisplayCase: CustomTestStringConvertible, Sendable {
        var contact: Contact
        var order: SiteConfig.NameOrder?
        var expected: String
        var testDescription: String { expected }
    }

    static let displayCases: [DisplayCase] = [
        DisplayCase(contact: contact("Jürgen", "Müller", salutation: "Herr"), order: nil, expected: "Jürgen Müller"),
        DisplayCase(contact: contact("Jürgen", "Müller"), order: .familyFirst, expected: "Müller, Jürgen"),
        DisplayCase(contact: contact("Ada", "Lovelace", additional: "King"), order: .givenFirst, expected: "Ada King Lovelace"),
        DisplayCase(contact: contact("철수", "김"), order: nil, expected: "김철수"),
        DisplayCase(contact: contact("철수", "김"), order: .givenFirst, expected: "김철수"),
        DisplayCase(contact: contact("花子", "佐藤"), order: .familyFirst, expected: "佐藤花子"),
        DisplayCase(contact: contact("Madonna"), order: nil, expected: "Madonna"),
        DisplayCase(contact: contact("", "Zendaya"), order: nil, expected: "Zendaya"),
        DisplayCase(contact: contact(nickname: "짱구"), order: nil, expected: "짱구"),
        DisplayCase(contact: contact(organization: "Praxis Dr. Weiß"), order: nil, expected: "Praxis Dr. Weiß"),
        DisplayCase(contact: contact("  Ann ", " Lee  "), order: nil, expected: "Ann Lee"),
        DisplayCase(contact: contact("\u{3000}花子", "佐藤\u{A0}"), order: nil, expected: "佐藤花子"),
        DisplayCase(contact: contact("Zoë\n", "\u{2003}Ølund"), order: nil, expected: "Zoë Ølund"),
        DisplayCase(contact: contact("", "", additional: " Lee"), order: nil, expected: "Lee"),
        DisplayCase(contact: contact("Ann", "Lee", additional: "\t"), order: nil, expected: "Ann Lee"),
        // A combining mark on a space: the whole last Character is whitespace and goes.
        DisplayCase(contact: contact("Ann \u{301}", "Lee"), order: nil, expected: "Ann Lee"),
        DisplayCase(contact: contact("Lee \u{0E33}", ""), order: nil, expected: "Lee"),
        DisplayCase(
            contact: contact("Ann", "Lee", additional: "Mary\u{301}"), order: nil,
            expected: "Ann Mary\u{301} Lee"),
    ]

    @Test(arguments: displayCases)
    func displayName(_ testCase: DisplayCase) {
        #expect(NameFormatter(order: testCase.order).displayName(testCase.contact) == testCase.expected)
    }

    struct LanguageCase: CustomTestStringConvertible, Sendable {
        var contact: Contact
        var expected: String?
        var testDescription: String { "\(contact.familyName)|\(contact.givenName) → \(expected ?? "nil")" }
    }

    static let languageCases: [LanguageCase] = [
        LanguageCase(contact: contact("Ann", "Lee"), expected: nil),
        LanguageCase(contact: contact("철수", "김"), expected: "ko"),
        LanguageCase(contact: contact("はなこ", "Sato"), expected: "ja"),
        // The family name is read first: Hangul there wins over kana in the given name.
        LanguageCase(contact: contact("はなこ", "김"), expected: "ko"),
        LanguageCase(contact: contact("花子", "佐藤"), expected: nil),
        LanguageCase(contact: contact("花子", "佐藤", phoneticGiven: "ハナコ"), expected: "ja"),
        LanguageCase(contact: contact("Ann", "Lee", phoneticGiven: "ハナコ"), expected: nil),
        LanguageCase(contact: contact(nickname: "짱구"), expected: "ko"),
        LanguageCase(
            contact: contact(organization: "株式会社", phoneticFamily: "かぶしき"), expected: "ja"),
        LanguageCase(contact: contact("Ann", organization: "삼성"), expected: nil),
    ]

    @Test(arguments: languageCases)
    func languageTag(_ testCase: LanguageCase) {
        #expect(NameScript.languageTag(of: testCase.contact) == testCase.expected)
    }

    @Test func sortKeysNeverUseTheSalutationAndPreferPhoneticNames() {
        let names = NameFormatter(order: nil)
        let herr = Self.contact("Jürgen", "Müller", salutation: "Herr")
        #expect(names.sortKeys(herr, by: .familyName) == ("Müller", "Jürgen", "x"))
        #expect(names.sortKeys(herr, by: .givenName) == ("Jürgen", "Müller", "x"))
        let japanese = Self.contact("花子", "佐藤", phoneticGiven: "ハナコ", phoneticFamily: "サトウ")
        #expect(names.sortKeys(japanese, by: .familyName) == ("サトウ", "ハナコ", "x"))
        #expect(names.sortKeys(Self.contact("Madonna"), by: .familyName) == ("Madonna", "", "x"))
        #expect(names.sortKeys(Self.contact(organization: "Acme"), by: .givenName) == ("Acme", "", "x"))
        #expect(names.sortKeys(Self.contact(nickname: "Teo", organization: "Club"), by: .familyName) == ("Teo", "Club", "x"))
    }
}
