import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore

/// The watch reader's file cache: unchanged files cost a `stat`, changed ones are read, and a
/// file changed too recently for its times to vouch for it is read every time.
@Suite struct InputFileCacheTests {
    static func site() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("store/contacts"),
            withIntermediateDirectories: true)
        try Data(#"[{"id": "ann", "givenName": "Ann"}]"#.utf8).write(
            to: folder.appendingPathComponent("store/contacts.json"))
        try Data(#"{"id": "bo", "givenName": "Bo"}"#.utf8).write(
            to: folder.appendingPathComponent("store/contacts/bo.json"))
        return folder
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        /// Shell-free edit applied between the two reads.
        var edit: @Sendable (URL) throws -> Void
        /// Files read from disk by the second read.
        var reads: Int
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "nothing changed", edit: { _ in }, reads: 0),
        Case(
            label: "a file written in place with another size",
            edit: { folder in
                try Data(#"[{"id": "ann", "givenName": "Anna"}]"#.utf8).write(
                    to: folder.appendingPathComponent("store/contacts.json"))
            }, reads: 1),
        Case(
            label: "a file replaced by a rename, same size",
            edit: { folder in
                let temporary = folder.appendingPathComponent("store/contacts/bo.json.new")
                try Data(#"{"id": "bo", "givenName": "Bx"}"#.utf8).write(to: temporary)
                _ = rename(temporary.path, folder.appendingPathComponent("store/contacts/bo.json").path)
            }, reads: 1),
        Case(
            label: "a file added",
            edit: { folder in
                try Data(#"{"id": "cy", "givenName": "Cy"}"#.utf8).write(
                    to: folder.appendingPathComponent("store/contacts/cy.json"))
            }, reads: 1),
        Case(
            label: "a file deleted",
            edit: { folder in
                try FileManager.default.removeItem(
                    at: folder.appendingPathComponent("store/contacts/bo.json"))
            }, reads: 0),
    ]

    @Test(arguments: cases)
    func aSecondReadReadsOnlyWhatChanged(_ test: Case) throws {
        let folder = try Self.site()
        // No margin: the files were just written, and this test is about the status check alone.
        let cache = InputFileCache(marginNanoseconds: 0)
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        _ = try reader.read()
        #expect(cache.takeReadCount() == 2)
        try test.edit(folder)
        let (cached, _) = try reader.read()
        #expect(cache.takeReadCount() == test.reads)
        let (fresh, _) = try SiteReader(folder: folder, displayPath: "site").read()
        #expect(cached.storeFiles.map(\.source.path) == fresh.storeFiles.map(\.source.path))
        #expect(cached.storeFiles.map(\.source.bytes) == fresh.storeFiles.map(\.source.bytes))
        #expect(cache.count == fresh.storeFiles.count)
    }

    @Test func aFileChangedMomentsBeforeItWasReadIsReadAgain() throws {
        let folder = try Self.site()
        let cache = InputFileCache()
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        _ = try reader.read()
        _ = try reader.read()
        // Both files were written within the last two seconds: their times cannot vouch for them.
        #expect(cache.takeReadCount() == 4)
    }
}
