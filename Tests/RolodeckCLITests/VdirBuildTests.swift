import Foundation
import Testing

/// The cron job the vCard support is for, run with the built binary: a store that is only a
/// phone's export and a synced task list builds and warns about what it skipped, also with
/// `--quiet` (which leaves out only the summary); a UID that clashes with a JSON id fails the
/// build and writes nothing.
@Suite struct VdirBuildTests {
    static let export = [
        "BEGIN:VCARD", "VERSION:2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen;;;",
        "TEL;CELL:+49 151 1234567", "BDAY:1970-02-30", "CATEGORIES:Familie", "END:VCARD",
        "BEGIN:VCARD", "VERSION:3.0", "UID:anna", "FN:Anna Berg", "EMAIL;TYPE=INTERNET:anna@example.com",
        "CATEGORIES:familie", "END:VCARD",
    ].joined(separator: "\r\n") + "\r\n"

    static let todo = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:call-anna", "SUMMARY:Anna anrufen",
        "DUE;VALUE=DATE:20261201", "END:VTODO", "END:VCALENDAR",
    ].joined(separator: "\r\n") + "\r\n"

    static func makeSite(json: String? = nil) throws -> URL {
        let site = try CLI.temporaryFolder().appendingPathComponent("site")
        let tasks = site.appendingPathComponent("store/tasks")
        try FileManager.default.createDirectory(at: tasks, withIntermediateDirectories: true)
        try Data(export.utf8).write(to: site.appendingPathComponent("store/phone-export.vcf"))
        try Data(todo.utf8).write(to: tasks.appendingPathComponent("call-anna.ics"))
        try Data("Aufgaben\n".utf8).write(to: tasks.appendingPathComponent("displayname"))
        if let json { try Data(json.utf8).write(to: site.appendingPathComponent("store/contacts.json")) }
        return site
    }

    @Test func aPhoneExportAndATaskListBuildWithTheirWarnings() throws {
        let site = try Self.makeSite()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        let build = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        let warning = "\(site.path)/store/phone-export.vcf:5:6: warning: BDAY \"1970-02-30\" is not a date: "
            + "February 1970 has 28 days; the birthday is left out\n"
        #expect(build.stderr == warning)
        #expect(build.stdout.hasPrefix("Built 2 contacts, 1 group, 1 todo into \(out.path): "))
        for page in ["index.html", "todos.html", "contacts/anna.html", "contacts/juergen-mueller.html", "groups/familie.html"] {
            #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent(page).path), "\(page)")
        }
        let todos = try String(contentsOf: out.appendingPathComponent("todos.html"), encoding: .utf8)
        #expect(todos.contains("Anna anrufen"))

        try FileManager.default.removeItem(at: out)
        let quiet = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty)
        #expect(quiet.stderr == warning)
        // Up to date, the store is not even read: the warning was news once, and is not mailed again.
        let again = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(again.status == 0)
        #expect(again.stdout.isEmpty && again.stderr.isEmpty)
    }

    @Test func aUIDThatIsAJSONIdFailsTheBuild() throws {
        let site = try Self.makeSite(json: #"[{"id": "anna", "givenName": "Anna"}]"#)
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 1)
        #expect(build.stderr.contains("\(site.path)/store/phone-export.vcf:10:5: error: duplicate contact id \"anna\"; "
                                      + "it is already used at \(site.path)/store/contacts.json:1:9"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }
}
