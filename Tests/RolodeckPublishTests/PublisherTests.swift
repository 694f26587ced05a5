import Foundation
import Testing
@testable import RolodeckPublish
import RolodeckCore
@testable import RolodeckTestSupport

@Suite struct PublisherTests {
    struct Failure: Error {}

    func publish(_ files: [String: String], to output: URL) throws -> PublishReport {
        try Publisher(outputPath: output.path).publish { writer in
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                try writer.write(path, Array(text.utf8))
            }
        }
    }

    func tree(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            result[relative] = try String(contentsOf: url, encoding: .utf8)
        }
        return result
    }

    func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test func firstBuildWritesEverythingAndMarksTheFolder() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let report = try publish(["index.html": "home", "contacts/a.html": "A"], to: output)
        #expect(report == PublishReport(written: 3, unchanged: 0, removed: 0))
        let manifest = OutputManifest(fingerprint: nil, files: [("contacts/a.html", 1), ("index.html", 4)])
        #expect(try tree(output) == ["index.html": "home", "contacts/a.html": "A",
                                     ".rolodeck": String(decoding: manifest.bytes, as: UTF8.self)])
        #expect(String(decoding: manifest.bytes, as: UTF8.self) == """
            This folder is written by `rolodeck build`; each build replaces it.
            1 contacts/a.html
            4 index.html

            """)
    }

    @Test func manifestListsFilesByTheirPathsBytes() {
        let sorted = OutputManifest.sorted([
            ("b.html", 1), ("a/b.html", 2), ("a.html", 3), ("é.html", 4), ("z.html", 5), ("a", 6),
        ])
        #expect(sorted.map(\.path) == ["a", "a.html", "a/b.html", "b.html", "z.html", "é.html"])
        #expect(sorted.map(\.size) == [6, 3, 2, 1, 5, 4])
    }

    /// Paths whose bytes agree for 8, 16 and more bytes, end inside or at the end of an 8-byte
    /// step, or begin one another: the manifest's sort takes 8 bytes at a time.
    @Test func manifestSortsPathsThatShareLongBeginnings() {
        let paths = [
            "contacts/anna-maria-lee.html", "contacts/anna-maria-le.html", "contacts/anna-maria-lee",
            "contacts/anna-maria-lee.htm", "contacts/anna-mar.html", "contacts/anna-mar", "contacts/anna-ma",
            "contacts/", "contacts", "contact", "contacts/anna-maria-lee.html.x", "contacts/b.html",
            "contacts/anna-mariá.html", "contacts/anna-mariz.html", "groups/a.html", "404.html", "",
            "search/terms-00.bin", "search/terms-01.bin", "search/terms-10.bin", "search/terms-1.bin",
        ]
        let sorted = OutputManifest.sorted(paths.enumerated().map { (path: $1, size: $0) })
        #expect(sorted.map(\.path) == paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(sorted.allSatisfy { paths[$0.size] == $0.path })
    }

    /// Enough paths to be sorted in two halves and merged, sharing beginnings across them.
    @Test func manyPathsAreSortedOnTwoCoresAlike() {
        let count = PathBytes.parallelCount * 2 + 3
        var paths = (0..<count).map { "contacts/name-\(($0 * 7_919) % count)-x.html" }
        paths += ["contacts/name-1", "contacts/name-", "contacts/name-1-x.html.gz", "a", ""]
        let sorted = OutputManifest.sorted(paths.enumerated().map { (path: $1, size: $0) })
        let expected = paths.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        // The first place they differ, not two lists of 16,000 paths.
        #expect(sorted.count == expected.count)
        #expect(expected.indices.first { sorted[$0].path != expected[$0] } == nil)
        #expect(sorted.allSatisfy { paths[$0.size] == $0.path })
    }

    @Test func manifestBytesListTheFilesSorted() {
        let files = [(path: "b.html", size: 12_345), (path: "a/b.html", size: 0), (path: "a.html", size: 7)]
        let bytes = OutputManifest.bytes(fingerprint: "f00d", listing: files)
        #expect(String(decoding: bytes, as: UTF8.self) == """
            This folder is written by `rolodeck build`; each build replaces it.
            inputs f00d
            7 a.html
            0 a/b.html
            12345 b.html

            """)
        let manifest = OutputManifest(fingerprint: "f00d", files: OutputManifest.sorted(files))
        #expect(bytes == manifest.bytes)
        #expect(OutputManifest(bytes: bytes) == manifest)
        // A size read back from a damaged manifest is written again as it was.
        let damaged = OutputManifest(fingerprint: nil, files: [("a", -5), ("b", 9_000_000_000)])
        #expect(String(decoding: damaged.bytes, as: UTF8.self).hasSuffix("\n-5 a\n9000000000 b\n"))
    }

    /// A manifest reads back as written, paths with spaces and other scripts included, and
    /// one whose lines are not `<size> <path>` is not taken for a manifest.
    @Test(arguments: [
        ("inputs f00d\n7 a b.html\n0 자료/가.html\n\n12 z\n", "f00d", [("a b.html", 7), ("자료/가.html", 0), ("z", 12)]),
        ("inputs \n", "", []),
        ("inputs f00d", "f00d", []),
        ("inputs f00d\n7a.html\n", nil, []),
        ("inputs f00d\nx a.html\n", nil, []),
        ("inputs f00d\n-5 a.html\n", nil, []),
        ("inputs f00d\n7\n", nil, []),
        ("outputs f00d\n7 a.html\n", nil, []),
    ] as [(String, String?, [(String, Int)])])
    func manifestsAreReadBackOrRefused(text: String, fingerprint: String?, files: [(String, Int)]) {
        let bytes = Array((OutputManifest.heading + "\n" + text).utf8)
        let manifest = OutputManifest(bytes: bytes)
        #expect(manifest?.fingerprint == fingerprint)
        if fingerprint != nil {
            #expect(manifest?.files.map(\.path) == files.map(\.0))
            #expect(manifest?.files.map(\.size) == files.map(\.1))
        }
        #expect(OutputManifest(bytes: Array("not a manifest\n".utf8) + bytes) == nil)
    }

    /// The digest of the files' statuses goes on the third line, where a file's line, which
    /// starts with its size, cannot be taken for it; a manifest without it reads as before.
    @Test func manifestsRecordTheStatusesDigestOnTheirThirdLine() {
        let files = [(path: "b.html", size: 2), (path: "a.html", size: 1)]
        let bytes = OutputManifest.bytes(fingerprint: "f00d", statuses: "5eed", listing: files)
        #expect(String(decoding: bytes, as: UTF8.self) == """
            This folder is written by `rolodeck build`; each build replaces it.
            inputs f00d
            statuses 5eed
            1 a.html
            2 b.html

            """)
        #expect(OutputManifest(bytes: bytes)
                == OutputManifest(fingerprint: "f00d", statuses: "5eed", files: OutputManifest.sorted(files)))
        #expect(OutputManifest.fingerprint(in: bytes) == "f00d")
        #expect(OutputManifest.statuses(in: bytes) == "5eed")
        let without = OutputManifest.bytes(fingerprint: "f00d", listing: files)
        #expect(OutputManifest.statuses(in: without) == nil)
        #expect(OutputManifest(bytes: without)?.files.count == 2)
        #expect(OutputManifest.recording(statuses: "5eed", in: without) == bytes)
        #expect(OutputManifest.recording(statuses: "beef", in: bytes)
                == OutputManifest.bytes(fingerprint: "f00d", statuses: "beef", listing: files))
        #expect(OutputManifest.recording(statuses: "beef", in: Array("not a manifest\n".utf8)) == nil)
        // Statuses vouch for a fingerprint: with none, there is nothing to record.
        #expect(OutputManifest.bytes(fingerprint: nil, statuses: "5eed", listing: [])
                == Array((OutputManifest.heading + "\n").utf8))
    }

    /// The digest of what made the photos' files goes on a line of its own after the statuses'
    /// (or after the fingerprint when there are none); recording statuses and patching the
    /// list keep it, and a manifest without it reads as before.
    @Test func manifestsRecordWhatMadeThePhotosAfterTheStatuses() {
        let files = [(path: "b.html", size: 2), (path: "a.html", size: 1)]
        let bytes = OutputManifest.bytes(
            fingerprint: "f00d", statuses: "5eed", photos: "cafe", listing: files)
        #expect(String(decoding: bytes, as: UTF8.self) == """
            This folder is written by `rolodeck build`; each build replaces it.
            inputs f00d
            statuses 5eed
            photos cafe
            1 a.html
            2 b.html

            """)
        let sorted = OutputManifest.sorted(files)
        #expect(OutputManifest(bytes: bytes)
                == OutputManifest(fingerprint: "f00d", statuses: "5eed", photos: "cafe", files: sorted))
        #expect(OutputManifest.photos(in: bytes) == "cafe")
        #expect(OutputManifest.statuses(in: bytes) == "5eed")
        let unsettled = OutputManifest.bytes(fingerprint: "f00d", photos: "cafe", listing: files)
        #expect(OutputManifest.photos(in: unsettled) == "cafe")
        #expect(OutputManifest.statuses(in: unsettled) == nil)
        #expect(OutputManifest(bytes: unsettled)?.files.count == 2)
        #expect(OutputManifest.recording(statuses: "5eed", in: unsettled) == bytes)
        #expect(OutputManifest.photos(in: OutputManifest.bytes(fingerprint: "f00d", listing: files)) == nil)
        var patched = bytes
        #expect(OutputManifest.patch(&patched, fingerprint: "feed", photos: "cafe", changes: [("a.html", 3)]))
        let resized = [(path: "b.html", size: 2), (path: "a.html", size: 3)]
        #expect(patched == OutputManifest.bytes(fingerprint: "feed", photos: "cafe", listing: resized))
        #expect(OutputManifest.patch(&patched, fingerprint: "feed", photos: nil, changes: []))
        #expect(OutputManifest.photos(in: patched) == nil)
        #expect(OutputManifest(bytes: patched)?.files.count == 2)
    }

    @Test func aPathWrittenTwiceFailsTheBuild() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        for path in ["index.html", "contacts/a.html"] {
            #expect(throws: PublishError(.duplicatePage(path))) {
                try Publisher(outputPath: output.path).publish { writer in
                    try writer.write("contacts/b.html", Array("B".utf8))
                    try writer.write(path, Array("1".utf8))
                    try writer.write(path, Array("2".utf8))
                }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func unchangedFilesKeepTheirModificationTime() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try publish(["index.html": "home", "contacts/a.html": "A", "contacts/b.html": "B"], to: output)
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        for path in ["index.html", "contacts/a.html", "contacts/b.html"] {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: output.appendingPathComponent(path).path)
        }
        let same = try publish(["index.html": "home", "contacts/a.html": "A", "contacts/b.html": "B"], to: output)
        #expect(same == PublishReport(written: 0, unchanged: 4, removed: 0))
        let changed = try publish(["index.html": "home", "contacts/a.html": "A2", "contacts/b.html": "B"], to: output)
        // The page and the manifest, which lists its new size.
        #expect(changed == PublishReport(written: 2, unchanged: 2, removed: 0))
        #expect(try modificationDate(output.appendingPathComponent("index.html")) == old)
        #expect(try modificationDate(output.appendingPathComponent("contacts/b.html")) == old)
        #expect(try modificationDate(output.appendingPathComponent("contacts/a.html")) != old)
    }

    @Test func pagesNoLongerProducedAreRemoved() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try publish(["index.html": "home", "contacts/a.html": "A", "contacts/b.html": "B"], to: output)
        let report = try publish(["index.html": "home", "contacts/a.html": "A"], to: output)
        #expect(report.removed == 1)
        #expect(try tree(output).keys.sorted() == [".rolodeck", "contacts/a.html", "index.html"])
    }

    @Test func aFailedBuildLeavesTheOldOutputExactly() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try publish(["index.html": "home", "contacts/a.html": "A"], to: output)
        let before = try tree(output)
        #expect(throws: Failure.self) {
            try Publisher(outputPath: output.path).publish { writer in
                try writer.write("index.html", Array("new home".utf8))
                try writer.write("contacts/c.html", Array("C".utf8))
                throw Failure()
            }
        }
        #expect(try tree(output) == before)
        let parent = output.deletingLastPathComponent()
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: parent.path).filter { $0.contains("staging") }
        #expect(leftovers.isEmpty)
    }

    @Test func refusesToReplaceAFolderItDidNotMake() throws {
        let output = try Fixtures.temporaryFolder()
        try Data("precious".utf8).write(to: output.appendingPathComponent("thesis.txt"))
        #expect(throws: PublishError(.notRolodeckOutput(path: output.path))) {
            try publish(["index.html": "home"], to: output)
        }
        #expect(try tree(output) == ["thesis.txt": "precious"])
    }

    @Test func deletingNeverFollowsASymbolicLinkOut() throws {
        let base = try Fixtures.temporaryFolder()
        let outside = base.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("keep.txt"))
        let output = base.appendingPathComponent("site")
        _ = try publish(["index.html": "home"], to: output)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("contacts"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(at: output.appendingPathComponent("old.html"),
                                                   withDestinationURL: outside.appendingPathComponent("keep.txt"))
        let report = try publish(["index.html": "home", "contacts/a.html": "A"], to: output)
        #expect(report.removed == 2)  // the two links themselves, not what they point at
        #expect(try String(contentsOf: outside.appendingPathComponent("keep.txt"), encoding: .utf8) == "keep")
        #expect(try FileManager.default.contentsOfDirectory(atPath: outside.path) == ["keep.txt"])
        #expect(try tree(output).keys.sorted() == [".rolodeck", "contacts/a.html", "index.html"])
    }

    @Test func aSymlinkedOutputIsReplacedWhereItPoints() throws {
        let base = try Fixtures.temporaryFolder()
        let real = base.appendingPathComponent("real-site")
        _ = try publish(["index.html": "v1"], to: real)
        let link = base.appendingPathComponent("site")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        _ = try publish(["index.html": "v2"], to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == real.path)
        #expect(try tree(real)["index.html"] == "v2")
    }

    @Test(arguments: [
        ("index.html", "", "index.html"), ("contacts/kim.html", "contacts", "kim.html"),
        ("a/b/c.js", "a/b", "c.js"), ("..x/y..", "..x", "y.."), ("김/철수.html", "김", "철수.html"),
    ])
    func pagePathsSplitIntoFolderAndName(_ path: String, _ folder: String, _ name: String) throws {
        let split = try #require(PagePath.folderAndName(of: path))
        #expect(split.folder == folder && split.name == name)
    }

    @Test(arguments: ["", "/a.html", "a/", "a//b.html", "./a.html", "a/..", "a/../b.html", "a\u{0}b.html", "."])
    func pagePathsThatLeaveTheOutputAreRefused(_ path: String) {
        #expect(PagePath.folderAndName(of: path) == nil)
    }

    @Test func rejectsPathsThatLeaveTheOutput() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        for path in ["../escape.html", "/etc/passwd", "a//b.html", "contacts/./x.html", ""] {
            #expect(throws: PublishError(.invalidPagePath(path))) {
                try publish([path: "x"], to: output)
            }
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }

    @Test func concurrentBuildsAreSerialized() async throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let path = output.path
        // Each build writes 50 pages carrying its own number; with a lock, the result is one
        // build's pages whole, never a mix.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for build in 0..<4 {
                group.addTask {
                    _ = try Publisher(outputPath: path).publish { writer in
                        for page in 0..<50 {
                            try writer.write("p\(page).html", Array("build \(build)".utf8))
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let contents = Set(try tree(output).filter { $0.key != ".rolodeck" }.values)
        #expect(contents.count == 1)
    }

    @Test func theSameFingerprintOnAnIntactOutputSkipsTheBuild() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let pages = ["index.html": "home", "contacts/a.html": "A", "contacts/b.html": "B"]
        func build(_ fingerprint: String) throws -> (PublishReport, Bool) {
            var produced = false
            let report = try Publisher(outputPath: output.path).publish(fingerprint: fingerprint) { writer in
                produced = true
                for (path, text) in pages.sorted(by: { $0.key < $1.key }) { try writer.write(path, Array(text.utf8)) }
            }
            return (report, produced)
        }
        #expect(try build("f1") == (PublishReport(written: 4, unchanged: 0, removed: 0), true))
        let marker = try String(contentsOf: output.appendingPathComponent(".rolodeck"), encoding: .utf8)
        #expect(marker.contains("\ninputs f1\n"))

        #expect(try build("f1") == (PublishReport(written: 0, unchanged: 4, removed: 0), false))
        // Other inputs: a build, though only the manifest's fingerprint changes.
        #expect(try build("f2") == (PublishReport(written: 1, unchanged: 3, removed: 0), true))
        // A file deleted, or edited by hand after the build: the output is repaired.
        try FileManager.default.removeItem(at: output.appendingPathComponent("contacts/b.html"))
        #expect(try build("f2") == (PublishReport(written: 2, unchanged: 2, removed: 0), true))
        Thread.sleep(forTimeInterval: 0.01)
        try Data("HOME".utf8).write(to: output.appendingPathComponent("index.html"))
        #expect(try build("f2") == (PublishReport(written: 2, unchanged: 2, removed: 0), true))
        #expect(try tree(output)["index.html"] == "home")
        #expect(try build("f2") == (PublishReport(written: 0, unchanged: 4, removed: 0), false))
    }
}
