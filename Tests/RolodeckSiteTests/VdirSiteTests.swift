import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckSite

/// End to end: a store as vdirsyncer leaves it — two address books (one named by its
/// `displayname`, one by its folder) and a task list — with Apple group cards, a vCard 4 group
/// card and CATEGORIES, read from disk and built into pages that are compared with golden files.
@Suite struct VdirSiteTests {
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    static func card(_ lines: String...) -> String {
        (["BEGIN:VCARD"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    static func todo(_ lines: String...) -> String {
        (["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Apple Inc.//iOS 17.0//EN", "BEGIN:VTODO"] + lines
            + ["END:VTODO", "END:VCALENDAR"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The site folder's files, by path.
    static let files: [String: String] = [
        "rolodeck.json": #"{"title": "Morgenrot", "timeZone": "Asia/Seoul"}"#,
        "store/3F2504E0-work/displayname": "Work\n",
        "store/3F2504E0-work/color": "#ff8800\n",
        "store/3F2504E0-work/ann.vcf": card(
            "VERSION:3.0", "PRODID:-//Apple Inc.//iPhone OS 17.0//EN", "N:Lee;Ann;;;", "FN:Ann Lee",
            "ORG:Morgenrot Labs;Research", "TITLE:Engineer", "item1.TEL;type=CELL;type=VOICE;type=pref:+49 151 1234567",
            "item2.EMAIL;type=INTERNET;type=WORK:ann@morgenrot.example", "item3.URL:https\\://ann.example",
            "item3.X-ABLabel:_$!<HomePage>!$_", "BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-22",
            "NOTE:Leads the **tennis** ladder.", "CATEGORIES:Tennis", "UID:ann-0001"),
        "store/3F2504E0-work/bo.vcf": card(
            "VERSION:4.0", "UID:urn:uuid:bo-0002", "FN:Bo Kim", "N;SORT-AS=\"Kim,Bo\":Kim;Bo;;;",
            "TEL;VALUE=uri;TYPE=\"work,voice\":tel:+82-2-123-4567", "BDAY:19800229",
            "ADR;TYPE=work:;Suite 5;Teheran-ro 1;Seoul;;06164;Korea"),
        "store/3F2504E0-work/team.vcf": card(
            "VERSION:3.0", "PRODID:-//Apple Inc.//AddressBook 6.1//EN", "N:Team", "FN:Team",
            "X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ann-0001",
            "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:bo-0002", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:left-the-company",
            "UID:team-0003"),
        "store/3F2504E0-work/half-written.vcf.tmp": "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Half",
        "store/family/cy.vcf": card(
            "VERSION:2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:Park;Cy=C3=A9;;;", "TEL;HOME:030 1234",
            "CATEGORIES:Family,tennis", "UID:cy-0004"),
        "store/family/ann-copy.vcf": card("VERSION:3.0", "N:Lee;Ann;;;", "TEL:+49 151 1234567", "UID:ann-0001"),
        "store/family/family.vcf": card(
            "VERSION:4.0", "KIND:group", "FN:Family", "MEMBER:urn:uuid:bo-0002", "UID:family-0005"),
        "store/tasks/displayname": "Tasks",
        "store/tasks/offsite.ics": todo(
            "UID:offsite", "SUMMARY:Plan the team offsite", "X-APPLE-SORT-ORDER:2", "CATEGORIES:Work,Travel",
            "DUE;TZID=Europe/Berlin:20261201T090000", #"DESCRIPTION:Ask **Bo** about Seoul.\n\n- dates\n- budget"#),
        "store/tasks/venue.ics": todo(
            "UID:venue", "SUMMARY:Book the venue", "X-APPLE-SORT-ORDER:3", "PRIORITY:1", "RELATED-TO:offsite",
            "DUE;VALUE=DATE:20261115"),
        "store/tasks/balls.ics": todo(
            "UID:balls", "SUMMARY:Buy tennis balls", "X-APPLE-SORT-ORDER:1", "STATUS:COMPLETED",
            "COMPLETED:20261101T100000Z", "PRIORITY:9"),
        "store/tasks/sync.ics.tmp": "BEGIN:VCALENDAR\r\n",
    ]

    static func buildSite() throws -> (files: [String: [UInt8]], warnings: [String], store: Store) {
        let folder = try Fixtures.temporaryFolder()
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let (input, readWarnings) = try SiteReader(folder: folder, displayPath: "site").read()
        let site = try Site.load(input, earlier: readWarnings)
        let output = try site.renderFiles(today: today)
        return (output, site.warnings.map(\.description), site.store)
    }

    @Test func theVdirLoadsWithTheWarningsItDeserves() throws {
        let (_, warnings, store) = try Self.buildSite()
        #expect(warnings == [
            "site/store/3F2504E0-work/team.vcf:9:28: warning: group \"Team\" lists member "
                + "\"urn:uuid:left-the-company\", which is not in the store; it is ignored",
            "site/store/family/ann-copy.vcf:5:5: warning: the card at site/store/3F2504E0-work/ann.vcf:1:1 has the "
                + "same UID \"ann-0001\"; this card is skipped",
        ])
        #expect(store.contacts.map(\.id).sorted() == ["ann-0001", "bo-0002", "cy-0004"])
        #expect(Set(store.groups.map(\.name)) == ["Team", "Family", "Tennis"])
        // Todos by the user's order, the list named by its displayname; the venue under the offsite.
        #expect(store.todos.map(\.id) == ["balls", "offsite", "venue"])
        #expect(store.todos.map(\.list) == ["Tasks", "Tasks", "Tasks"])
    }

    static let goldenPages = [
        "index.html", "groups.html", "todos.html", "groups/team-0003.html", "groups/family-0005.html",
        "contacts/ann-0001.html", "contacts/bo-0002.html", "contacts/cy-0004.html",
    ]

    @Test func theVdirBuildsIntoTheExpectedPages() throws {
        let (files, _, _) = try Self.buildSite()
        for page in Self.goldenPages {
            let bytes = try #require(files[page], "the vdir site has no \(page)")
            try Snapshot.assertMatches(String(decoding: bytes, as: UTF8.self), named: "vdir/" + page)
        }
        let pages = files.keys.filter { $0.hasSuffix(".html") }.sorted()
        #expect(pages == ["404.html", "birthdays.html", "contacts/ann-0001.html", "contacts/bo-0002.html", "contacts/cy-0004.html",
                          "groups.html", "groups/family-0005.html", "groups/team-0003.html", "groups/tennis.html",
                          "index.html", "todos.html"])
    }
}
