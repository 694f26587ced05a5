import Testing
import Mustache
@testable import RolodeckCore
@testable import RolodeckSite
@testable import RolodeckPlan

/// What a contact page shows of an email address and a postal address: which addresses become
/// `mailto:` links, and which lines an address is shown in.
@Suite struct ContactValuesTests {
    /// The demo site's view builder, in English.
    static let views: ViewBuilder? = try? SitePagesTests.sites().first.map { _, site in
        site.renderer(today: SitePagesTests.today).views
    }

    struct EmailCase: CustomTestStringConvertible, Sendable {
        let value: String
        let href: String?
        var testDescription: String { String(reflecting: value) }
    }

    static let emailCases: [EmailCase] = [
        EmailCase(value: "ada@example.com", href: "mailto:ada@example.com"),
        EmailCase(value: "  ada@example.com \n", href: "mailto:ada@example.com"),
        EmailCase(value: "ada.example.com", href: nil),
        EmailCase(value: "ada @example.com", href: nil),
        EmailCase(value: "<ada@example.com>", href: nil),
        EmailCase(value: "ada@exam\tple.com", href: nil),
        EmailCase(value: "zoë@example.de", href: "mailto:zoë@example.de"),
        EmailCase(value: "zoë@exa\u{3000}mple.de", href: nil),
        EmailCase(value: "zoë@exa\u{2028}mple.de", href: nil),
        // A prepended mark takes the space after it into its Character, which is no space.
        EmailCase(value: "zoë@exa\u{600}\u{3000}mple.de", href: "mailto:zoë@exa\u{600}\u{3000}mple.de"),
        EmailCase(value: "", href: nil),
    ]

    @Test(arguments: emailCases)
    func emailLinks(_ example: EmailCase) throws {
        let views = try #require(Self.views)
        let table = views.email(LabeledValue(label: "work", value: example.value))
        #expect(table["href"] as? String == example.href)
        #expect(table["address"] as? String == example.value.trimmingWhitespace)
    }

    struct AddressCase: CustomTestStringConvertible, Sendable {
        let address: PostalAddress
        let lines: [String]
        var testDescription: String { String(reflecting: lines) }
    }

    static let addressCases: [AddressCase] = [
        AddressCase(
            address: PostalAddress(street: "Main St 1\n  Apt 2 \n\n", postalCode: "10115", city: " Berlin",
                                   region: "BE", country: " Germany "),
            lines: ["Main St 1", "Apt 2", "10115 Berlin, BE", "Germany"]),
        AddressCase(address: PostalAddress(street: "221B Baker Street", city: "London"),
                    lines: ["221B Baker Street", "London"]),
        AddressCase(address: PostalAddress(postalCode: "10115"), lines: ["10115"]),
        AddressCase(address: PostalAddress(region: "BE"), lines: ["BE"]),
        AddressCase(address: PostalAddress(postalCode: "1010", region: "Wien"), lines: ["1010, Wien"]),
        AddressCase(address: PostalAddress(street: " \n ", city: "東京都\u{3000}", country: "日本"),
                    lines: ["東京都", "日本"]),
        AddressCase(address: PostalAddress(), lines: []),
        // Korea and Japan write the largest part first: postal code, region, city, street; in
        // Latin letters they are written the western way.
        AddressCase(
            address: PostalAddress(street: "테헤란로 427, 12층 (삼성동)", postalCode: "06159", city: "강남구",
                                   region: "서울특별시", country: "대한민국"),
            lines: ["06159", "서울특별시 강남구", "테헤란로 427, 12층 (삼성동)", "대한민국"]),
        AddressCase(
            address: PostalAddress(street: "神南1-2-3\nサクラビル5階", postalCode: "150-0041", city: "渋谷区",
                                   region: "東京都", country: "日本"),
            lines: ["〒150-0041", "東京都渋谷区", "神南1-2-3", "サクラビル5階", "日本"]),
        AddressCase(
            address: PostalAddress(street: "1-1 Marunouchi", postalCode: "〒100-0005", city: "Chiyoda-ku",
                                   region: "Tokyo", country: " Japan "),
            lines: ["1-1 Marunouchi", "〒100-0005 Chiyoda-ku, Tokyo", "Japan"]),
        AddressCase(
            address: PostalAddress(street: "Sejong-daero 110", postalCode: "04524", city: "Jung-gu",
                                   region: "Seoul", country: "South Korea"),
            lines: ["Sejong-daero 110", "04524 Jung-gu, Seoul", "South Korea"]),
        // Without a country the script decides: Hangul is Korean, kana or a prefecture Japanese.
        AddressCase(address: PostalAddress(street: "연희로 11길 24", postalCode: "03706", city: "서대문구",
                                           region: "서울특별시"),
                    lines: ["03706", "서울특별시 서대문구", "연희로 11길 24"]),
        AddressCase(address: PostalAddress(street: "中区山手町45", postalCode: "231-0862", city: "横浜市",
                                           region: "神奈川県"),
                    lines: ["〒231-0862", "神奈川県横浜市", "中区山手町45"]),
        AddressCase(address: PostalAddress(postalCode: "06159", region: "서울특별시", country: "KR"),
                    lines: ["06159", "서울특별시", "KR"]),
        // A Korean street in another country keeps that country's order.
        AddressCase(address: PostalAddress(street: "Koreastraße 1", postalCode: "10115", city: "Berlin",
                                           country: "Germany"),
                    lines: ["Koreastraße 1", "10115 Berlin", "Germany"]),
    ]

