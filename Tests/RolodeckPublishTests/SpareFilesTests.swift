import Foundation
import Testing
@testable import RolodeckPublish
@testable import RolodeckTestSupport

/// A watch makes its large files (`contacts.vcf`) through spares: the version before last,
/// written into where it differs and swapped in. What a reader sees is what a whole write gives,
/// and a spare anyone else holds is left alone.
@Suite final class SpareFilesTests {
    let output: URL
    var files: [String: Int] = [:]
    var manifest: [UInt8]? = nil
    /// Not caught up, unless a test says so: each spare stays the version before last.
    var spares = SpareFiles(minimumSize: 0, catchesUp: false)

    init() throws {
        output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let parts = PageWriterPartsTests.parts()
        _ = try Publisher(outputPath: output.path).publish { writer in
            try writer.write("contacts.vcf", parts: parts)
            try writer.write("index.html", Array("home".utf8))
        }
        files = ["contacts.vcf": parts.reduce(0) { $0 + $1.count }, "index.html": 4]
    }

    var file: URL { output.appendingPathComponent("contacts.vcf") }

    /// The spare folder beside the output, when there is one.
    var spareFolder: URL? {
        let parent = output.deletingLastPathComponent()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        return names.first { $0.hasPrefix(".site.rolodeck-staging-") && $0.hasSuffix("-spares") }
            .map { parent.appendingPathComponent($0) }
    }

