import Foundation
import Testing
@testable import RolodeckPublish
@testable import RolodeckTestSupport

/// A file written as parts (`contacts.vcf`: every contact's card) is the parts one after the
/// other on disk, and an old file with the same bytes is kept, however the parts are cut.
@Suite struct PageWriterPartsTests {
    /// Small parts around one larger than a write batch (a quarter of a megabyte), so that the
    /// writer gathers, flushes and writes a part as it is; bytes of a fixed pattern.
    static func parts(changing changed: Int? = nil) -> [[UInt8]] {
        var parts: [[UInt8]] = []
        var seed: UInt32 = 7
        for index in 0..<1_200 {
            let count = index == 600 ? 300_000 : 1 + Int(seed % 700)
            var part: [UInt8] = []
            part.reserveCapacity(count)
            for _ in 0..<count {
                seed = seed &* 1_103_515_245 &+ 12_345
                part.append(UInt8(truncatingIfNeeded: seed >> 16))
            }
            if index == changed { part[part.count / 2] ^= 0xff }
            parts.append(part)
        }
        return parts
    }

    func publish(_ parts: [[UInt8]], to output: URL) throws -> PublishReport {
        try Publisher(outputPath: output.path).publish { writer in
            try writer.write("contacts.vcf", parts: parts)
            try writer.write("index.html", Array("home".utf8))
        }
    }

    func modificationDate(_ url: URL) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.modificationDate] as? Date)
    }

    @Test func partsAreWrittenOneAfterTheOther() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let parts = Self.parts()
        let joined = parts.flatMap { $0 }
        #expect(joined.count > 300_000)
        _ = try publish(parts, to: output)
        let file = output.appendingPathComponent("contacts.vcf")
        let written = Array(try Data(contentsOf: file)) == joined
        #expect(written)
        let manifest = try String(contentsOf: output.appendingPathComponent(".rolodeck"), encoding: .utf8)
        #expect(manifest.contains("\n\(joined.count) contacts.vcf\n"))
    }

    @Test func theSameBytesCutOtherwiseAreKeptAndOtherBytesWritten() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let parts = Self.parts()
        _ = try publish(parts, to: output)
        let file = output.appendingPathComponent("contacts.vcf")
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)

        // The same bytes in other parts: one whole, then in halves.
        let joined = parts.flatMap { $0 }
        for cut in [[joined], [Array(joined[..<1_000]), Array(joined[1_000...])]] {
            let same = try publish(cut, to: output)
            #expect(same == PublishReport(written: 0, unchanged: 3, removed: 0))
            #expect(try modificationDate(file) == old)
        }

        // One byte changed, in a small part and in the large one: the same size, other bytes.
        for changed in [3, 600, 1_199] {
            let other = Self.parts(changing: changed)
            #expect(other.flatMap { $0 }.count == joined.count)
            let report = try publish(other, to: output)
            #expect(report == PublishReport(written: 1, unchanged: 2, removed: 0), "part \(changed)")
            let rewritten = Array(try Data(contentsOf: file)) == other.flatMap { $0 }
            #expect(rewritten, "part \(changed)")
            _ = try publish(parts, to: output)
        }
    }

    /// A watch's writer (`OutputPatcher`) compares and writes the parts it is given the same
    /// way, without joining them.
    @Test func aPatchWritesPartsAndKeepsTheSameBytesCutOtherwise() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        let parts = Self.parts()
        let joined = parts.flatMap { $0 }
        _ = try publish(parts, to: output)
        let file = output.appendingPathComponent("contacts.vcf")
        let old = Date(timeIntervalSince1970: 1_000_000_000)
        try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: file.path)
        var files = ["contacts.vcf": joined.count, "index.html": 4]
        var manifest: [UInt8]? = nil
        func patch(_ parts: [[UInt8]]) throws -> PublishReport {
            try OutputPatcher(outputPath: output.path).patch(
                fingerprint: "test", files: &files, manifest: &manifest
            ) {
                writer, _ in
                try writer.write("contacts.vcf", parts: parts)
                return []
            }
        }

        let same = try patch([Array(joined[..<1_000]), Array(joined[1_000...])])
        #expect(same == PublishReport(written: 0, unchanged: 1, removed: 0))
        #expect(try modificationDate(file) == old)

        for changed in [3, 600, 1_199] {
            let other = Self.parts(changing: changed)
            let report = try patch(other)
            #expect(report == PublishReport(written: 1, unchanged: 0, removed: 0), "part \(changed)")
            let rewritten = Array(try Data(contentsOf: file)) == other.flatMap { $0 }
            #expect(rewritten, "part \(changed)")
        }
        // Longer than before: written whole, and the manifest has its size.
        let longer = parts + [Array("END:VCARD\r\n".utf8)]
        #expect(try patch(longer) == PublishReport(written: 1, unchanged: 0, removed: 0))
        #expect(Array(try Data(contentsOf: file)) == longer.flatMap { $0 })
        #expect(files["contacts.vcf"] == joined.count + 11)
    }

    /// The files a patch replaces are held open across its renames and closed after, on another
    /// thread: none is left open once that thread is done.
    @Test func theFilesAPatchReplacesAreClosed() throws {
        let output = try Fixtures.temporaryFolder().appendingPathComponent("site")
        _ = try publish(Self.parts(), to: output)
        var files = ["contacts.vcf": Self.parts().reduce(0) { $0 + $1.count }, "index.html": 4]
        var manifest: [UInt8]? = nil
        for changed in [3, 600] {
            _ = try OutputPatcher(outputPath: output.path).patch(
                fingerprint: "test", files: &files, manifest: &manifest
            ) {
                writer, _ in
                try writer.write("contacts.vcf", parts: Self.parts(changing: changed))
                return []
            }
        }
        PatchWriter.closer.sync {}
        // A replaced file still open is listed as its old path, "(deleted)".
        let open = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap {
            try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0)
        }
        let replaced = output.resolvingSymlinksInPath().path + "/contacts.vcf (deleted)"
        #expect(!open.contains(replaced), "\(open.filter { $0.hasSuffix("(deleted)") })")
    }

    /// A file the system refuses to write whole (a full disk) is removed, not left in part.
    @Test func aFileNotWrittenWholeIsRemoved() throws {
        let folder = try Fixtures.temporaryFolder()
        let handle = try #require(DirectoryHandle.open(folder.path))
        let bytes = Self.parts()[0]
        #expect(throws: PublishError.self) {
            try handle.createFile(".page.html.rolodeck-new-1") { put in
                // A first write that went through, then one the system refused.
                _ = bytes.withUnsafeBytes(put)
                return false
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        // Written whole, it is there.
        try handle.createFile("page.html") { put in bytes.withUnsafeBytes(put) }
        #expect(try Data(contentsOf: folder.appendingPathComponent("page.html")) == Data(bytes))
    }
}