    @Test(arguments: addressCases)
    func addressLines(_ example: AddressCase) throws {
        let views = try #require(Self.views)
        let table = views.address(example.address)
        #expect(table["lines"] as? [String] == example.lines)
        #expect(table["street"] as? String == example.address.street)
    }

    /// Names whose first Character is one ASCII byte, or more than that: a mark, a joiner or
    /// CR LF after the first byte, other scripts, letters that uppercase to two.
    static let monogramNames = [
        "anna", "Zoë", "émile", "e\u{301}mile", "김철수", "1st", "", "a", "ß", "\r\nx", "\ra", "a\u{200D}b",
        "!x", "ǆemal", "z",
    ]

    @Test(arguments: monogramNames)
    func monogramIsTheFirstCharacterUppercased(_ name: String) {
        #expect(ViewBuilder.monogram(of: name) == name.first.map { String($0).uppercased() } ?? "")
    }

    /// Streets with every kind of newline, CR LF, empty lines and none at all.
    static let streets = [
        "Main St 1\n  Apt 2 \n\n", "a\r\nb", "a\u{85}b", "a\u{2028}b\u{2029}c", "\n\nx\n",
        "a\u{0B}b\u{0C}c\rd",
        "e\u{301}\nf", "\u{2027}\u{202A}", "no newline", "", " \n ", "东京\n", "\u{C2}\u{A0}x",
    ]

    @Test(arguments: streets)
    func streetsSplitIntoLinesAsCharactersDo(_ street: String) {
        let lines = street.split(whereSeparator: \.isNewline).map(String.init)
        let hasNewline = street.contains(where: \.isNewline)
        #expect(ViewBuilder.streetLines(street) == (hasNewline ? lines : nil))
    }

    /// Dates with and without a year, short years, the ends of the months, and fields out of the
    /// usual ranges (written the general way).
    static let dates: [PartialDate] = [
        PartialDate(year: 1990, month: 3, day: 5), PartialDate(year: nil, month: 12, day: 31),
        PartialDate(year: 2026, month: 10, day: 1), PartialDate(year: 7, month: 1, day: 9),
        PartialDate(year: 999, month: 11, day: 30), PartialDate(year: 0, month: 2, day: 29),
        PartialDate(year: 9999, month: 9, day: 10), PartialDate(year: 12_345, month: 1, day: 1),
        PartialDate(year: -44, month: 3, day: 15), PartialDate(year: nil, month: 100, day: 1),
        PartialDate(year: 2000, month: 1, day: -1),
    ]

    @Test(arguments: dates)
    func htmlDatesAreWrittenAsPartialDateWritesThem(_ date: PartialDate) {
        #expect(ViewBuilder.htmlDate(date) == date.htmlDateString)
    }

    struct PhoneticCase: CustomTestStringConvertible, Sendable {
        let family: String
        let given: String
        let phoneticFamily: String
        let phoneticGiven: String
        let shown: String
        var testDescription: String { "\(family) \(given): \(shown)" }
    }

    static let phoneticCases: [PhoneticCase] = [
        PhoneticCase(family: "Smith", given: "Ann", phoneticFamily: "", phoneticGiven: "", shown: ""),
        PhoneticCase(family: "Smith", given: "Ann", phoneticFamily: "Smyth", phoneticGiven: "",
                     shown: "Smyth"),
        PhoneticCase(family: "Smith", given: "Ann", phoneticFamily: "", phoneticGiven: "Anne", shown: "Anne"),
        PhoneticCase(family: "Smith", given: "Ann", phoneticFamily: "Smyth", phoneticGiven: "Anne",
                     shown: "Anne Smyth"),
        PhoneticCase(family: "佐藤", given: "花子", phoneticFamily: "さとう", phoneticGiven: "はなこ", shown: "さとうはなこ"),
        PhoneticCase(family: "佐藤", given: "花子", phoneticFamily: "", phoneticGiven: "はなこ", shown: "はなこ"),
    ]

    @Test(arguments: phoneticCases)
    func phoneticNamesAreJoinedAsTheNameIsWritten(_ example: PhoneticCase) throws {
        var contact = Contact(id: "c")
        contact.familyName = example.family
        contact.givenName = example.given
        contact.phoneticFamilyName = example.phoneticFamily
        contact.phoneticGivenName = example.phoneticGiven
        let views = ViewBuilder(directory: Directory(store: Store(contacts: [contact]), config: SiteConfig()),
                                today: SitePagesTests.today)
        let page = try #require(views.contactPage(0)["contact"] as? MustacheTable)
        #expect(page["phoneticName"] as? String == example.shown)
    }
}

