import Foundation
import Testing
@testable import RolodeckWatch
@testable import RolodeckTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The watcher against real file operations: each scenario changes files the way editors, git
/// and sync tools do, and the batches that come out must name every relevant change (and only
/// those), in inotify mode and in polling mode.
@Suite(.serialized) struct WatcherTests {
    /// A site folder to change: a store, templates, static files and an output folder inside.
    struct Site {
        let folder: URL
        var path: String { folder.path }

        init() throws {
            folder = try Fixtures.temporaryFolder().appendingPathComponent("site")
            for path in ["store/book", "Templates", "Public", "_site"] {
                try FileManager.default.createDirectory(
                    at: folder.appendingPathComponent(path),
                    withIntermediateDirectories: true)
            }
            try write("rolodeck.json", "{}")
            try write("store/contacts.json", "[]")
            try write("store/book/ann.vcf", "BEGIN:VCARD\r\nEND:VCARD\r\n")
        }

        var scope: WatchScope { WatchScope(siteFolder: folder, store: "store", output: path + "/_site") }

        /// Writes a file in place: open, truncate, write, close (what most programs do).
        func write(_ relative: String, _ text: String) throws {
            let fd = open(path + "/" + relative, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard fd >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
            defer { close(fd) }
            _ = text.withCString { Glibc.write(fd, $0, strlen($0)) }
        }

        func rename(_ from: String, _ to: String) {
            _ = Glibc.rename(path + "/" + from, path + "/" + to)
        }

        func make(_ relative: String) throws {
            try FileManager.default.createDirectory(
                atPath: path + "/" + relative, withIntermediateDirectories: true)
        }

        func remove(_ relative: String) throws {
            try FileManager.default.removeItem(atPath: path + "/" + relative)
        }
    }

