import Foundation
import Testing
@testable import RolodeckBuild
@testable import RolodeckCore
@testable import RolodeckPublish
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// `SiteBuild.build`, the pipeline `rolodeck build` runs: it publishes what the site renders in
/// memory, stops early for an output made from the same input, and writes nothing for bad input.
@Suite struct SiteBuildTests {
    static let generator = Array("rolodeck test".utf8)
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    /// A copy of the demo site, and the build of it into `out`.
    static func demo() throws -> (site: URL, out: URL, build: SiteBuild) {
        let scratch = try Fixtures.temporaryFolder()
        let site = scratch.appendingPathComponent("site")
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: site)
        let out = scratch.appendingPathComponent("out")
        let build = SiteBuild(folder: site, displayPath: "site", generator: generator) { _ in out.path }
        return (site, out, build)
    }

    /// Every file under `root` with its bytes, the manifest left out.
    static func files(_ root: URL) throws -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            if path != ".rolodeck" { result[path] = Array(try Data(contentsOf: url)) }
        }
        return result
    }

    @Test func publishesWhatTheSiteRendersInMemory() throws {
        let (_, out, build) = try Self.demo()
        // SOURCE_DATE_EPOCH sets the footer's "last updated" date: 2026-11-02, in UTC.
        build.sourceDateEpoch = 1_793_620_800
        let result = build.build(today: Self.today)
        guard case .published(let report) = result.outcome else {
            Issue.record("the build did not publish: \(result.outcome)")
            return
        }
        #expect(result.isWhole)
        #expect(result.outputPath == out.path)
        #expect(result.counts == BuildResult.Counts(contacts: 80, groups: 10, todos: 18))
        let written = try Self.files(out)
        #expect(report.written == written.count + 1)
        let inMemory = try build.check().renderFiles(
            today: Self.today, lastUpdated: PartialDate(year: 2026, month: 11, day: 2))
        #expect(written.keys.sorted() == inMemory.keys.sorted())
        for (path, bytes) in inMemory where written[path] != bytes {
            Issue.record("\(path) on disk differs from the page rendered in memory")
        }
    }

    /// A store that is the site folder (`"store": "."`) holds the output, and maybe an earlier
    /// output too: the build reads neither (the vCards it wrote would come back as contacts, each
    /// card twice), so building again is up to date and another output beside it builds the
    /// same site.
    @Test func aStoreThatHoldsItsOutputsDoesNotReadThem() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = scratch.appendingPathComponent("site")
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: site)
        let fileManager = FileManager.default
        for name in try fileManager.contentsOfDirectory(atPath: site.appendingPathComponent("store").path) {
            try fileManager.moveItem(
                at: site.appendingPathComponent("store/" + name), to: site.appendingPathComponent(name))
        }
        try fileManager.removeItem(at: site.appendingPathComponent("store"))
        let configURL = site.appendingPathComponent("rolodeck.json")
        let config = try String(contentsOf: configURL, encoding: .utf8)
        #expect(config.contains(#""store": "store""#))
        try config.replacingOccurrences(of: #""store": "store""#, with: #""store": ".""#)
            .write(to: configURL, atomically: true, encoding: .utf8)
        func build(into name: String) -> BuildResult {
            let out = site.appendingPathComponent(name)
            let build = SiteBuild(folder: site, displayPath: "site", generator: Self.generator) { _ in
                out.path
            }
            let result = build.build(today: Self.today)
            #expect(result.warnings.isEmpty, "\(result.warnings)")
            return result
        }
        let first = build(into: "_site")
        #expect(first.counts == BuildResult.Counts(contacts: 80, groups: 10, todos: 18))
        guard case .upToDate = build(into: "_site").outcome else {
            Issue.record("the second build read its own output")
            return
        }
        let beside = build(into: "public/site")
        #expect(beside.counts == first.counts)
        let (other, own) = (site.appendingPathComponent("public/site"), site.appendingPathComponent("_site"))
        #expect(try Self.files(other) == Self.files(own))
    }

    /// A copy of the demo site whose first contact has a photo, built into `out`: the
    /// thumbnail's file, the bytes the build made for it, and the photo's digest.
    static func photoDemo() throws -> (
        site: URL, out: URL, build: SiteBuild, thumbnail: URL, made: [UInt8], digest: String
    ) {
        let (site, out, build) = try Self.demo()
        let photo = try Fixtures.photo("face.png")
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("store/photos"), withIntermediateDirectories: true)
        try Data(photo).write(to: site.appendingPathComponent("store/photos/face.png"))
        let contactsURL = site.appendingPathComponent("store/contacts.json")
        let contacts = try String(contentsOf: contactsURL, encoding: .utf8)
        let first = try #require(contacts.range(of: #""id": "#))
        try contacts.replacingCharacters(in: first, with: #""photo": "photos/face.png", "id": "#)
            .write(to: contactsURL, atomically: true, encoding: .utf8)
        guard case .published = build.build(today: Self.today).outcome else {
            throw Failure("the build did not publish")
        }
        let thumbnailPath = try #require(
            try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("photos").path)
                .first { $0.hasSuffix("-96.webp") })
        let thumbnail = out.appendingPathComponent("photos/" + thumbnailPath)
        let made = Array(try Data(contentsOf: thumbnail))
        return (site, out, build, thumbnail, made, SHA256.hex(of: photo))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Gives the file at `url` other bytes of the same size, written back with an earlier
    /// time, so that its output stays intact (its files' sizes, and times no later than the
    /// manifest's): only a build that reads the file back takes them in. Returns them.
    static func giveOtherBytes(_ url: URL) throws -> [UInt8] {
        let bytes = Array(try Data(contentsOf: url))
        let other = Array(bytes.reversed())
        #expect(other != bytes)
        let time = try #require(
            try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
        try Data(other).write(to: url)
        try FileManager.default.setAttributes(
            [.modificationDate: time.addingTimeInterval(-1)], ofItemAtPath: url.path)
        return other
    }

    /// Records another maker of the photos' files in the output's manifest, as a build by
    /// another rolodeck or with other libraries would have; the output stays intact.
    static func recordAnotherPhotosMaker(in out: URL) throws {
        let url = out.appendingPathComponent(".rolodeck")
        let text = try String(contentsOf: url, encoding: .utf8)
        let maker = try #require(OutputManifest(bytes: Array(text.utf8))?.photos)
        try text.replacingOccurrences(of: "photos " + maker + "\n", with: "photos another\n")
            .write(to: url, atomically: false, encoding: .utf8)
        #expect(OutputManifest(bytes: Array(try Data(contentsOf: url)))?.photos == "another")
    }

    /// A build whose inputs changed takes each photo's files from an intact output whose
    /// manifest says it was made as this build makes them (the same rolodeck and image
    /// libraries), instead of making every thumbnail again; from any other output, it makes them.
    @Test func aBuildAfterAChangeTakesThePhotosFromAnOutputMadeTheSameWay() throws {
        let demo = try Self.photoDemo()
        let manifest = demo.out.appendingPathComponent(".rolodeck")
        let maker = try #require(SiteBuild.photosMaker(generator: Self.generator))
        #expect(OutputManifest(bytes: Array(try Data(contentsOf: manifest)))?.photos == maker)
        func thumbnail(builtOn day: Int) throws -> [UInt8] {
            let result = demo.build.build(today: PartialDate(year: 2026, month: 12, day: day))
            guard case .published = result.outcome else { throw Failure("no publish: \(result.outcome)") }
            return Array(try Data(contentsOf: demo.thumbnail))
        }
        let other = try Self.giveOtherBytes(demo.thumbnail)
        #expect(try thumbnail(builtOn: 1) == other)
        #expect(OutputManifest(bytes: Array(try Data(contentsOf: manifest)))?.photos == maker)
        try Self.recordAnotherPhotosMaker(in: demo.out)
        #expect(try thumbnail(builtOn: 2) == demo.made)
        // The same maker, but a file added to the output since: not intact, so made again.
        _ = try Self.giveOtherBytes(demo.thumbnail)
        try Data("stray".utf8).write(to: demo.out.appendingPathComponent("stray.txt"))
        #expect(try thumbnail(builtOn: 3) == demo.made)
    }

    /// `check` takes each photo's files from an output made the same way, as a build does,
    /// instead of making every thumbnail to see that the photo can be read; from an output of
    /// another maker, it makes them.
    @Test func aCheckTakesThePhotosFromAnOutputMadeTheSameWay() throws {
        let demo = try Self.photoDemo()
        let other = try Self.giveOtherBytes(demo.thumbnail)
        #expect(try demo.build.check().photos.files[demo.digest]?.thumbnailBytes == other)
        try Self.recordAnotherPhotosMaker(in: demo.out)
        #expect(try demo.build.check().photos.files[demo.digest]?.thumbnailBytes == demo.made)
    }

    /// A watch's first build reads each photo's thumbnail back from an output made as it makes
    /// them (a thumbnail here is given other bytes of the same size, which only a read back
    /// takes in), whether the output is up to date or not; on an output whose manifest names
    /// another maker, it makes them.
    @Test func aWatchStartedOnItsOwnOutputReadsThePhotosBack() throws {
        let demo = try Self.photoDemo()
        let other = try Self.giveOtherBytes(demo.thumbnail)
        func watchedThumbnail(today: PartialDate) throws -> [UInt8]? {
            let watch = SiteBuild(folder: demo.site, displayPath: "site", generator: Self.generator) { _ in
                demo.out.path
            }
            let result = watch.rebuild(today: today)
            #expect(result.counts.contacts == 80)
            return try #require(watch.watched).photoCache.files(demo.digest)?.thumbnailBytes
        }
        #expect(try watchedThumbnail(today: Self.today) == other)
        #expect(try watchedThumbnail(today: PartialDate(year: 2026, month: 12, day: 1)) == other)
        try Self.recordAnotherPhotosMaker(in: demo.out)
        #expect(try watchedThumbnail(today: PartialDate(year: 2026, month: 12, day: 2)) == demo.made)
    }

    /// A watch's save patches the output and records its photos' maker in the manifest, as a
    /// whole build does, so that the next build after the watch takes the photos' files back.
    @Test func aWatchSaveRecordsWhatMadeThePhotos() throws {
        let demo = try Self.photoDemo()
        let maker = try #require(SiteBuild.photosMaker(generator: Self.generator))
        let watch = SiteBuild(folder: demo.site, displayPath: "site", generator: Self.generator) { _ in
            demo.out.path
        }
        _ = watch.rebuild(today: Self.today)
        let contactsURL = demo.site.appendingPathComponent("store/contacts.json")
        let contacts = try String(contentsOf: contactsURL, encoding: .utf8)
        #expect(contacts.contains(#""familyName": "Müller""#))
        try contacts.replacingOccurrences(of: #""familyName": "Müller""#, with: #""familyName": "Möller""#)
            .write(to: contactsURL, atomically: true, encoding: .utf8)
        let saved = watch.rebuild(today: Self.today)
        guard case .published = saved.outcome, !saved.isWhole else {
            throw Failure("the save did not patch the output: \(saved.outcome), whole: \(saved.isWhole)")
        }
        let manifest = demo.out.appendingPathComponent(".rolodeck")
        #expect(OutputManifest(bytes: Array(try Data(contentsOf: manifest)))?.photos == maker)
        let other = try Self.giveOtherBytes(demo.thumbnail)
        _ = demo.build.build(today: PartialDate(year: 2026, month: 12, day: 1))
        #expect(Array(try Data(contentsOf: demo.thumbnail)) == other)
    }

    /// A store moved into the output, or a site folder inside it, is never published over:
    /// every build replaces the output whole, and the last one deleted the store with it. The
    /// build and the watch fail with a message naming what lies where, and write nothing.
    @Test func whatLiesInsideTheOutputIsNeverPublishedOver() throws {
        let (site, out, build) = try Self.demo()
        guard case .published = build.build(today: Self.today).outcome else {
            throw Failure("the first build did not publish")
        }
        let moved = out.appendingPathComponent("data/store")
        try FileManager.default.createDirectory(
            at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: site.appendingPathComponent("store"), to: moved)
        let configURL = site.appendingPathComponent("rolodeck.json")
        try String(contentsOf: configURL, encoding: .utf8)
            .replacingOccurrences(of: #""store": "store""#, with: #""store": "\#(moved.path)""#)
            .write(to: configURL, atomically: true, encoding: .utf8)
        let before = try Self.files(out)
        #expect(before["data/store/contacts.json"] != nil)
        let watch = SiteBuild(folder: site, displayPath: "site", generator: Self.generator) { _ in out.path }
        for result in [
            build.build(today: PartialDate(year: 2026, month: 12, day: 1)),
            watch.rebuild(today: PartialDate(year: 2026, month: 12, day: 1)),
        ] {
            guard case .failed(let error) = result.outcome else {
                Issue.record("a store inside the output was published over: \(result.outcome)")
                continue
            }
            #expect(
                error.diagnostics.map(\.description) == [
                    "error: the store (\(moved.path)) lies inside the output \(out.path), which every build "
                        + "replaces whole: publishing would delete it; move it out of the output, or choose "
                        + #"another output ("output" in rolodeck.json, or --out)"#
                ])
        }
        #expect(try Self.files(out) == before)
        // The site folder inside the output: its templates and config would go the same way.
        try FileManager.default.moveItem(at: moved, to: site.appendingPathComponent("store"))
        try String(contentsOf: configURL, encoding: .utf8)
            .replacingOccurrences(of: #""store": "\#(moved.path)""#, with: #""store": "store""#)
            .write(to: configURL, atomically: true, encoding: .utf8)
        let parent = site.deletingLastPathComponent()
        let around = SiteBuild(folder: site, displayPath: "site", generator: Self.generator) { _ in
            parent.path
        }
        guard case .failed(let error) = around.build(today: Self.today).outcome else {
            throw Failure("a build into the folder that holds the site did not fail")
        }
        let message = error.diagnostics.first?.description ?? ""
        let expected = "error: the site folder lies inside the output \(parent.path),"
        #expect(message.hasPrefix(expected), "\(message)")
    }

    @Test func aSecondBuildOfTheSameInputIsUpToDate() throws {
        let (site, out, build) = try Self.demo()
        _ = build.build(today: Self.today)
        let count = try Self.files(out).count + 1
        guard case .upToDate(let files) = build.build(today: Self.today).outcome else {
            Issue.record("the second build was not up to date")
            return
        }
        #expect(files == count)
        // Another day changes ages, and another rolodeck may render differently: both build.
        guard case .published = build.build(today: PartialDate(year: 2026, month: 12, day: 1)).outcome else {
            Issue.record("a build for another day did not publish")
            return
        }
        let other = SiteBuild(folder: site, displayPath: "site", generator: Array("other".utf8)) { _ in
            out.path
        }
        guard case .published = other.build(today: PartialDate(year: 2026, month: 12, day: 1)).outcome else {
            Issue.record("another generator's build did not publish")
            return
        }
    }

    @Test func badInputWritesNothingAndSaysWhere() throws {
        let (site, out, build) = try Self.demo()
        _ = build.build(today: Self.today)
        let before = try Self.files(out)
        let groups = site.appendingPathComponent("store/groups.json")
        try Data("[{\"id\": \"x\", \"name\": }]".utf8).write(to: groups)
        guard case .failed(let error) = build.build(today: Self.today).outcome else {
            Issue.record("a build of a broken store did not fail")
            return
        }
        let syntax = error.diagnostics.filter {
            $0.description.hasPrefix("site/store/groups.json:1:22: error: unexpected")
        }
        #expect(syntax.count == 1, "\(error.diagnostics)")
        #expect(try Self.files(out) == before)
        #expect(throws: DiagnosticError.self) { try build.check() }
    }
}
