import Testing
@testable import RolodeckSearch
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckLocale

/// Which terms find a contact, and how well.
@Suite struct SearchTermsTests {
    /// Collects terms as text, keeping the best tier of each.
    struct Collector: SearchTermSink {
        var terms: [String: SearchTier] = [:]
        mutating func add(_ key: ArraySlice<UInt16>, _ tier: SearchTier) {
            let text = String(decoding: key, as: UTF16.self)
            terms[text] = min(terms[text] ?? tier, tier)
        }

        /// "key:tier" lines, sorted; tiers as n (name), o (other), i (inside).
        var lines: [String] {
            terms.map { "\($0.key):\(["n", "o", "i"][Int($0.value.rawValue)])" }.sorted()
        }
    }

    struct TextCase: CustomTestStringConvertible, Sendable {
        var text: String
        var tier: SearchTier
        var terms: [String]
        var testDescription: String { text }
    }

    static let textCases: [TextCase] = [
        TextCase(
            text: "Müller", tier: .name,
            terms: [
                "er:i", "ler:i", "ller:i", "mueller:n", "muller:n", "ueller:i", "uller:i",
            ]),
        TextCase(text: "Weiß", tier: .name, terms: ["eiss:i", "iss:i", "ss:i", "weiss:n"]),
        TextCase(
            text: "O'Brien", tier: .name,
            terms: [
                "brien:n", "en:i", "ien:i", "o:n", "obrien:n", "rien:i",
            ]),
        TextCase(
            text: "김철수", tier: .name,
            terms: [
                "ㄱㅊㅅ:n", "ㄱㅣㅁㅊㅓㄹㅅㅜ:n", "ㅅㅜ:i", "ㅊㅅ:i", "ㅊㅓㄹㅅㅜ:i",
            ]),
        TextCase(
            text: "a.b@ex.org", tier: .other,
            terms: [
                "a:o", "abexorg:o", "b:o", "bexorg:o", "ex:o", "exorg:o", "org:o", "rg:i",
            ]),
        TextCase(
            text: "Apt 12345", tier: .other,
            terms: [
                "12345:o", "2345:i", "345:i", "apt:o", "pt:i",
            ]),
        TextCase(text: "", tier: .name, terms: []),
    ]

    /// Plain ASCII text is folded by a path of its own; it must give the terms of its words.
    @Test(arguments: [
        "a.b@ex.org", "Jean-Luc  van\tDAMME", "  x ", "kimura.kenji2@kaisha.example", "--", "A1-b2.c3 d4.",
        "Dr. J. R. R. Tolkien-Smith", "",
    ])
    func asciiTextTermsAreThoseOfItsFoldedWords(_ text: String) {
        var ascii = Collector(), words = Collector()
        SearchTerms.add(text: text, tier: .other, to: &ascii)
        SearchTerms.add(words: SearchFolding.words(text), tier: .other, to: &words)
        #expect(ascii.lines == words.lines)
    }

    @Test(arguments: textCases)
    func textTerms(_ example: TextCase) {
        var collector = Collector()
        SearchTerms.add(text: example.text, tier: example.tier, to: &collector)
        #expect(collector.lines == example.terms)
    }

    struct PhoneCase: CustomTestStringConvertible, Sendable {
        var number: String
        var region: String?
        /// Terms found from the start (the `other` tier).
        var starts: [String]
        /// A few of the tails that find it from inside (a query finds every key it starts), and
        /// keys that must not be terms.
        var inside: [String]
        var notTerms: [String]
        var testDescription: String { number + " " + (region ?? "-") }
    }

    static let phoneCases: [PhoneCase] = [
        PhoneCase(
            number: "010-1234-5678", region: "KR",
            starts: ["00821012345678", "01012345678", "8201012345678", "821012345678"],
            inside: ["1012345678", "12345678", "5678", "678"], notTerms: ["78", "1234", "21012345678"]),
        PhoneCase(
            number: "+49 151 2345 6789", region: nil,
            starts: ["004915123456789", "015123456789", "4915123456789"],
            inside: ["15123456789", "23456789", "789"], notTerms: ["04915123456789"]),
        PhoneCase(
            number: "+1 (555) 010-0199", region: "DE",
            starts: ["0015550100199", "15550100199", "5550100199"],
            inside: ["550100199"], notTerms: ["05550100199"]),
        PhoneCase(
            number: "030 1234567", region: nil, starts: ["0301234567"], inside: ["301234567"], notTerms: []),
        PhoneCase(
            number: "+49 (0)30 1234567", region: nil,
            starts: ["0049301234567", "0301234567", "49301234567"], inside: ["1234567"],
            notTerms: ["490301234567"]),
        PhoneCase(
            number: "02-123-4567 ext. 89", region: nil, starts: ["021234567"], inside: ["4567"],
            notTerms: ["02123456789"]),
        PhoneCase(
            number: "+39 06 1234 5678", region: nil,
            starts: ["00390612345678", "0612345678", "390612345678"], inside: ["612345678"],
            notTerms: ["00612345678", "0390612345678"]),
        PhoneCase(
            number: "+351 21 123 4567", region: nil,
            starts: ["00351211234567", "0211234567", "351211234567"], inside: ["211234567", "11234567"],
            notTerms: ["0351211234567"]),
        PhoneCase(
            number: "0049 30 1234567", region: nil,
            starts: ["0049301234567", "0301234567", "49301234567"], inside: ["1234567"], notTerms: []),
        PhoneCase(
            number: "+7 495 123-45-67", region: nil,
            starts: ["0074951234567", "04951234567", "74951234567"], inside: ["4951234567"],
            notTerms: []),
        PhoneCase(number: "call me", region: nil, starts: [], inside: [], notTerms: []),
    ]

