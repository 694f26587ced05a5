import Testing
@testable import RolodeckSite
@testable import RolodeckPlan
@testable import RolodeckCore

/// What a contact list row and its email link show.
@Suite struct ContactRowTests {
    struct EmailCase: CustomTestStringConvertible, Sendable {
        var value: String
        var address: String
        var href: String?
        var testDescription: String { value.debugDescription }
    }

    static let emailCases: [EmailCase] = [
        EmailCase(value: "ann@example.com", address: "ann@example.com", href: "mailto:ann@example.com"),
        EmailCase(value: "  ann@example.com\n", address: "ann@example.com", href: "mailto:ann@example.com"),
        EmailCase(value: "ann.example.com", address: "ann.example.com", href: nil),
        EmailCase(value: "ann@exa mple.com", address: "ann@exa mple.com", href: nil),
        EmailCase(value: "<ann@example.com>", address: "<ann@example.com>", href: nil),
        EmailCase(value: "ann<@example.com", address: "ann<@example.com", href: nil),
        EmailCase(value: "ann\u{1}@example.com", address: "ann\u{1}@example.com", href: nil),
        EmailCase(value: "jürgen@müller.de", address: "jürgen@müller.de", href: "mailto:jürgen@müller.de"),
        // Whitespace outside ASCII is found by its Character.
        EmailCase(value: "jürgen@müller\u{3000}de", address: "jürgen@müller\u{3000}de", href: nil),
        EmailCase(value: "ann@例え\u{A0}.jp", address: "ann@例え\u{A0}.jp", href: nil),
    ]

    static let views = ViewBuilder(directory: Directory(store: Store(), config: SiteConfig()),
                                   today: PartialDate(year: 2026, month: 1, day: 1))

    @Test(arguments: emailCases)
    func emailLinksOnlyWhatIsShapedLikeAnAddress(_ testCase: EmailCase) {
        let table = Self.views.email(LabeledValue(label: "home", value: testCase.value))
        #expect(table["address"] as? String == testCase.address)
        #expect(table["href"] as? String == testCase.href)
    }

    @Test func aRowLeavesOutHiddenFields() throws {
        var contact = Contact(id: "ann")
        contact.givenName = "Ann"
        contact.title = "Dr."
        contact.salutation = "Frau"
        contact.organization = "Acme"
        contact.phones = [LabeledValue(label: "work", value: "+49 30 1234567")]
        contact.emails = [LabeledValue(label: "work", value: "ann@example.com")]
        for hidden in [[], [SiteConfig.Field.phones, .title], [.emails, .salutation, .organization]] {
            var config = SiteConfig()
            config.hiddenFields = Set(hidden)
            let views = ViewBuilder(directory: Directory(store: Store(contacts: [contact]), config: config),
                                    today: PartialDate(year: 2026, month: 1, day: 1))
            let row = try #require(views.rows.first)
            #expect(row.path == "contacts/ann.html")
            #expect(row.title == (hidden.contains(.title) ? "" : "Dr."))
            #expect(row.salutation == (hidden.contains(.salutation) ? "" : "Frau"))
            #expect(row.organization == (hidden.contains(.organization) ? "" : "Acme"))
            #expect((row.phone == nil) == hidden.contains(.phones))
            #expect((row.email == nil) == hidden.contains(.emails))
        }
    }

    /// Parts empty, short (stored inline) and long, ASCII and not.
    static let joinedParts: [[String]] = [
        ["contacts/", "ann", ".html"], ["", "", ""], ["a", "", "b"], ["", "../contacts/kim-lee.html", ""],
        ["contacts/", "jürgen-müller-0123456789abcdef", ".html"], ["김", "철", "수"], ["👋", " ", "e\u{301}"],
    ]

    @Test(arguments: joinedParts)
    func joiningMakesWhatAddingMakes(_ parts: [String]) {
        let joined = String(joining: parts[0], parts[1], parts[2])
        #expect(joined == parts[0] + parts[1] + parts[2])
        #expect(Array(joined.utf8) == Array((parts[0] + parts[1] + parts[2]).utf8))
    }
}