    /// Collects batches until every path of `expected` has been named (or 10 s pass); returns
    /// what was named and how many batches it took.
    static func collect(_ watcher: Watcher, until expected: Set<String>) -> (paths: Set<String>, batches: Int)
    {
        var seen: Set<String> = []
        var batches = 0
        let deadline = ContinuousClock.now + .seconds(10)
        while !expected.isSubset(of: seen), ContinuousClock.now < deadline {
            guard let batch = watcher.nextBatch(timeout: deadline - .now) else { break }
            batches += 1
            seen.formUnion(batch.paths)
        }
        return (seen, batches)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        /// Changes files; returns the paths (relative to the site folder) that must be named.
        var change: @Sendable (Site) throws -> [String]
        /// Paths that must not be named.
        var ignored: [String] = []
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "a file written in place") { site in
            try site.write("store/contacts.json", #"[{"id": "a"}]"#)
            return ["store/contacts.json"]
        },
        Case(
            label: "a save by rename, as vim and most editors do",
            change: { site in
                try site.write("store/.contacts.json.swp", "swap")
                try site.write("store/contacts.json.tmp", #"[{"id": "b"}]"#)
                site.rename("store/contacts.json", "store/contacts.json~")
                site.rename("store/contacts.json.tmp", "store/contacts.json")
                try site.remove("store/contacts.json~")
                return ["store/contacts.json"]
            }, ignored: ["store/.contacts.json.swp", "store/contacts.json.tmp", "store/contacts.json~"]),
        Case(label: "a folder deleted and made again, then written in") { site in
            try site.remove("store/book")
            try site.make("store/book")
            try site.write("store/book/bo.vcf", "BEGIN:VCARD\r\nEND:VCARD\r\n")
            return ["store/book", "store/book/bo.vcf"]
        },
        Case(label: "folders made after the watcher started") { site in
            try site.make("store/new/deeper")
            try site.write("store/new/deeper/cy.vcf", "x")
            return ["store/new", "store/new/deeper/cy.vcf"]
        },
        Case(label: "a folder moved in, and one moved out") { site in
            let outside = site.folder.deletingLastPathComponent().path
            try FileManager.default.createDirectory(
                atPath: outside + "/incoming", withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: outside + "/incoming/dee.vcf"))
            _ = Glibc.rename(outside + "/incoming", site.path + "/store/incoming")
            _ = Glibc.rename(site.path + "/store/book", outside + "/gone")
            return ["store/incoming", "store/book"]
        },
        Case(label: "templates, static files and the config") { site in
            try site.write("Templates/contact.mustache", "{{name}}")
            try site.make("Public/img")
            try site.write("Public/img/logo.svg", "<svg/>")
            try site.write("rolodeck.json", #"{"title": "T"}"#)
            return ["Templates/contact.mustache", "Public/img", "rolodeck.json"]
        },
        Case(label: "the store folder itself deleted and made again") { site in
            try site.remove("store")
            try site.make("store")
            try site.write("store/contacts.json", "[]")
            return ["store", "store/contacts.json"]
        },
        Case(
            label: "the output, hidden files and other files are not changes",
            change: { site in
                try site.write("_site/index.html", "page")
                try site.write(".git-like", "x")
                try site.write("README.md", "x")
                try site.write("store/notes.txt", "x")
                try site.write("store/contacts.json", "[]")
                return ["store/contacts.json"]
            }, ignored: ["_site/index.html", ".git-like", "README.md", "store/notes.txt"]),
    ]

    static func run(_ test: Case, options: Watcher.Options) throws {
        let site = try Site()
        let watcher = Watcher(scope: site.scope, options: options)
        let expected = try test.change(site).map { site.path + "/" + $0 }
        let (seen, _) = collect(watcher, until: Set(expected))
        for path in expected {
            #expect(seen.contains(path), "\(path) was not seen; seen: \(seen.sorted())")
        }
        for path in test.ignored {
            #expect(!seen.contains(site.path + "/" + path), "\(path) was seen")
        }
        // Whatever the scenario did to the folders, a later write anywhere in the store is seen.
        try site.make("store/after")
        try site.write("store/after/late.vcf", "x")
        try site.write("store/contacts.json", #"[{"id": "late"}]"#)
        let late = [site.path + "/store/after/late.vcf", site.path + "/store/contacts.json"]
        #expect(collect(watcher, until: Set(late)).paths.isSuperset(of: late), "a later write was missed")
    }

    @Test(arguments: cases)
    func inotify(_ test: Case) throws {
        try Self.run(test, options: Watcher.Options())
    }

    @Test(arguments: cases)
    func polling(_ test: Case) throws {
        try Self.run(test, options: Watcher.Options(polling: true, pollInterval: .milliseconds(50)))
    }

    @Test func aBurstOfAThousandFilesComesInFewBatchesAndNoneIsLost() throws {
        let site = try Site()
        let watcher = Watcher(scope: site.scope)
        #expect(watcher.mode == .inotify)
        var expected: Set<String> = []
        for index in 0..<1000 {
            try site.write("store/book/card-\(index).vcf", "BEGIN:VCARD\r\nUID:\(index)\r\nEND:VCARD\r\n")
            expected.insert(site.path + "/store/book/card-\(index).vcf")
        }
        let (seen, batches) = Self.collect(watcher, until: expected)
        #expect(expected.isSubset(of: seen), "\(expected.subtracting(seen).count) changes were lost")
        #expect(batches < 20, "\(batches) batches for one burst")
    }

    @Test func runningOutOfWatchesSaysSoAndFallsBackToPolling() throws {
        let site = try Site()
        var options = Watcher.Options(pollInterval: .milliseconds(50))
        options.watchLimit = 2
        let watcher = Watcher(scope: site.scope, options: options)
        #expect(watcher.mode == .polling)
        let notices = watcher.takeNotices()
        #expect(notices.count == 1)
        #expect(notices.first?.description.contains("fs.inotify.max_user_watches") == true)
        try site.write("store/book/ann.vcf", "BEGIN:VCARD\r\nFN:Ann\r\nEND:VCARD\r\n")
        let path = site.path + "/store/book/ann.vcf"
        #expect(Self.collect(watcher, until: [path]).paths.contains(path))
    }

    @Test func runningOutOfWatchesLaterFallsBackWithoutLosingTheChange() throws {
        let site = try Site()
        var options = Watcher.Options(pollInterval: .milliseconds(50))
        options.watchLimit = 6  // the site, store, book, Templates, Public: one to spare
        let watcher = Watcher(scope: site.scope, options: options)
        #expect(watcher.mode == .inotify)
        try site.make("store/one/two")
        try site.write("store/one/two/x.vcf", "x")
        let (seen, _) = Self.collect(watcher, until: [site.path + "/store/one"])
        #expect(seen.contains(site.path + "/store/one"))
        #expect(watcher.mode == .polling)
        #expect(watcher.takeNotices().map(\.reason) == [.outOfWatches(path: site.path + "/store/one/two")])
        try site.write("store/one/two/x.vcf", "changed")
        let path = site.path + "/store/one/two/x.vcf"
        #expect(Self.collect(watcher, until: [path]).paths.contains(path))
    }

    @Test func aStopDescriptorEndsTheWait() throws {
        let site = try Site()
        let watcher = Watcher(scope: site.scope)
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        _ = write(fds[1], "x", 1)
        #expect(watcher.nextBatch(stop: fds[0]) == nil)
    }
}