    @Test(arguments: phoneCases)
    func phoneTerms(_ example: PhoneCase) {
        var collector = Collector()
        SearchTerms.add(phone: example.number, region: example.region, to: &collector)
        #expect(collector.terms.filter { $0.value == .other }.keys.sorted() == example.starts)
        for run in example.inside {
            #expect(collector.terms[run] == .inside, "\(run)")
        }
        for absent in example.notTerms {
            #expect(collector.terms[absent] == nil, "\(absent)")
        }
        #expect(!collector.terms.keys.contains { $0.count < 3 && collector.terms[$0] == .inside })
    }

    /// Texts of plain ASCII, which skip making folded words: white space of every kind,
    /// punctuation runs, upper case, digits inside and at the end of parts.
    static let asciiTexts = [
        "", "Anna", "O'Brien-Smith Jr.", "kimura.kenji1@kaisha.example", "a.b@ex.org", "Apt 12345",
        "x1 22 333 4444a", "  --  ", "A-B-C\tD\nE\u{0B}F\u{0C}G\rH", "ABC123def", "12-34", "...a..b...",
        "user12.34ab@x-y.example", "9", "a1b2c3-d4e5f6 Z",
    ]

    @Test(arguments: asciiTexts)
    func asciiTextsHaveTheTermsOfTheirFoldedWords(_ text: String) {
        var direct = Collector(), folded = Collector()
        SearchTerms.add(text: text, tier: .other, to: &direct)
        SearchTerms.add(words: SearchFolding.words(text), tier: .other, to: &folded)
        #expect(direct.lines == folded.lines)
        #expect(!text.contains(where: \.isLetter) || !direct.lines.isEmpty)
    }

    @Test(arguments: [
        "", "Anna Berg", "AnnaBerg", "佐藤 花子", "佐藤花子", "José García", "e\u{301} x", " \u{301}",
        "a \u{301}b", "\u{600} x", "Ñ Ñ", "ab \u{200D}c", " ", "x ", "\u{7FF} \u{7FF}",
    ])
    func spacesAreFoundAsFoundationFindsThem(_ text: String) {
        #expect(SearchTerms.containsSpace(text) == text.contains(" "))
    }

    /// A phone number is found by each of its forms from the start and by every run of three
    /// digits or more of its forms with runs, however few of those the terms add again.
    @Test(
        arguments: phoneCases + [
            PhoneCase(number: "+82 10-1234-5678", region: nil, starts: [], inside: [], notTerms: []),
            PhoneCase(number: "+1 555 0100", region: "US", starts: [], inside: [], notTerms: []),
            PhoneCase(number: "0039 06 1234", region: "KR", starts: [], inside: [], notTerms: []),
        ])
    func phoneTermsAreEveryRunOfEveryForm(_ example: PhoneCase) {
        var collector = Collector()
        SearchTerms.add(phone: example.number, region: example.region, to: &collector)
        var expected: [String: SearchTier] = [:]
        for form in PhoneSearchDigits.forms(of: example.number, region: example.region) {
            let digits = form.digits
            expected[String(decoding: digits, as: UTF16.self)] = .other
            guard form.findsRuns else { continue }
            for start in digits.indices.dropFirst() where digits.count - start >= 3 {
                let run = String(decoding: digits[start...], as: UTF16.self)
                expected[run] = min(expected[run] ?? .inside, .inside)
            }
        }
        #expect(collector.terms == expected)
    }

    @Test func hiddenFieldsAreNeverIndexed() {
        var contact = Contact(id: "x")
        contact.givenName = "Ana"
        contact.suffix = "Jr."
        contact.sortFamilyName = "Sortonly"
        contact.organization = "Secretco"
        contact.nickname = "Nicky"
        contact.emails = [LabeledValue(label: "work", value: "ana@hidden.example")]
        contact.phones = [LabeledValue(label: "mobile", value: "+49 170 5550000")]
        let entry = Directory.Entry(
            contact: contact, slug: "x", displayName: "Ana",
            section: DirectorySection(label: "A", anchor: "a", rank: 0, script: .latin))
        var config = SiteConfig()
        var shown = Collector()
        SearchTerms.add(entry: entry, groupNames: ["Chess Club"], config: config, to: &shown)
        for term in ["ana", "jr", "secretco", "nicky", "hidden", "491705550000", "chess"] {
            #expect(shown.terms[term] != nil, "\(term) should be a term")
        }
        #expect(shown.terms["sortonly"] == nil, "sort-as names are never shown, so never searched")
        config.hiddenFields = [.organization, .nickname, .emails, .phones, .groups]
        var hidden = Collector()
        SearchTerms.add(entry: entry, groupNames: ["Chess Club"], config: config, to: &hidden)
        #expect(hidden.lines == ["ana:n", "jr:n", "na:i"])
    }

    @Test func tiersRankNamesBeforeOtherFieldsBeforeInside() {
        var collector = Collector()
        SearchTerms.add(text: "Berger", tier: .other, to: &collector)
        SearchTerms.add(text: "Erger", tier: .name, to: &collector)
        #expect(collector.terms["erger"] == .name)
        #expect(collector.terms["berger"] == .other)
        #expect(collector.terms["er"] == .inside)
        #expect(SearchTier.name < .other && SearchTier.other < .inside)
    }
}
