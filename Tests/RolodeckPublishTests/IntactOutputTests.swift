import Foundation
import Testing
@testable import RolodeckPublish
@testable import RolodeckTestSupport

/// An output counts as up to date only when it holds exactly what its manifest lists, each file
/// as it was written: whatever someone else changed, removed or added, the next build redoes.
@Suite struct IntactOutputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var tamper: @Sendable (URL) throws -> Void
        var testDescription: String { label }
    }

    static let pages = [
        "index.html": "home", "todos.html": "todo", "contacts/a.html": "A", "contacts/b.html": "B",
        "search/terms/1.js": "t1",
    ]

    static func write(_ text: String, _ path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static let tamperings: [Case] = [
        Case(label: "a page written over in place, same size") { try write("HOME", "index.html", in: $0) },
        Case(label: "a page in a folder written over in place") { try write("b", "contacts/b.html", in: $0) },
        Case(label: "a page removed") {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("todos.html"))
        },
        Case(label: "a page in a folder removed") {
            try FileManager.default.removeItem(at: $0.appendingPathComponent("search/terms/1.js"))
        },
        Case(label: "a file added at the top") { try write("x", "extra.html", in: $0) },
        Case(label: "a hidden file added at the top") { try write("x", ".htaccess", in: $0) },
        Case(label: "a file added to a folder") { try write("C", "contacts/c.html", in: $0) },
        Case(label: "a file added two folders down") { try write("t2", "search/terms/2.js", in: $0) },
        Case(label: "a folder added at the top") {
            try FileManager.default.createDirectory(
                at: $0.appendingPathComponent("photos"), withIntermediateDirectories: false)
        },
        Case(label: "a folder added to a folder") {
            try FileManager.default.createDirectory(
                at: $0.appendingPathComponent("contacts/old"), withIntermediateDirectories: false)
        },
        Case(label: "a page replaced by a link to itself") {
            let page = $0.appendingPathComponent("contacts/a.html")
            let kept = $0.deletingLastPathComponent().appendingPathComponent("a.html")
            try FileManager.default.moveItem(at: page, to: kept)
            try FileManager.default.createSymbolicLink(at: page, withDestinationURL: kept)
        },
        Case(label: "a folder replaced by a link to a copy") {
            let folder = $0.appendingPathComponent("contacts")
            let copy = $0.deletingLastPathComponent().appendingPathComponent("contacts-copy")
            try FileManager.default.copyItem(at: folder, to: copy)
            try FileManager.default.removeItem(at: folder)
            try FileManager.default.createSymbolicLink(at: folder, withDestinationURL: copy)
        },
    ]

    static func publish(to output: URL) throws -> PublishReport {
        try Publisher(outputPath: output.path).publish(fingerprint: "f1") { writer in
            for (path, text) in pages.sorted(by: { $0.key < $1.key }) {
                try writer.write(path, Array(text.utf8))
            }
        }
    }

    @Test func anUntouchedOutputIsUpToDate() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        #expect(try Self.publish(to: output).written == Self.pages.count + 1)
        #expect(
            Publisher(outputPath: output.path).upToDateFileCount(fingerprint: "f1") == Self.pages.count + 1)
        #expect(Publisher(outputPath: output.path).upToDateFileCount(fingerprint: "f2") == nil)
        #expect(try Self.publish(to: output) == PublishReport(unchanged: Self.pages.count + 1))
    }

    /// Each change makes the output not up to date, and the next build puts back exactly the
    /// pages, taking away what was added.
    @Test(arguments: tamperings)
    func anyChangeByAnotherHandIsRepaired(_ change: Case) throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try Self.publish(to: output)
        // Past the clock tick the manifest was written in, as an edit by hand would be.
        Thread.sleep(forTimeInterval: 0.02)
        try change.tamper(output)
        #expect(Publisher(outputPath: output.path).upToDateFileCount(fingerprint: "f1") == nil)
        let report = try Self.publish(to: output)
        #expect(report.written + report.removed > 0)
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: output.path)
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            let full = output.appendingPathComponent(path).path
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder), !isFolder.boolValue,
                path != ".rolodeck"
            else { continue }
            found[path] = try String(contentsOfFile: full, encoding: .utf8)
        }
        #expect(found == Self.pages)
        #expect(
            Publisher(outputPath: output.path).upToDateFileCount(fingerprint: "f1") == Self.pages.count + 1)
    }

    /// A manifest whose list has a line that is not `<size> <path>`, or names a folder that is
    /// not there, never vouches for the output.
    @Test(arguments: [
        "7 a.html\nx b.html\n", "7\n", "7 \n", "-1 a.html\n", "4 missing/a.html\n", "4 ../site/index.html\n",
        "4 ./index.html\n",
    ])
    func aListThatIsNotTheOutputsIsRefused(_ list: String) throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        try Self.write("home", "index.html", in: output)
        try Self.write("A", "a.html", in: output)
        let manifest = Array((OutputManifest.heading + "\ninputs f1\n" + list).utf8)
        try Data(manifest).write(to: output.appendingPathComponent(".rolodeck"))
        let root = try #require(DirectoryHandle.open(output.path))
        var now = timespec(tv_sec: Int(Date().timeIntervalSince1970) + 60, tv_nsec: 0)
        #expect(OutputManifest.intactFileCount(listedIn: manifest, in: root, manifestTime: now) == nil)
        // The same output with a list of what it holds passes, so what failed was the line.
        let good = Array((OutputManifest.heading + "\ninputs f1\n1 a.html\n\n4 index.html").utf8)
        #expect(OutputManifest.intactFileCount(listedIn: good, in: root, manifestTime: now) == 3)
        now.tv_sec -= 120
        #expect(OutputManifest.intactFileCount(listedIn: good, in: root, manifestTime: now) == nil)
    }
}
