import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A build that dies part-way (killed, or out of disk space) must leave the published site
/// exactly as it was.
@Suite(.serialized) struct InterruptionTests {
    /// A site with a store big enough that rendering takes a noticeable moment.
    static func largeSite(contacts count: Int) throws -> URL {
        let site = try CLI.temporaryFolder().appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("store"), withIntermediateDirectories: true)
        var records: [String] = []
        for index in 0..<count {
            records.append("""
                {"id": "person-\(index)", "givenName": "Given\(index)", "familyName": "Family\(index % 977)",
                 "phones": [{"label": "mobile", "value": "010\(String(format: "%08d", index))"}],
                 "notes": "Note **\(index)** with a [link](https://example.com/\(index))."}
                """)
        }
        try Data(("[\n" + records.joined(separator: ",\n") + "\n]\n").utf8)
            .write(to: site.appendingPathComponent("store/contacts.json"))
        return site
    }

    @Test func aBuildKilledMidwayLeavesTheOldOutputExactly() throws {
        let site = try Self.largeSite(contacts: 8000)
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        // The published site: the demo.
        #expect(try CLI.run(["build", "-q", "--site", CLI.packageRoot.appendingPathComponent("Examples/demo").path,
                             "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)

        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["build", "-q", "--site", site.path, "--out", out.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill it once it is visibly writing pages into its staging folder.
        let staging = site.deletingLastPathComponent().appendingPathComponent(".out.rolodeck-staging-\(process.processIdentifier)/contacts")
        let deadline = Date().addingTimeInterval(60)
        var staged = 0
        while process.isRunning, Date() < deadline {
            staged = (try? FileManager.default.contentsOfDirectory(atPath: staging.path).count) ?? 0
            if staged > 200 { break }
            usleep(2_000)
        }
        try #require(process.isRunning, "the build finished before it could be interrupted")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(staged > 200)

        let after = try CLI.snapshot(out)
        #expect(after.mapValues(\.bytes) == before.mapValues(\.bytes))
        #expect(after.mapValues(\.modified) == before.mapValues(\.modified))

        // The next build cleans up what the killed one left and publishes normally.
        let next = try CLI.run(["build", "-q", "--site", site.path, "--out", out.path])
        #expect(next.status == 0)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.deletingLastPathComponent().path)
            .filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("contacts/person-7999.html").path))
    }

    @Test func aFullDiskLeavesTheOldOutputExactly() throws {
        let site = try Self.largeSite(contacts: 400)
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", CLI.packageRoot.appendingPathComponent("Examples/demo").path,
                             "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)
        // A file-size limit makes write() fail with EFBIG part-way, as a full disk fails with
        // ENOSPC; ignoring SIGXFSZ turns the signal into that error.
        let result = try CLI.run(["build", "--site", site.path, "--out", out.path],
                                 shellPrefix: "ulimit -f 1; trap '' XFSZ")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write \(out.path)/"))
        #expect(result.stderr.contains("File too large"))
        #expect(try CLI.snapshot(out).mapValues(\.bytes) == before.mapValues(\.bytes))
    }
}