    func inode(_ url: URL) throws -> UInt64 {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? UInt64)
    }

    func patch(_ parts: [[UInt8]]) throws -> PublishReport {
        try OutputPatcher(outputPath: output.path).patch(
            fingerprint: "test", files: &files, manifest: &manifest, spares: spares
        ) {
            writer, _ in
            try writer.write("contacts.vcf", parts: parts, differ: true)
            return []
        }
    }

    func contents(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// Whether the file system of the tests' scratch folder grants write leases, without which
    /// no spare is written into (every version is then written whole, as before spares).
    static let leasesAreGranted: Bool = {
        guard let folder = try? Fixtures.temporaryFolder("leases") else { return false }
        let path = folder.appendingPathComponent("probe").path
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // F_SETLEASE (1024), which Swift's Glibc does not name.
        let granted = fcntl(fd, 1024, Int32(F_WRLCK)) == 0
        if granted { _ = fcntl(fd, 1024, Int32(F_UNLCK)) }
        return granted
    }()

    /// Writes a few bytes over the start of the file at `url`, in place.
    func scribble(on url: URL) throws {
        let writer = try FileHandle(forWritingTo: url)
        try writer.write(contentsOf: Data("JUNK".utf8))
        try writer.close()
    }

    /// `parts` with a byte added to the end of the part at `index`.
    static func lengthened(_ parts: [[UInt8]], at index: Int) -> [[UInt8]] {
        var parts = parts
        parts[index].append(0x0a)
        return parts
    }

    /// Each version in turn is in place whole, whether it is as long as the one before, longer
    /// or shorter; from the second patch on, the file in place is the version before last,
    /// written into (the two files take turns).
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func everyVersionIsInPlaceWholeAndTheTwoFilesTakeTurns() throws {
        let built = try inode(file)
        let versions: [[[UInt8]]] = [
            PageWriterPartsTests.parts(changing: 3),
            PageWriterPartsTests.parts(changing: 600),
            PageWriterPartsTests.parts(changing: 1_199) + [Array("END:VCARD\r\n".utf8)],
            Array(PageWriterPartsTests.parts(changing: 10).dropLast(5)),
            [Array(PageWriterPartsTests.parts().joined())],
            // One large part (as the manifest is) of the same size: written only from the first
            // byte that differs to the last.
            [Array(PageWriterPartsTests.parts(changing: 600).joined())],
            [Array(PageWriterPartsTests.parts(changing: 1_100).joined())],
            [Array(PageWriterPartsTests.parts(changing: 5).joined())],
            PageWriterPartsTests.parts(),
            // Of the same size as the one before: written only from the first part that
            // differs to the last.
            PageWriterPartsTests.parts(changing: 600),
            PageWriterPartsTests.parts(changing: 3),
            PageWriterPartsTests.parts(changing: 1_199),
            PageWriterPartsTests.parts(changing: 0),
            // A byte longer early on: every part after it moves, though the same as before.
            PageWriterPartsTests.parts(changing: 2),
            Self.lengthened(PageWriterPartsTests.parts(), at: 5),
        ]
        var inodes: [UInt64] = []
        var previousManifest = try contents(output.appendingPathComponent(".rolodeck"))
        let manifestFile = output.appendingPathComponent(".rolodeck")
        for (index, version) in versions.enumerated() {
            let report = try patch(version)
            #expect(report == PublishReport(written: 1, unchanged: 0, removed: 0), "version \(index)")
            #expect(try contents(file) == Array(version.joined()), "version \(index)")
            #expect(files["contacts.vcf"] == version.reduce(0) { $0 + $1.count }, "version \(index)")
            inodes.append(try inode(file))
            // The manifest, made through a spare too, is the text the patch made.
            #expect(try contents(manifestFile) == manifest, "version \(index)")
            #expect(
                try String(contentsOf: manifestFile, encoding: .utf8).contains(
                    "\n\(files["contacts.vcf"]!) contacts.vcf\n"))
            // The manifest it replaced is its spare.
            let spare = try #require(spares.spare(of: ".rolodeck"), "version \(index)")
            #expect(try contents(URL(fileURLWithPath: spare)) == previousManifest, "version \(index)")
            previousManifest = try contents(manifestFile)
        }
        // The first was made new; after that the build's file and it take turns.
        #expect(inodes[0] != built)
        #expect(inodes[1] == built)
        #expect(inodes[2] == inodes[0])
        #expect(inodes[3] == built)

        // The version before is the spare, in a folder only its owner can read.
        let folder = try #require(spareFolder)
        let mode = try #require(
            try FileManager.default.attributesOfItem(atPath: folder.path)[.posixPermissions] as? Int)
        #expect(mode == 0o700)
        let spare = try #require(spares.spare(of: "contacts.vcf"))
        #expect(spare.hasPrefix(folder.path + "/"))
        #expect(try contents(URL(fileURLWithPath: spare)) == Array(versions[versions.count - 2].joined()))

        spares.removeAll()
        #expect(spareFolder == nil)
    }

    /// Caught up once each save is done, the spare holds the version in place (the next save
    /// writes into it from its own change on), and every version is in place whole.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func aCaughtUpSpareHoldsTheVersionInPlace() throws {
        spares = SpareFiles(minimumSize: 0)
        let versions: [[[UInt8]]] = [
            PageWriterPartsTests.parts(changing: 600),
            PageWriterPartsTests.parts(changing: 3),
            Self.lengthened(PageWriterPartsTests.parts(), at: 900),
            PageWriterPartsTests.parts(changing: 1_199) + [Array("END:VCARD\r\n".utf8)],
            Array(PageWriterPartsTests.parts(changing: 10).dropLast(5)),
            PageWriterPartsTests.parts(changing: 10),
        ]
        var inPlace = try inode(file)
        for (index, version) in versions.enumerated() {
            _ = try patch(version)
            #expect(try contents(file) == Array(version.joined()), "version \(index)")
            // The spare was the file in place before: written into, not made anew.
            let spare = try #require(spares.spare(of: "contacts.vcf"), "version \(index)")
            #expect(try inode(URL(fileURLWithPath: spare)) == inPlace, "version \(index)")
            inPlace = try inode(file)
            spares.waitForCatchUps()
            #expect(try contents(URL(fileURLWithPath: spare)) == Array(version.joined()), "version \(index)")
            let manifestSpare = try #require(spares.spare(of: ".rolodeck"), "version \(index)")
            #expect(try contents(URL(fileURLWithPath: manifestSpare)) == manifest, "version \(index)")
        }
        spares.removeAll()
    }

    /// A spare someone still reads (a download of the version before last) is not written
    /// into: they go on reading the bytes they opened, and the new version is a file of its own.
    /// Nor is it caught up: it stays as it was.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"),
        arguments: [false, true])
    func aSpareSomeoneHasOpenIsLeftAlone(catchingUp: Bool) throws {
        spares = SpareFiles(minimumSize: 0, catchesUp: catchingUp)
        let built = try contents(file)
        let builtInode = try inode(file)
        let reader = try FileHandle(forReadingFrom: file)
        defer { try? reader.close() }
        _ = try patch(PageWriterPartsTests.parts(changing: 3))
        if catchingUp {
            spares.waitForCatchUps()
            let spare = try #require(spares.spare(of: "contacts.vcf"))
            #expect(try contents(URL(fileURLWithPath: spare)) == built)
        }
        let next = PageWriterPartsTests.parts(changing: 600)
        _ = try patch(next)
        #expect(try contents(file) == Array(next.joined()))
        #expect(try inode(file) != builtInode)
        try reader.seek(toOffset: 0)
        #expect(Array(try reader.readToEnd() ?? Data()) == built)
        spares.removeAll()
    }

    /// A spare with another name (a hard link someone made) is not written into either.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func aSpareWithAnotherLinkIsLeftAlone() throws {
        let built = try contents(file)
        _ = try patch(PageWriterPartsTests.parts(changing: 3))
        let spare = try #require(spares.spare(of: "contacts.vcf"))
        let linked = output.deletingLastPathComponent().appendingPathComponent("kept.vcf")
        try FileManager.default.linkItem(at: URL(fileURLWithPath: spare), to: linked)
        let next = PageWriterPartsTests.parts(changing: 600)
        _ = try patch(next)
        #expect(try contents(file) == Array(next.joined()))
        #expect(try contents(linked) == built)
        spares.removeAll()
    }

    /// A version in place that someone else wrote into is not taken for the one this put there:
    /// once it is the spare, it is written whole.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func aVersionSomeoneElseWroteIntoIsWrittenWhole() throws {
        _ = try patch(PageWriterPartsTests.parts(changing: 3))
        try scribble(on: file)
        _ = try patch(PageWriterPartsTests.parts(changing: 600))
        let last = PageWriterPartsTests.parts(changing: 900)
        _ = try patch(last)
        #expect(try contents(file) == Array(last.joined()))
        spares.removeAll()
    }

    /// A spare someone wrote into (it is no longer the file this left there) is written whole.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func aSpareSomeoneWroteIntoIsWrittenWhole() throws {
        _ = try patch(PageWriterPartsTests.parts(changing: 3))
        _ = try patch(PageWriterPartsTests.parts(changing: 600))
        let spare = try #require(spares.spare(of: "contacts.vcf"))
        try scribble(on: URL(fileURLWithPath: spare))
        // Differs from the spare's version (part 3 changed) only from part 3 on.
        let last = PageWriterPartsTests.parts(changing: 1_100)
        _ = try patch(last)
        #expect(try contents(file) == Array(last.joined()))
        spares.removeAll()
    }

    /// A whole publish removes the spare folder, as it removes any staging folder left beside
    /// the output; the next patch makes it again and writes the file whole.
    @Test func aWholePublishRemovesTheSparesAndPatchesGoOn() throws {
        _ = try patch(PageWriterPartsTests.parts(changing: 3))
        #expect(spareFolder != nil)
        let republished = PageWriterPartsTests.parts(changing: 7)
        _ = try Publisher(outputPath: output.path).publish { writer in
            try writer.write("contacts.vcf", parts: republished)
            try writer.write("index.html", Array("home".utf8))
        }
        #expect(spareFolder == nil)
        manifest = nil
        for changed in [600, 9] {
            let next = PageWriterPartsTests.parts(changing: changed)
            _ = try patch(next)
            #expect(try contents(file) == Array(next.joined()), "part \(changed)")
        }
        #expect(spareFolder != nil)
        spares.removeAll()
    }

    /// Spares primed from the output a whole build wrote (as a watch primes them once it has
    /// nothing to do): the first patch writes into the copy of `contacts.vcf` and of the manifest
    /// instead of new files, and from then on the copy and the build's file take turns.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func primedSparesTakeTheFirstPatch() throws {
        let manifestFile = output.appendingPathComponent(".rolodeck")
        let built = try contents(file)
        let builtInode = try inode(file)
        try OutputPatcher(outputPath: output.path).primeSpares(
            spares, files: [(path: "contacts.vcf", parts: PageWriterPartsTests.parts())])
        let primed = URL(fileURLWithPath: try #require(spares.spare(of: "contacts.vcf")))
        #expect(try contents(primed) == built)
        let primedManifest = URL(fileURLWithPath: try #require(spares.spare(of: ".rolodeck")))
        #expect(try contents(primedManifest) == (try contents(manifestFile)))
        let copies = (vcf: try inode(primed), manifest: try inode(primedManifest))
        // Primed again, nothing changes: the spares are kept as they are.
        try OutputPatcher(outputPath: output.path).primeSpares(
            spares, files: [(path: "contacts.vcf", parts: PageWriterPartsTests.parts())])
        #expect(try inode(URL(fileURLWithPath: try #require(spares.spare(of: "contacts.vcf")))) == copies.vcf)

        var inodes: [UInt64] = []
        var manifestInodes: [UInt64] = []
        for changed in [600, 3, 900] {
            let version = PageWriterPartsTests.parts(changing: changed)
            _ = try patch(version)
            #expect(try contents(file) == Array(version.joined()), "part \(changed)")
            #expect(try contents(manifestFile) == manifest, "part \(changed)")
            inodes.append(try inode(file))
            manifestInodes.append(try inode(manifestFile))
        }
        #expect(inodes == [copies.vcf, builtInode, copies.vcf])
        #expect(manifestInodes[0] == copies.manifest)
        #expect(manifestInodes[2] == copies.manifest)
        spares.removeAll()
    }

    /// No spare is primed of a file that does not hold the bytes given for it (someone wrote
    /// into it since the build), nor of one smaller than spares are kept for; the patches after
    /// write such files whole, as before.
    @Test(
        .enabled(
            if: SpareFilesTests.leasesAreGranted, "the scratch folder's file system grants no write leases"))
    func noSpareIsPrimedOfAFileThatDiffersOrIsSmall() throws {
        try scribble(on: file)
        try OutputPatcher(outputPath: output.path).primeSpares(
            spares, files: [(path: "contacts.vcf", parts: PageWriterPartsTests.parts())])
        #expect(spares.spare(of: "contacts.vcf") == nil)
        #expect(spares.spare(of: ".rolodeck") != nil)
        let version = PageWriterPartsTests.parts(changing: 600)
        _ = try patch(version)
        #expect(try contents(file) == Array(version.joined()))
        spares.removeAll()

        let large = SpareFiles(minimumSize: 1 << 30)
        try OutputPatcher(outputPath: output.path).primeSpares(
            large, files: [(path: "contacts.vcf", parts: version)])
        #expect(large.spare(of: "contacts.vcf") == nil)
        #expect(large.spare(of: ".rolodeck") == nil)
        #expect(spareFolder == nil)
    }

    /// A spare folder a killed watch left beside the output is removed when this one makes its
    /// own; another output's is left alone.
    @Test func aKilledWatchsSparesAreRemoved() throws {
        let parent = output.deletingLastPathComponent()
        let left = parent.appendingPathComponent(".site.rolodeck-staging-999999-spares")
        let other = parent.appendingPathComponent(".other.rolodeck-staging-999999-spares")
        for folder in [left, other] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            try Data("old".utf8).write(to: folder.appendingPathComponent("file-0"))
        }
        _ = try patch(PageWriterPartsTests.parts(changing: 3))
        #expect(!FileManager.default.fileExists(atPath: left.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
        #expect(spareFolder != nil)
        spares.removeAll()
    }

    /// Where two versions first differ: parts that share their storage are the same unread,
    /// equal bytes in other storage are the same, and the difference is found to the byte.
    @Test func whereTwoVersionsFirstDiffer() {
        let a: [UInt8] = Array("BEGIN:VCARD\r\nFN:Ada\r\nEND:VCARD\r\n".utf8)
        let b: [UInt8] = Array("BEGIN:VCARD\r\nFN:Bob Builder\r\nEND:VCARD\r\n".utf8)
        let bEdited: [UInt8] = Array("BEGIN:VCARD\r\nFN:Bob Buildes\r\nEND:VCARD\r\n".utf8)
        let copyOfA = a.map { $0 }
        let cases: [(old: [[UInt8]], new: [[UInt8]], expected: (Int, Int, Int))] = [
            ([a, b], [a, b], (2, a.count + b.count, 0)),
            ([a, b], [copyOfA, b], (2, a.count + b.count, 0)),
            ([a, b], [a, bEdited], (1, a.count + 26, 26)),
            ([a, b], [a], (1, a.count, 0)),
            ([a], [a, b], (1, a.count, 0)),
            ([a, b], [b, a], (0, 16, 16)),
            ([a, b], [Array(a.dropLast()), b], (0, a.count - 1, a.count - 1)),
            ([Array(a.dropLast()), b], [a, b], (0, a.count - 1, a.count - 1)),
            ([], [a], (0, 0, 0)),
        ]
        for (index, test) in cases.enumerated() {
            let found = SpareFiles.firstDifference(between: test.old, and: test.new)
            #expect(found == test.expected, "case \(index)")
        }
        // How many parts two versions end with alike, after the first that differs.
        let c: [UInt8] = Array("BEGIN:VCARD\r\nFN:Cy\r\nEND:VCARD\r\n".utf8)
        let tails: [(old: [[UInt8]], new: [[UInt8]], after: Int, expected: Int)] = [
            ([a, b, c], [a, bEdited, c], 1, 1),
            ([a, b, c], [a, bEdited, c.map { $0 }], 1, 1),
            ([a, b, c], [a, b, c], 3, 0),
            ([a, b, c], [bEdited, b, c], 0, 2),
            ([a, b, c], [a, bEdited, Array(c.dropLast())], 1, 0),
            ([a, b], [a, b, b], 1, 0),
            ([a, c], [a, b, c], 1, 0),
            ([b, c], [a, a, b, c], 0, 1),
        ]
        for (index, test) in tails.enumerated() {
            let found = SpareFiles.sameLastParts(test.old, test.new, after: test.after)
            #expect(found == test.expected, "tail case \(index)")
        }
        // The parts that differ, where both versions have parts of the same lengths.
        let aligned = SpareFiles.differingParts(
            between: [a, b, c, b], and: [a, bEdited, c, bEdited], from: 1, at: 5)
        #expect(aligned?.map(\.part) == [1, 3])
        #expect(aligned?.map(\.bytes) == [26..<27, 26..<27])
        #expect(aligned?.map(\.offset) == [5, 5 + b.count + c.count])
        #expect(
            SpareFiles.differingParts(between: [a, b, c], and: [a, b, c], from: 3, at: 0)?.isEmpty == true)
        #expect(
            SpareFiles.differingParts(between: [a, b], and: [a, b, c], from: 2, at: 0) == nil, "another count"
        )
        #expect(
            SpareFiles.differingParts(between: [a, b, c], and: [a, c, b], from: 1, at: 0) == nil,
            "other lengths")
        #expect(
            SpareFiles.differingParts(
                between: [a, b, a, b], and: [a, bEdited, a, bEdited], from: 1, at: 0, limit: 1) == nil,
            "more parts differ than the limit")
        // How many bytes two parts of the same length end with alike, across the eight-byte steps.
        let long = Array(repeating: UInt8(ascii: "x"), count: 40)
        let suffixes: [(left: [UInt8], right: [UInt8], expected: Int)] = [
            (a, a, a.count), (b, bEdited, 13), (long, long.map { $0 }, 40), ([], [], 0),
            (Array("ab".utf8) + long, Array("ac".utf8) + long, 40), (long + [1], long + [2], 0),
            (Array(long.prefix(16)) + [1] + long, Array(long.prefix(16)) + [2] + long, 40),
        ]
        for (index, test) in suffixes.enumerated() {
            #expect(SpareFiles.sharedSuffix(test.left, test.right) == test.expected, "suffix case \(index)")
        }
    }
}
