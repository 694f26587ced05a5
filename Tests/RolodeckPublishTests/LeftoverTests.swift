import Foundation
import Synchronization
import Testing
@testable import RolodeckPublish
@testable import RolodeckTestSupport

#if canImport(Glibc)
import Glibc
#endif

/// What a publish leaves beside the output: nothing between builds, whatever happened; a
/// leftover it cannot remove is a warning, never a failure once the new site is in place; and a
/// stop asked for before the swap leaves the output as it was.
@Suite(.serialized) struct LeftoverTests {
    static func publish(
        _ files: [String: String], to output: URL, fingerprint: String? = nil, control: PublishControl = .none
    ) throws -> PublishReport {
        try Publisher(outputPath: output.path, control: control).publish(fingerprint: fingerprint) { writer in
            for (path, text) in files.sorted(by: { $0.key < $1.key }) {
                try writer.write(path, Array(text.utf8))
            }
        }
    }

    /// Every file under `root` with its text, the manifest left out.
    static func tree(_ root: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if relative != ".rolodeck" { result[relative] = try String(contentsOf: url, encoding: .utf8) }
        }
        return result
    }

    static func beside(_ output: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path).sorted()
    }

    @Test func nothingIsLeftBesideTheOutputAndOldFilesThereGo() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try Self.publish(["index.html": "v1"], to: output)
        #expect(try Self.beside(output) == ["site"])
        // What older versions kept there for good.
        let parent = output.deletingLastPathComponent()
        for name in [".site.rolodeck-lock", ".site.rolodeck-inputs"] {
            try Data().write(to: parent.appendingPathComponent(name))
        }
        _ = try Self.publish(["index.html": "v2"], to: output)
        #expect(try Self.beside(output) == ["site"])
        #expect(try Self.tree(output) == ["index.html": "v2"])
    }

    @Test func aParentFolderThatCannotBeWrittenIsExplained() throws {
        if let reason = Unremovable.unavailable {
            print("skipped: \(reason)")
            return
        }
        let parent = try Fixtures.temporaryFolder()
        let output = parent.appendingPathComponent("contacts")
        _ = try Self.publish(["index.html": "v1"], to: output)
        let undo = try Unremovable.make(parent)
        defer { undo() }
        do {
            _ = try Self.publish(["index.html": "v2"], to: output)
            Issue.record("the publish did not fail")
        } catch let error as PublishError {
            guard case .parentNotWritable(parent.path, output.path, _) = error.reason else {
                Issue.record("another failure: \(error)")
                return
            }
            #expect(error.description.hasPrefix(
                "rolodeck needs to write in \(parent.path) to swap the new site in atomically ("))
            #expect(error.description.hasSuffix(
                "make \(parent.path) writable by this user, or build into a folder inside a folder of its own, "
                    + "such as \(output.path)/site"))
        }
        undo()
        #expect(try Self.tree(output) == ["index.html": "v1"])
        #expect(try Self.beside(output) == ["contacts"])
    }

    /// An old site that this user cannot remove (built by root, say): the new one is published
    /// and the old one left with a warning; later builds warn about it and publish all the same.
    @Test func anOldSiteThatCannotBeRemovedLeavesTheNewOnePublished() throws {
        if let reason = Unremovable.unavailable {
            print("skipped: \(reason)")
            return
        }
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let parent = output.deletingLastPathComponent().path
        _ = try Self.publish(["index.html": "v1", "contacts/a.html": "A"], to: output)
        let undo = try Unremovable.make(output.appendingPathComponent("contacts"))
        let leftover = parent + "/.site.rolodeck-staging-\(getpid())"
        defer { undo(at: leftover + "/contacts") }

        let second = try Self.publish(["index.html": "v2", "contacts/b.html": "B"], to: output)
        #expect(try Self.tree(output) == ["index.html": "v2", "contacts/b.html": "B"])
        #expect(second.written == 3)
        guard case .oldSiteLeft(output.path, leftover, let failure) = second.warnings.first?.reason,
            second.warnings.count == 1
        else {
            Issue.record("not one warning about the old site: \(second.warnings)")
            return
        }
        #expect(failure.hasPrefix("cannot remove \(leftover)/contacts/"))
        #expect(second.warnings[0].description.hasPrefix(
            "the new site is published in \(output.path), but the old one could not be removed and is left in "
                + "\(leftover) ("))
        #expect(try Self.beside(output) == [".site.rolodeck-staging-\(getpid())", "site"])

        // The next build cannot remove it either: it says so, and publishes under another name.
        let third = try Self.publish(["index.html": "v3"], to: output)
        #expect(try Self.tree(output) == ["index.html": "v3"])
        #expect(third.warnings.map(\.reason) == [.earlierLeftover(leftover: leftover, failure: failure)])
        #expect(third.warnings[0].description.hasPrefix("\(leftover), left by an earlier build, could not be removed ("))
        #expect(try Self.beside(output) == [".site.rolodeck-staging-\(getpid())", "site"])

        // Once it can be removed, the next build does.
        undo(at: leftover + "/contacts")
        let fourth = try Self.publish(["index.html": "v4"], to: output)
        #expect(fourth.warnings.isEmpty)
        #expect(try Self.beside(output) == ["site"])
    }

    @Test func aStopBeforeTheSwapLeavesTheOutputAsItWas() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try Self.publish(["index.html": "v1", "contacts/a.html": "A"], to: output)
        let writes = Atomic(0)
        let control = PublishControl(willWrite: { writes.add(1, ordering: .relaxed) }, isCancelled: { true })
        #expect(throws: Publisher.Cancelled.self) {
            try Self.publish(["index.html": "v2", "contacts/b.html": "B"], to: output, control: control)
        }
        #expect(writes.load(ordering: .relaxed) == 1)
        #expect(try Self.tree(output) == ["index.html": "v1", "contacts/a.html": "A"])
        #expect(try Self.beside(output) == ["site"])
    }

    /// A publish with nothing to write writes nothing, so it never says it is about to.
    @Test func anUpToDateOutputIsNotAboutToBeWritten() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try Self.publish(["index.html": "v1"], to: output, fingerprint: "f1")
        let writes = Atomic(0)
        let control = PublishControl(willWrite: { writes.add(1, ordering: .relaxed) })
        let report = try Self.publish(["index.html": "v1"], to: output, fingerprint: "f1", control: control)
        #expect(report == PublishReport(unchanged: 2))
        #expect(writes.load(ordering: .relaxed) == 0)
        _ = try Self.publish(["index.html": "v2"], to: output, fingerprint: "f2", control: control)
        #expect(writes.load(ordering: .relaxed) == 1)
    }

    /// The lock is the parent folder's: a publish waits while another holder has it, and says so.
    @Test func aPublishWaitsForTheParentFoldersLock() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let parent = open(output.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(parent >= 0)
        defer { close(parent) }
        try #require(flock(parent, LOCK_EX | LOCK_NB) == 0)
        let waited = Atomic(0)
        // The holder lets go once the publish says it waits; had it not waited, it would not say.
        let control = PublishControl(waiting: {
            waited.add(1, ordering: .relaxed)
            flock(parent, LOCK_UN)
        })
        _ = try Self.publish(["index.html": "v1"], to: output, control: control)
        #expect(waited.load(ordering: .relaxed) == 1)
        #expect(try Self.tree(output) == ["index.html": "v1"])
        _ = try Self.publish(["index.html": "v2"], to: output, control: control)
        #expect(waited.load(ordering: .relaxed) == 1)
    }

    @Test func statusesAreRecordedInPlaceWithTheManifestsTime() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try Self.publish(["index.html": "home", "contacts/a.html": "A"], to: output, fingerprint: "f1")
        let manifest = output.appendingPathComponent(".rolodeck")
        let old = try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date
        let before = try Data(contentsOf: manifest)
        let publisher = Publisher(outputPath: output.path)
        #expect(publisher.upToDateFileCount(statuses: "s1") == nil)
        #expect(try publisher.record(statuses: "s1", fingerprint: "f2") == false)
        #expect(try publisher.record(statuses: "s1", fingerprint: "f1"))
        #expect(try publisher.record(statuses: "s1", fingerprint: "f1") == false)
        let after = try Data(contentsOf: manifest)
        #expect(OutputManifest(bytes: Array(after))?.files.map(\.path) == OutputManifest(bytes: Array(before))?.files.map(\.path))
        #expect(OutputManifest.fingerprint(in: Array(after)) == "f1")
        #expect(OutputManifest.statuses(in: Array(after)) == "s1")
        #expect(try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date == old)
        #expect(publisher.upToDateFileCount(statuses: "s1") == 3)
        #expect(publisher.upToDateFileCount(fingerprint: "f1") == 3)
        // Recorded again, the digest replaces the one there.
        #expect(try publisher.record(statuses: "s2", fingerprint: "f1"))
        #expect(publisher.upToDateFileCount(statuses: "s1") == nil)
        #expect(publisher.upToDateFileCount(statuses: "s2") == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
                == [".rolodeck", "contacts", "index.html"])
    }

    /// Recording the statuses never waits for another build, which is about to replace the
    /// output anyway: it records nothing then.
    @Test func statusesAreNotRecordedWhileAnotherBuildHoldsTheLock() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try Self.publish(["index.html": "home"], to: output, fingerprint: "f1")
        let parent = open(output.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(parent >= 0)
        defer { close(parent) }
        try #require(flock(parent, LOCK_EX | LOCK_NB) == 0)
        let publisher = Publisher(outputPath: output.path)
        #expect(try publisher.record(statuses: "s1", fingerprint: "f1") == false)
        #expect(publisher.upToDateFileCount(statuses: "s1") == nil)
        flock(parent, LOCK_UN)
        #expect(try publisher.record(statuses: "s1", fingerprint: "f1"))
        #expect(publisher.upToDateFileCount(statuses: "s1") == 2)
    }
}
