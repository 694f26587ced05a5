import Foundation
import Testing

/// A store seeded from the address and groups apps Rolodeck grew from builds as it is, with
/// the built binary: an age given without a birth year is shown where the age is; salutations
/// kept as records of their own are named by id; a group deleted while contacts name it is a
/// warning, not a failed build.
@Suite struct StoreSeedTests {
    static func site(_ files: [String: String], name: String = #function) throws -> (site: URL, out: URL) {
        try CLI.site(files, name: name)
    }

    static func page(_ out: URL, _ path: String) throws -> String {
        try String(contentsOf: out.appendingPathComponent(path), encoding: .utf8)
    }

    static let ages = """
        [{"id": "ada", "givenName": "Ada", "familyName": "Byron", "age": 36},
         {"id": "bo", "givenName": "Bo", "familyName": "Berg", "birthday": "--03-05", "age": 0},
         {"id": "cy", "givenName": "Cy", "familyName": "Cole", "birthday": "1990-05-01",
          "age": 12}]
        """

    @Test func aGivenAgeIsShownWhereTheAgeIsShown() throws {
        let (site, out) = try Self.site(["store/contacts.json": Self.ages])
        // SOURCE_DATE_EPOCH is 2026-11-18: Cy, born 1990-05-01, is 36.
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        #expect(
            build.stderr == "\(site.path)/store/contacts.json:4:10: warning: contact \"cy\" has a birthday "
                + "with a year, which gives the age; \"age\" is ignored\n")
        let ada = try Self.page(out, "contacts/ada.html")
        #expect(ada.contains(#"<h2 id="heading-age">Age</h2>"#))
        #expect(ada.contains(#"<p><span class="age">36</span></p>"#))
        #expect(!ada.contains("heading-birthday"))
        let bo = try Self.page(out, "contacts/bo.html")
        #expect(bo.contains(#"<time datetime="03-05">March 5</time> <span class="age">(Age 0)</span>"#))
        #expect(!bo.contains("heading-age"))
        let cy = try Self.page(out, "contacts/cy.html")
        #expect(cy.contains(#"<span class="age">(Age 36)</span>"#))
        // The QR code's image is base64 of its own; the given age is nowhere else.
        let cyText = cy.replacingOccurrences(of: #"<img class="qr-code"[^>]*>"#, with: "", options: .regularExpression)
        #expect(cyText.count < cy.count)
        #expect(!cyText.contains("12"))
    }

    @Test func aHiddenAgeIsNotShownGivenOrComputed() throws {
        let (site, out) = try Self.site([
            "store/contacts.json": Self.ages, "rolodeck.json": #"{"hiddenFields": ["age"]}"#,
        ])
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        for id in ["ada", "bo", "cy"] {
            let page = try Self.page(out, "contacts/\(id).html")
            #expect(!page.contains(#"class="age""#), "\(id)")
            #expect(!page.contains("heading-age"), "\(id)")
        }
    }

    static let salutationStore = [
        "store/salutations.json": #"[{"id": "herr", "text": "Herr"}, {"id": "frau", "text": "Frau"}]"#,
        "store/contacts.json": """
        [{"id": "jm", "givenName": "Jürgen", "familyName": "Müller", "salutation": {"id": "herr"}},
         {"id": "sw", "givenName": "Sabine", "familyName": "Weiß", "salutation": "Dr."}]
        """,
    ]

    @Test func contactsNameSalutationRecordsById() throws {
        let (site, out) = try Self.site(Self.salutationStore)
        let build = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        #expect(build.stderr.isEmpty, "\(build.stderr)")
        #expect(build.stdout.hasPrefix("Built 2 contacts, 0 groups, 0 todos into "))
        #expect(try Self.page(out, "contacts/jm.html").contains(#"<span class="salutation">Herr</span>"#))
        #expect(try Self.page(out, "contacts/sw.html").contains(#"<span class="salutation">Dr.</span>"#))
    }

    @Test func anUnknownSalutationFailsTheBuildWithASuggestion() throws {
        var files = Self.salutationStore
        files["store/contacts.json"] = #"[{"id": "jm", "givenName": "Jürgen", "salutation": {"id": "her"}}]"#
        let (site, out) = try Self.site(files)
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 1)
        #expect(
            build.stderr == """
                \(site.path)/store/contacts.json:1:59: error: contact "jm" names salutation "her", which does not exist; did you mean "herr"?
                error: build failed with 1 error; nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func aContactInADeletedGroupBuildsWithAWarning() throws {
        let (site, out) = try Self.site([
            "store/groups.json": #"[{"id": "family", "name": "Family"}]"#,
            "store/contacts.json": """
            [{"id": "ann", "givenName": "Ann", "groups": ["family", "chess"]},
             {"id": "bo", "givenName": "Bo", "groups": ["famly"]}]
            """,
        ])
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        #expect(
            build.stderr == """
                \(site.path)/store/contacts.json:1:57: warning: contact "ann" is left out of group "chess", which does not exist
                \(site.path)/store/contacts.json:2:45: warning: contact "bo" is left out of group "famly", which does not exist; did you mean "family"?

                """)
        let family = try Self.page(out, "groups/family.html")
        #expect(family.contains("Ann") && !family.contains("Bo"))
        #expect(try Self.page(out, "contacts/bo.html").contains("heading-groups") == false)
    }
}
