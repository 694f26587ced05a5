import Foundation
import Testing

/// The line a good build or check ends with says what was published, in English: one of a
/// thing is singular, and hidden contacts are counted apart from those the site shows.
@Suite struct SummaryLineTests {
    @Test func oneOfAThingIsSingular() throws {
        let files = [
            "store/contacts.json": #"[{"id": "ann", "givenName": "Ann", "groups": ["chess"]}]"#,
            "store/groups.json": #"[{"id": "chess", "name": "Chess"}]"#,
            "store/todos.json": #"[{"id": "call", "title": "Call Ann", "contact": "ann"}]"#,
        ]
        let (site, out) = try CLI.site(files)
        let build = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        #expect(
            build.stdout.hasPrefix("Built 1 contact, 1 group, 1 todo into \(out.path): "), "\(build.stdout)")
        let check = try CLI.run(["check", "--site", site.path])
        #expect(check.stdout == "OK: 1 contact, 1 group, 1 todo, 15 templates\n")
    }

    @Test func hiddenContactsAreCountedApart() throws {
        let site = try CLI.copyOfDemo()
        let config = site.appendingPathComponent("rolodeck.json")
        let text = try String(contentsOf: config, encoding: .utf8)
        try text.replacingOccurrences(
            of: #""store": "store""#, with: #""store": "store", "hiddenContacts": ["juergen-mueller"]"#
        )
        .write(to: config, atomically: true, encoding: .utf8)
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        let build = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        #expect(build.stderr.isEmpty, "\(build.stderr)")
        #expect(
            build.stdout.hasPrefix("Built 79 contacts (1 hidden), 10 groups, 18 todos into \(out.path): "))
        #expect(
            !FileManager.default.fileExists(
                atPath: out.appendingPathComponent("contacts/juergen-mueller.html").path))
        let check = try CLI.run(["check", "--site", site.path])
        #expect(check.stdout == "OK: 79 contacts (1 hidden), 10 groups, 18 todos, 15 templates\n")
    }

    /// Contacts and todos their app marks private are left out and counted apart.
    @Test func privateRecordsAreCountedApart() throws {
        func card(_ id: String, _ extra: String) -> String {
            "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:\(id)\r\nFN:\(id)\r\n\(extra)END:VCARD\r\n"
        }
        let task = "BEGIN:VTODO\r\nUID:%@\r\nSUMMARY:%@\r\n%@END:VTODO\r\n"
        let files = [
            "store/book/ann.vcf": card("Ann", "CLASS:PUBLIC\r\nCATEGORIES:Open group,Hush\r\n"),
            "store/book/hush.vcf": card("Hush", "X-ADDRESSBOOKSERVER-KIND:group\r\nCLASS:PRIVATE\r\n"),
            "store/groups.json": #"[{"id": "quiet", "name": "Quiet", "private": true}]"#,
            "store/book/bob.vcf": card("Bob", "CLASS:PRIVATE\r\n"),
            "store/book/cat.vcf": card("Cat", "CLASS:CONFIDENTIAL\r\n"),
            "store/book/dee.vcf": card("Dee", "CLASS:PRIVATE\r\n"),
            "store/tasks/todos.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
                + String(format: task, "a", "Open", "")
                + String(format: task, "b", "Secret", "CLASS:PRIVATE\r\n") + "END:VCALENDAR\r\n",
            "rolodeck.json": #"{"hiddenContacts": ["Dee"]}"#,
        ]
        let (site, out) = try CLI.site(files)
        let build = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(build.status == 0 && build.stderr.isEmpty, "\(build.stderr)")
        let records = "1 contact (1 hidden, 2 private), 1 group (2 private), 1 todo (1 private)"
        #expect(build.stdout.hasPrefix("Built \(records) into \(out.path): "), "\(build.stdout)")
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("contacts/ann.html").path))
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("contacts/bob.html").path))
        let check = try CLI.run(["check", "--site", site.path])
        #expect(check.stdout == "OK: \(records), 15 templates\n", "\(check.stdout)")
    }
}
