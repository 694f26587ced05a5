import Foundation
import RolodeckTestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A build that dies part-way (killed, or out of disk space) must leave the published site
/// exactly as it was; one stopped by SIGINT, SIGTERM or SIGHUP also removes what it wrote, says
/// what became of the output, and exits with 130, 143 or 129.
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
        let staged = Self.waitUntilStaging(process, beside: out)
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

    /// Waits until the build `process` has more than 200 files in its staging folder's
    /// `contacts` beside `out`, or has ended, or a minute has passed; returns how many it had.
    static func waitUntilStaging(_ process: Process, beside out: URL) -> Int {
        let staging = out.deletingLastPathComponent()
            .appendingPathComponent(".out.rolodeck-staging-\(process.processIdentifier)/contacts")
        let deadline = Date().addingTimeInterval(60)
        var staged = 0
        while process.isRunning, Date() < deadline {
            staged = (try? FileManager.default.contentsOfDirectory(atPath: staging.path).count) ?? 0
            if staged > 200 { break }
            usleep(2_000)
        }
        return staged
    }

    /// SIGHUP (the terminal the build ran in was closed) once the build is writing stops it as
    /// Ctrl-C does: what it wrote is removed, the old output is left exactly, and it exits with
    /// 129. A build started with SIGHUP ignored, as `nohup` starts it, goes on and publishes.
    @Test func sighupStopsABuildUnlessItIsIgnored() throws {
        let site = try Self.largeSite(contacts: 8000)
        let folder = site.deletingLastPathComponent()
        let out = folder.appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", CLI.packageRoot.appendingPathComponent("Examples/demo").path,
                             "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)
        // The test process may have SIGHUP ignored or not; each build is told which.
        for ignored in [false, true] {
            let (process, finish) = try Self.start(
                ["build", "--site", site.path, "--out", out.path],
                envOptions: [ignored ? "--ignore-signal=HUP" : "--default-signal=HUP"])
            let staged = Self.waitUntilStaging(process, beside: out)
            try #require(process.isRunning, "the build finished before the signal (\(staged) staged)")
            kill(process.processIdentifier, SIGHUP)
            let result = finish()
            if ignored {
                #expect(result.status == 0, "\(result.stderr)")
                #expect(result.stdout.hasPrefix("Built 8000 contacts"))
                #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("contacts/person-7999.html").path))
            } else {
                #expect(result.status == 129, "\(result.stderr)")
                #expect(result.stderr.hasSuffix("build stopped by SIGHUP; \(out.path) was left as it was\n"))
                let after = try CLI.snapshot(out)
                #expect(after.mapValues(\.bytes) == before.mapValues(\.bytes))
                #expect(after.mapValues(\.modified) == before.mapValues(\.modified))
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out", "site"])
        }
    }

    @Test(
        .disabled(
            if: Sanitizers.thread,
            """
            under a 1 KB file-size limit ThreadSanitizer faults in its own shadow memory (SIGBUS \
            in its strlen interceptor)
            """))
    func aFullDiskLeavesTheOldOutputExactly() throws {
        let site = try Self.largeSite(contacts: 400)
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", CLI.packageRoot.appendingPathComponent("Examples/demo").path,
                             "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)
        // A file-size limit makes write() fail with EFBIG part-way, as a full disk fails with
        // ENOSPC; rolodeck ignores SIGXFSZ, whose default would end it with a core dump.
        let result = try CLI.run(["build", "--site", site.path, "--out", out.path],
                                 shellPrefix: "ulimit -f 1")
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write \(out.path)/"))
        #expect(result.stderr.contains("File too large"))
        #expect(try CLI.snapshot(out).mapValues(\.bytes) == before.mapValues(\.bytes))
    }

    /// A site of 20,000 contacts, and a whole build of it made apart (what a build that ends
    /// publishes), with how long that build took.
    struct BigSite {
        var site: URL
        var reference: URL
        var duration: Double
    }

    /// How many contacts `bigSite` has: 20,000, or 2,000 in a build with a sanitizer, where a
    /// build of 20,000 takes eight minutes and the eleven trials most of an hour. 2,000 still
    /// take every path (the store file is 500 KB, decoded in pieces on two threads).
    static let bigSiteContacts = Sanitizers.thread || Sanitizers.address ? 2_000 : 20_000

    /// Made once for the suite: the build takes a while.
    static let bigSite: Result<BigSite, any Error> = Result {
        let site = try largeSite(contacts: bigSiteContacts)
        let reference = site.deletingLastPathComponent().appendingPathComponent("reference")
        let started = Date()
        let built = try CLI.run(["build", "-q", "--site", site.path, "--out", reference.path])
        guard built.status == 0 else { throw BuildFailure(stderr: built.stderr) }
        return BigSite(site: site, reference: reference, duration: Date().timeIntervalSince(started))
    }

    struct BuildFailure: Error {
        var stderr: String
    }

    /// Every file's bytes but the manifest's, whose statuses line depends on when the files were
    /// read.
    static func pages(_ root: URL) throws -> [String: Data] {
        try CLI.contents(root).filter { $0.key != ".rolodeck" }
    }

    /// Starts `rolodeck` with arguments, its output collected, through `env` with `envOptions`
    /// when there are any (`--ignore-signal=HUP`); `finish` waits for it, and kills it if it has
    /// not ended two minutes later (a status of -1: a stop that did not stop it).
    static func start(_ arguments: [String], envOptions: [String] = []) throws
        -> (process: Process, finish: () -> CLI.Result)
    {
        let process = Process()
        if envOptions.isEmpty {
            process.executableURL = CLI.binary
            process.arguments = arguments
        } else {
            // `env` execs the binary: the process is rolodeck's.
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = envOptions + [CLI.binary.path] + arguments
        }
        process.environment = CLI.environment(adding: [:])
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, {
            let deadline = Date().addingTimeInterval(120)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return CLI.Result(status: -1, stdout: "", stderr: "killed: it did not end")
            }
            let outData = out.fileHandleForReading.readDataToEndOfFile()
            let errData = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return CLI.Result(
                status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                stderr: String(decoding: errData, as: UTF8.self))
        })
    }

    /// SIGINT at moments spread over a whole build of 20,000 contacts (`bigSiteContacts`), one
    /// in each of eleven equal stretches from its start to a little past its end, at a random
    /// point of it: reading, decoding, sorting, rendering, publishing. Each leaves nothing beside
    /// the output, exits with 130, and leaves the old output byte for byte (mtimes too), or, when
    /// the signal came after the swap, the whole new site, as its last line says.
    @Test func sigintAtAnyMomentLeavesOneWholeSiteAndSaysWhich() throws {
        let big = try Self.bigSite.get()
        let demo = CLI.packageRoot.appendingPathComponent("Examples/demo").path
        let folder = try CLI.temporaryFolder()
        let out = folder.appendingPathComponent("out")
        let newSite = try Self.pages(big.reference)
        let trials = 11
        var endings: [String: Int] = [:]
        for trial in 0..<trials {
            #expect(try CLI.run(["build", "-q", "--site", demo, "--out", out.path]).status == 0)
            let before = try CLI.snapshot(out)
            let moment = big.duration * 1.05 * (Double(trial) + Double.random(in: 0..<1)) / Double(trials)
            let (process, finish) = try Self.start(["build", "--site", big.site.path, "--out", out.path])
            usleep(useconds_t(moment * 1_000_000))
            kill(process.processIdentifier, SIGINT)
            let result = finish()
            let last = result.stderr.split(separator: "\n").last.map(String.init) ?? ""
            let at = String(format: "SIGINT at %.2f s of a %.2f s build", moment, big.duration)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out"], "\(at)")
            switch (result.status, last) {
            case (130, "build interrupted; nothing was written"),
                (130, "build interrupted; \(out.path) was left as it was"):
                let after = try CLI.snapshot(out)
                #expect(after.mapValues(\.bytes) == before.mapValues(\.bytes), "\(at): \(last)")
                #expect(after.mapValues(\.modified) == before.mapValues(\.modified), "\(at): \(last)")
                endings[last == "build interrupted; nothing was written" ? "before writing" : "while writing", default: 0] += 1
            case (130, "build interrupted; the new site had already been published in \(out.path)"):
                #expect(try Self.pages(out) == newSite, "\(at): \(last)")
                endings["after the swap", default: 0] += 1
            case (SIGINT, ""):
                // The signal came as the process started, before `main` could set its handler:
                // the system ended it as Ctrl-C ends any program, before it wrote anything.
                #expect(try CLI.snapshot(out).mapValues(\.bytes) == before.mapValues(\.bytes), "\(at)")
                endings["before its handler", default: 0] += 1
            case (0, _):
                // The build ended before the signal came.
                #expect(result.stdout.hasPrefix("Built \(Self.bigSiteContacts) contacts"), "\(at)")
                #expect(try Self.pages(out) == newSite, "\(at)")
                endings["after the end", default: 0] += 1
            default:
                Issue.record("\(at): status \(result.status), stderr: \(result.stderr)")
            }
        }
        print("SIGINT trials ended: \(endings.sorted { $0.key < $1.key })")
        // Half the moments fall in the middle of the build, where it is writing its staging folder.
        #expect(endings["while writing", default: 0] >= 1)
    }

    /// A signal that comes once the new site is swapped in, while the old one (20,000 pages) is
    /// removed: the removal finishes, and the build says that the new site is published.
    @Test func aSignalAfterTheSwapSaysTheNewSiteIsPublished() throws {
        let big = try Self.bigSite.get()
        let folder = try CLI.temporaryFolder()
        let out = folder.appendingPathComponent("out")
        // The old site: the reference build, linked file by file, which costs no copy.
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-al", big.reference.path, out.path]
        try copy.run()
        copy.waitUntilExit()
        try #require(copy.terminationStatus == 0)
        // Another title: every page changes.
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(at: site.appendingPathComponent("store"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: big.site.appendingPathComponent("store/contacts.json"), to: site.appendingPathComponent("store/contacts.json"))
        try Data(#"{"title": "Swapped"}"#.utf8).write(to: site.appendingPathComponent("rolodeck.json"))

        func manifestInode() -> ino_t? {
            var info = stat()
            return stat(out.appendingPathComponent(".rolodeck").path, &info) == 0 ? info.st_ino : nil
        }
        let old = try #require(manifestInode())
        let (process, finish) = try Self.start(["build", "--site", site.path, "--out", out.path])
        while process.isRunning, manifestInode() == old { usleep(500) }
        kill(process.processIdentifier, SIGINT)
        let result = finish()
        #expect(result.status == 130, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.hasSuffix("build interrupted; the new site had already been published in \(out.path)\n"))
        #expect(result.stdout.hasPrefix("Built \(Self.bigSiteContacts) contacts"))
        #expect(try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8).contains("Swapped"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["out", "site"])
    }

    /// SIGTERM while the build waits for another build's lock: nothing was written yet, so it
    /// ends at once, with 143.
    @Test func sigtermWhileWaitingForTheLockEndsAtOnce() throws {
        let folder = try CLI.temporaryFolder()
        let out = folder.appendingPathComponent("out")
        let demo = try CLI.copyOfDemo()
        #expect(try CLI.run(["build", "-q", "--site", demo.path, "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)
        try Data(#"{"title": "Waiting"}"#.utf8).write(to: demo.appendingPathComponent("rolodeck.json"))
        // Another build, as far as this one can tell: the lock on the output's parent folder.
        let parent = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(parent >= 0)
        defer { close(parent) }
        try #require(flock(parent, LOCK_EX | LOCK_NB) == 0)
        let (process, finish) = try Self.start(["build", "--site", demo.path, "--out", out.path])
        // Whether it is still reading or already waiting, it has written nothing.
        usleep(500_000)
        kill(process.processIdentifier, SIGTERM)
        let result = finish()
        #expect(result.status == 143)
        #expect(result.stderr == "build terminated; nothing was written\n")
        #expect(try CLI.snapshot(out).mapValues(\.bytes) == before.mapValues(\.bytes))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out"])
    }
}
