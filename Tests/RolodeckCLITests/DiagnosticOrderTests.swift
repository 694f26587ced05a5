import Foundation
import Testing

/// A store file that does not parse is reported by its syntax error, before anything else, and
/// by nothing made up: no contact is "in a group that does not exist" because `groups.json`
/// could not be read. Run with the built binary, as `build` and `watch` print it.
@Suite struct DiagnosticOrderTests {
    /// Gives a contact of the demo an impossible birthday; returns the error, as printed.
    static func breakBirthday(_ site: URL) throws -> String {
        let contacts = site.appendingPathComponent("store/contacts.json")
        let list = try String(contentsOf: contacts, encoding: .utf8)
        #expect(list.contains(#""birthday": "1992-08-17""#))
        try list.replacingOccurrences(of: #""birthday": "1992-08-17""#, with: #""birthday": "1992-02-30""#)
            .write(to: contacts, atomically: true, encoding: .utf8)
        let line =
            try #require(list.components(separatedBy: "\n").firstIndex { $0.contains("1992-08-17") }) + 1
        return "\(site.path)/store/contacts.json:\(line):17: error: birthday \"1992-02-30\" is not a date: "
            + "February 1992 has 29 days"
    }

    /// Breaks the demo's `groups.json`: the "friends" group's name has no value, and contacts
    /// later in `contacts.json` name the group. Returns the syntax error, as printed.
    static func breakGroups(_ site: URL) throws -> String {
        let groups = site.appendingPathComponent("store/groups.json")
        let text = try String(contentsOf: groups, encoding: .utf8)
        #expect(text.contains(#""name": "Friends""#))
        try text.replacingOccurrences(of: #""name": "Friends""#, with: #""name": "#)
            .write(to: groups, atomically: true, encoding: .utf8)
        return "\(site.path)/store/groups.json:10:3: error: unexpected '}'; expected a value"
    }

    @Test func aBuildReportsTheSyntaxErrorFirstAndNothingMadeUp() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        let birthday = try Self.breakBirthday(site)
        let syntax = try Self.breakGroups(site)
        let build = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(build.status == 1)
        #expect(
            build.stderr.split(separator: "\n").map(String.init) == [
                syntax, birthday, "error: build failed with 2 errors; nothing was written",
            ])
    }

    @Test func aRebuildInWatchReportsTheSyntaxErrorFirstAndNothingMadeUp() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        let watch = try RunningCommand(["watch", "--site", site.path, "--out", out.path])
        // Stopped here, as the other watch tests do: without it, a `rolodeck watch` from this
        // test was still running after every run of the suite.
        defer { watch.stop() }
        #expect(
            watch.waitForLine { $0.hasPrefix("Watching ") } != nil, "watch did not start: \(watch.stderr)")
        let birthday = try Self.breakBirthday(site)
        #expect(
            watch.waitForLine(onError: true) { $0.contains("failed with 1 error;") } != nil, "\(watch.stderr)"
        )
        let skipped = watch.stderr.count
        let syntax = try Self.breakGroups(site)
        let closing = watch.waitForLine(onError: true, skipping: skipped) {
            $0.hasPrefix("error: rebuild after ")
        }
        #expect(closing?.contains("groups.json changed failed with 2 errors;") == true, "\(watch.stderr)")
        #expect(Array(watch.stderr.dropFirst(skipped).prefix(3)) == [syntax, birthday, closing])
    }
}
