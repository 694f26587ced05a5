import Foundation
import RolodeckCore
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore

/// What the reader's folder walk lists: every plain file at any depth in `String` order, and
/// never hidden files, editors' leftovers, links to folders or links leading out of the folder.
@Suite struct FolderWalkTests {
    @Test func listsWhatABuildReadsAndLeavesOutTheRest() throws {
        let scratch = try Fixtures.temporaryFolder()
        let root = scratch.appendingPathComponent("store")
        let files = [
            "contacts.json", "contacts/b.json", "contacts/a.json", "book/deep/x.vcf", "book/displayname",
            "Zed.vcf", "é.vcf", "e\u{301}z.vcf",
            // Left out:
            ".hidden.json", "book/.git/config", "contacts/a.json~", "contacts/.a.json.swp", "book/y.vcf.tmp",
        ]
        for path in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        let outside = scratch.appendingPathComponent("secret.vcf")
        try Data("secret".utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("linked.vcf").path, withDestinationPath: "contacts/a.json")
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("out.vcf").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("loop").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("dangling.vcf").path, withDestinationPath: "nowhere.vcf")
        let walk = FolderWalk(root: root.path)
        let expected = [
            "Zed.vcf", "book/deep/x.vcf", "book/displayname", "contacts.json", "contacts/a.json",
            "contacts/b.json", "e\u{301}z.vcf", "linked.vcf", "é.vcf",
        ].sorted()
        #expect(walk.files == expected)
        #expect(walk.folders == ["book", "book/deep", "contacts"])
        #expect(walk.misnamed.isEmpty)
        let passedOver = walk.passedOver.map { "\($0.path) \($0.reason)" }
        #expect(passedOver == ["dangling.vcf brokenLink", "loop linkToFolder", "out.vcf linkOutside"])
    }

    /// In a store, a folder that holds Rolodeck's output marker is a site it wrote, and is left
    /// out with everything in it.
    @Test func aFolderRolodeckWroteIsLeftOut() throws {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("store")
        let files = ["contacts.json", "_site/.rolodeck", "_site/contacts.vcf", "old/site/.rolodeck",
                     "old/site/contacts/a.vcf", "old/notes.vcf", "book/a.vcf"]
        for path in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        let walk = FolderWalk(root: root.path, skippingOutputs: true)
        #expect(walk.files == ["book/a.vcf", "contacts.json", "old/notes.vcf"])
        #expect(walk.folders == ["book", "old"])
        // Templates/ and Public/ are walked without it: what the user put there is theirs.
        #expect(FolderWalk(root: root.path).files.count == 5)
    }

    /// A named pipe is passed over, and noted, without being opened: opening one for reading
    /// waits until something writes to it.
    @Test func aNamedPipeIsNotedAndNotOpened() throws {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("store")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: root.appendingPathComponent("contacts.json"))
        #expect(mkfifo(root.appendingPathComponent("pipe.vcf").path, 0o644) == 0)
        let walk = FolderWalk(root: root.path)
        #expect(walk.files == ["contacts.json"])
        #expect(walk.passedOver.map(\.path) == ["pipe.vcf"])
        #expect(walk.passedOver.map(\.reason) == [.notAFile])
    }

    /// ASCII paths are sorted by their bytes, which is `String` order for them: around the
    /// bytes below `/` (space, `-`, `.`), capitals, prefixes, and names longer than 8 bytes
    /// that share their first 8 and more.
    @Test func asciiPathsComeInStringOrder() throws {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("store")
        let files = [
            "a b", "a-b", "a.b", "a/b", "a0", "A", "B/a", "ab", "contacts-x/a.json", "contacts.json",
            "contacts/a.json", "contacts/a.json.x", "contacts/a-long-shared-name-1.json",
            "contacts/a-long-shared-name-10.json", "contacts/a-long-shared-name-2.json", "z~z",
        ]
        for path in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(path.utf8).write(to: url)
        }
        #expect(FolderWalk(root: root.path).files == files.sorted())
    }

    /// A folder of more files than are made into strings on one core: all of them, each once,
    /// in `String` order, whether the names are ASCII (sorted by their bytes) or not.
    @Test(arguments: ["", "é"]) func manyFilesAreListedOnEveryCoreAlike(accent: String) throws {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("store")
        let folder = root.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let names = (0..<(PathBytes.parallelCount + 5)).map { "card\(accent)-\(($0 * 7_919) % 9_000).vcf" }
        for name in names {
            let path = folder.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
        }
        let paths = names.map { "book/" + $0 }
        #expect(FolderWalk(root: root.path).files == paths.sorted())
        let unsorted = FolderWalk(root: root.path, sorted: false).files
        #expect(unsorted.count == paths.count && Set(unsorted) == Set(paths))
    }

    @Test func aMissingFolderHasNoFiles() throws {
        let walk = FolderWalk(root: try Fixtures.temporaryFolder().appendingPathComponent("none").path)
        #expect(walk.files.isEmpty && walk.folders.isEmpty)
    }

    /// A file whose name is not UTF-8 cannot be named in a message as it is: the walk sets it
    /// apart, and the reader refuses the site naming it.
    @Test func aNameThatIsNotUTF8IsSetApart() throws {
        let scratch = try Fixtures.temporaryFolder()
        let store = scratch.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: store.appendingPathComponent("contacts.json"))
        let folder = open(store.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(folder >= 0)
        defer { close(folder) }
        let name = (Array("bad-".utf8) + [0xFF] + Array(".vcf".utf8) + [0]).map { CChar(bitPattern: $0) }
        let made = openat(folder, name, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        try #require(made >= 0)
        close(made)
        let walk = FolderWalk(root: store.path)
        #expect(walk.misnamed == ["bad-\u{FFFD}.vcf"])
        #expect(walk.files == ["contacts.json"])
        #expect {
            try SiteReader(folder: scratch, displayPath: "site").read()
        } throws: { error in
            "\(error)".contains("cannot read site/store/bad-\u{FFFD}.vcf: its name is not UTF-8; rename it")
        }
    }
}
