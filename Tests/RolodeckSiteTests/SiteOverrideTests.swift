import Testing
@testable import RolodeckStore
@testable import RolodeckCore
@testable import RolodeckSite

/// A site's own templates and static files replace the built-in ones; config switches reach
/// the pages.
@Suite struct SiteOverrideTests {
    static let store = [
        StoreFile(kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", text: """
            [{"id": "ann", "givenName": "Ann", "familyName": "Lee", "birthday": "1990-05-01",
              "notes": "Hi <b>there</b> [x](javascript:alert(1))"}]
            """)),
    ]

    static func render(_ input: SiteInput) throws -> [String: String] {
        try Site.load(input).renderFiles(today: PartialDate(year: 2026, month: 1, day: 1))
            .mapValues { String(decoding: $0, as: UTF8.self) }
    }

    @Test func siteTemplatesAndAssetsReplaceTheBuiltInOnes() throws {
        let input = SiteInput(
            storeFiles: Self.store,
            templates: [
                "contact.mustache": SourceText(path: "Templates/contact.mustache",
                                               text: "{{<layout}}{{$main}}<p class=\"mine\">{{contact.name}}</p>{{/main}}{{/layout}}"),
                "extra.mustache": SourceText(path: "Templates/extra.mustache", text: "unused partial"),
            ],
            assets: ["style.css": Array("body { color: red }".utf8), "logo.svg": Array("<svg/>".utf8)])
        let files = try Self.render(input)
        #expect(files["contacts/ann.html"]?.contains("<p class=\"mine\">Ann Lee</p>") == true)
        #expect(files["contacts/ann.html"]?.contains("<!DOCTYPE html>") == true)  // still the built-in layout
        #expect(files["style.css"] == "body { color: red }")
        #expect(files["logo.svg"] == "<svg/>")
        #expect(files["index.html"]?.contains("Ann Lee") == true)
    }

    @Test func templateMistakesNameTheSiteFile() {
        let input = SiteInput(storeFiles: Self.store, templates: [
            "index.mustache": SourceText(path: "mysite/Templates/index.mustache", text: "line one\n  {{/items}}"),
        ])
        #expect {
            _ = try Site.load(input)
        } throws: { error in
            (error as? DiagnosticError)?.description
                == "mysite/Templates/index.mustache:2:3: error: closing tag {{/items}} has no open section to close"
        }
    }

    @Test func configSwitchesReachThePages() throws {
        var config = SiteConfig()
        let defaults = try Self.render(SiteInput(config: config, storeFiles: Self.store))
        #expect(defaults["index.html"]?.contains(#"<meta name="robots" content="noindex">"#) == true)
        #expect(defaults["contacts/ann.html"]?.contains("<b>there</b>") == false)
        #expect(defaults["contacts/ann.html"]?.contains("1990") == true)

        config.noindex = false
        config.unsafeHTML = true
        config.hiddenFields = [.birthday]
        config.title = "Club & Co"
        let changed = try Self.render(SiteInput(config: config, storeFiles: Self.store))
        #expect(changed["index.html"]?.contains("noindex") == false)
        #expect(changed["index.html"]?.contains("<title>Club &amp; Co</title>") == true)
        #expect(changed["contacts/ann.html"]?.contains("Hi <b>there</b>") == true)
        #expect(changed["contacts/ann.html"]?.contains("1990") == false)

        config.hiddenContacts = ["ann"]
        let hidden = try Self.render(SiteInput(config: config, storeFiles: Self.store))
        #expect(hidden["contacts/ann.html"] == nil)
        #expect(hidden["index.html"]?.contains("Ann") == false)
    }

    /// A hidden contact that is not in the store is a warning, named once the store is read,
    /// at the place the config names it.
    @Test func hiddenContactsNotInTheStoreAreReported() throws {
        var config = SiteConfig()
        #expect(try Site.load(SiteInput(config: config, storeFiles: Self.store)).warnings.isEmpty)
        config.hiddenContacts = ["nobody", "ann", "gone"]
        config.hiddenContactLocations["gone"] = SourceLocation(path: "rolodeck.json", line: 4, column: 30)
        let site = try Site.load(SiteInput(config: config, storeFiles: Self.store))
        #expect(site.warnings.map(\.description) == [
            "rolodeck.json:4:30: warning: hiddenContacts names \"gone\", which is not in the store",
            "warning: hiddenContacts names \"nobody\", which is not in the store",
        ])
    }

    /// A hidden id one typo from a contact that would be published fails the build: the typo
    /// must not publish the contact it was meant to hide. Not when that contact is hidden too.
    @Test func aHiddenContactOneTypoFromAShownOneIsAnError() throws {
        var config = SiteConfig()
        config.hiddenContacts = ["anm"]
        config.hiddenContactLocations["anm"] = SourceLocation(path: "rolodeck.json", line: 2, column: 22)
        #expect {
            try Site.load(SiteInput(config: config, storeFiles: Self.store))
        } throws: { error in
            (error as? DiagnosticError)?.diagnostics.map(\.description) == [
                "rolodeck.json:2:22: error: hiddenContacts names \"anm\", which is not in the store; "
                    + "did you mean \"ann\"? (that contact would be published)",
            ]
        }
        config.hiddenContacts = ["anm", "ann"]
        let site = try Site.load(SiteInput(config: config, storeFiles: Self.store))
        #expect(site.warnings.map(\.description) == [
            "rolodeck.json:2:22: warning: hiddenContacts names \"anm\", which is not in the store",
        ])
    }
}
