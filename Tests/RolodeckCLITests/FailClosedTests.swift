import Foundation
import Testing

/// A cron build, run with the built binary, fails closed: a misspelt setting in `rolodeck.json`
/// stops the build even under `--quiet`, so what it was meant to hide is never published; and
/// `--quiet` silences only the line a good build ends with, never a warning.
@Suite struct FailClosedTests {
    /// The demo site with `config` as its `rolodeck.json`, and the output folder beside it.
    static func demo(config: String, name: String = #function) throws -> (site: URL, out: URL) {
        let site = try CLI.copyOfDemo(name)
        try Data(config.utf8).write(to: site.appendingPathComponent("rolodeck.json"))
        return (site, site.deletingLastPathComponent().appendingPathComponent("out"))
    }

    @Test func aMisspeltSettingFailsAQuietBuildAndPublishesNothing() throws {
        let (site, out) = try Self.demo(
            config: #"{"hiddenField": ["phones"], "hiddenContact": ["juergen-mueller"]}"#)
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 1)
        #expect(build.stdout.isEmpty)
        #expect(
            build.stderr == """
                \(site.path)/rolodeck.json:1:2: error: unknown setting "hiddenField"; did you mean "hiddenFields"?
                \(site.path)/rolodeck.json:1:29: error: unknown setting "hiddenContact"; did you mean "hiddenContacts"?
                error: build failed with 2 errors; nothing was written

                """)
        #expect(!FileManager.default.fileExists(atPath: out.path))

        let check = try CLI.run(["check", "--quiet", "--site", site.path])
        #expect(check.status == 1)
        #expect(check.stderr.hasSuffix("error: check found 2 errors\n"))
    }

    @Test func aSettingFarFromAnyIsListedWithTheSettings() throws {
        let (site, out) = try Self.demo(config: "{\n  \"secret\": true\n}\n")
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 1)
        #expect(
            build.stderr.hasPrefix(
                "\(site.path)/rolodeck.json:2:3: error: unknown setting \"secret\"; the settings are title, locale, "
            ))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func warningsReachStandardErrorUnderQuiet() throws {
        let (site, out) = try Self.demo(config: #"{"hiddenFields": ["phones"]}"#)
        let contacts = site.appendingPathComponent("store/contacts.json")
        let text = try String(contentsOf: contacts, encoding: .utf8)
        try text.replacingOccurrences(of: "\"givenName\": \"Jürgen\"", with: "\"giveName\": \"Jürgen\"")
            .write(to: contacts, atomically: true, encoding: .utf8)
        let warning =
            "\(site.path)/store/contacts.json:5:5: warning: unknown field \"giveName\" of a contact; "
            + "did you mean \"givenName\"?\n"

        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 0)
        #expect(build.stdout.isEmpty)
        #expect(build.stderr == warning)
        let page = try String(
            contentsOf: out.appendingPathComponent("contacts/juergen-mueller.html"), encoding: .utf8)
        #expect(!page.contains("2345 6789"))

        let check = try CLI.run(["check", "--quiet", "--site", site.path])
        #expect(check.status == 0)
        #expect(check.stdout.isEmpty)
        #expect(check.stderr == warning)
    }
}
