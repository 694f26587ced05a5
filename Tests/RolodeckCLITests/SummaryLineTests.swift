import Foundation
import Testing

/// The line a good build or check ends with says what was published, in English: one of a
/// thing is singular, and hidden contacts are counted apart from those the site shows.
@Suite struct SummaryLineTests {
    @Test func oneOfAThingIsSingular() throws {
        let site = try CLI.temporaryFolder().appendingPathComponent("site")
        let files = [
            "store/contacts.json": #"[{"id": "ann", "givenName": "Ann", "groups": ["chess"]}]"#,
            "store/groups.json": #"[{"id": "chess", "name": "Chess"}]"#,
            "store/todos.json": #"[{"id": "call", "title": "Call Ann", "contact": "ann"}]"#,
        ]
        for (path, text) in files {
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
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
}
