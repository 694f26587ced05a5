import Foundation
import Testing
import RolodeckTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What `rolodeck build` says about the folder that holds the output: that it must be writable,
/// and what it left there when it could not remove an old site.
@Suite(.serialized) struct LeftoverTests {
    /// The output's parent folder cannot be written (a web root of root's): the error says that
    /// the swap needs it, and what to do.
    @Test func anUnwritableParentFolderIsExplained() throws {
        if let reason = Unremovable.unavailable {
            print("skipped: \(reason)")
            return
        }
        let parent = try CLI.temporaryFolder()
        let out = parent.appendingPathComponent("contacts")
        let demo = CLI.packageRoot.appendingPathComponent("Examples/demo").path
        #expect(try CLI.run(["build", "-q", "--site", demo, "--out", out.path]).status == 0)
        let before = try CLI.contents(out)
        let site = try CLI.copyOfDemo()
        try Data(#"{"title": "New"}"#.utf8).write(to: site.appendingPathComponent("rolodeck.json"))
        let undo = try Unremovable.make(parent)
        defer { undo() }
        let result = try CLI.run(["build", "--site", site.path, "--out", out.path])
        undo()
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("error: rolodeck needs to write in \(parent.path) to swap the new site in atomically (") == true)
        #expect(lines.first?.hasSuffix(
            "make \(parent.path) writable by this user, or build into a folder inside a folder of its own, "
                + "such as \(out.path)/site") == true)
        #expect(lines.last == "error: build failed; \(out.path) was left as it was")
        #expect(try CLI.contents(out) == before)
    }

    /// The bug docs/deploy.md ran into: the old site belongs to another user (a build run as
    /// root), so the next build swaps its site in and cannot remove the old one. It says so as a
    /// warning, with status 0, since its site is published; later builds warn about the leftover
    /// and publish, under another staging name; once it can be removed, the next build does.
    @Test func anOldSiteOfAnotherUserIsLeftWithAWarning() throws {
        if let reason = Unremovable.unavailable {
            print("skipped: \(reason)")
            return
        }
        let folder = try CLI.temporaryFolder()
        let out = folder.appendingPathComponent("out")
        let site = try CLI.copyOfDemo()
        #expect(try CLI.run(["build", "-q", "--site", site.path, "--out", out.path]).status == 0)
        let undo = try Unremovable.make(out.appendingPathComponent("contacts"))

        func build(_ title: String) throws -> (result: CLI.Result, leftovers: [String]) {
            try Data(#"{"title": "\#(title)"}"#.utf8).write(to: site.appendingPathComponent("rolodeck.json"))
            let result = try CLI.run(["build", "--site", site.path, "--out", out.path])
            let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
            #expect(index.contains(title), "\(title) is not published")
            let beside = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            return (result, beside.filter { $0 != "out" })
        }
        let second = try build("Second")
        #expect(second.result.status == 0)
        #expect(second.result.stdout.hasPrefix("Built 80 contacts"))
        let leftover = try #require(second.leftovers.first)
        #expect(second.leftovers == [leftover] && leftover.hasPrefix(".out.rolodeck-staging-"))
        let leftoverPath = folder.path + "/" + leftover
        defer { undo(at: leftoverPath + "/contacts") }
        #expect(second.result.stderr.hasPrefix(
            "warning: the new site is published in \(out.path), but the old one could not be removed and is "
                + "left in \(leftoverPath) (cannot remove \(leftoverPath)/contacts/"), "\(second.result.stderr)")
        #expect(!second.result.stderr.contains("error"))

        let third = try build("Third")
        #expect(third.result.status == 0)
        #expect(third.leftovers == [leftover])
        #expect(third.result.stderr.hasPrefix(
            "warning: \(leftoverPath), left by an earlier build, could not be removed (cannot remove "
                + "\(leftoverPath)/contacts/"), "\(third.result.stderr)")

        undo(at: leftoverPath + "/contacts")
        let fourth = try build("Fourth")
        #expect(fourth.result.status == 0)
        #expect(fourth.result.stderr.isEmpty)
        #expect(fourth.leftovers.isEmpty)
    }
}
