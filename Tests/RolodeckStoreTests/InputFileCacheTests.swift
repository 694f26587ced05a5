import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
import RolodeckCore

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

    /// The largest file a read kept (a watch readies a buffer that large for the next read of
    /// it), and the largest after it grew and after it went.
    @Test func theLargestFileIsTheLargestTheLastReadKept() throws {
        let folder = try Self.site()
        let cache = InputFileCache(marginNanoseconds: 0)
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        #expect(cache.largestFileSize == 0)
        _ = try reader.read()
        let array = folder.appendingPathComponent("store/contacts.json")
        let one = folder.appendingPathComponent("store/contacts/bo.json")
        let size = { (file: URL) in
            try #require(FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        }
        #expect(try size(array) > size(one))
        #expect(cache.largestFileSize == (try size(array)))
        try Data(#"{"id": "bo", "givenName": "Bo", "notes": "a note longer than the whole array file"}"#.utf8)
            .write(to: one)
        _ = try reader.read()
        #expect(cache.largestFileSize == (try size(one)))
        try FileManager.default.removeItem(at: one)
        _ = try reader.read()
        #expect(cache.largestFileSize == (try size(array)))
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

/// A read told which files changed (watch's batches) reads only those, and finds what a full
/// read finds; whenever files came or went, or folders changed, it reads everything.
@Suite struct ChangedFilesReadTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        /// The edit, and the paths (relative to the site) it tells the reader about.
        var edit: @Sendable (URL) throws -> [String]
        /// Files read from disk by the second read.
        var reads: Int
        var testDescription: String { label }
    }

    static func write(_ text: String, _ path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static func site() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        try write(#"[{"id": "ann", "givenName": "Ann"}]"#, "store/contacts.json", in: folder)
        for name in ["bo", "cy", "di"] {
            try write(#"{"id": "\#(name)", "givenName": "\#(name)"}"#, "store/contacts/\(name).json", in: folder)
        }
        try write("Work\n", "store/book/displayname", in: folder)
        try write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ed\r\nFN:Ed\r\nEND:VCARD\r\n", "store/book/ed.vcf", in: folder)
        return folder
    }

    static let cases: [Case] = [
        Case(label: "nothing named", edit: { _ in [] }, reads: 0),
        Case(label: "one card saved by a rename", edit: { folder in
            try write(#"{"id": "cy", "givenName": "Cyrus"}"#, "store/contacts/cy.json.tmp", in: folder)
            _ = rename(folder.appendingPathComponent("store/contacts/cy.json.tmp").path,
                       folder.appendingPathComponent("store/contacts/cy.json").path)
            return ["store/contacts/cy.json.tmp", "store/contacts/cy.json"]
        }, reads: 1),
        Case(label: "the list file and a vCard written in place", edit: { folder in
            try write(#"[{"id": "ann", "givenName": "Anna"}]"#, "store/contacts.json", in: folder)
            try write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ed\r\nFN:Edna\r\nEND:VCARD\r\n", "store/book/ed.vcf",
                      in: folder)
            return ["store/contacts.json", "store/book/ed.vcf"]
        }, reads: 2),
        Case(label: "a card added: everything is looked at", edit: { folder in
            try write(#"{"id": "al", "givenName": "Al"}"#, "store/contacts/al.json", in: folder)
            return ["store/contacts/al.json"]
        }, reads: 1),
        Case(label: "a card deleted", edit: { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("store/contacts/bo.json"))
            return ["store/contacts/bo.json"]
        }, reads: 0),
        Case(label: "a collection renamed by its displayname", edit: { folder in
            try write("Home\n", "store/book/displayname", in: folder)
            return ["store/book/displayname"]
        }, reads: 1),
        Case(label: "a folder of cards moved in", edit: { folder in
            try write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:fy\r\nFN:Fy\r\nEND:VCARD\r\n", "new/fy.vcf", in: folder)
            try FileManager.default.moveItem(at: folder.appendingPathComponent("new"),
                                             to: folder.appendingPathComponent("store/new"))
            return ["store/new"]
        }, reads: 1),
        Case(label: "a whole collection deleted", edit: { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("store/book"))
            return ["store/book"]
        }, reads: 0),
        Case(label: "a card replaced by a folder of the same name", edit: { folder in
            try FileManager.default.removeItem(at: folder.appendingPathComponent("store/contacts/di.json"))
            try write("{}", "store/contacts/di.json/x.json", in: folder)
            return ["store/contacts/di.json"]
        }, reads: 0),
    ]

    /// `indexed`: the store's files found by path beforehand, as a watch finds them while
    /// nothing changes.
    @Test(arguments: cases, [false, true])
    func aReadToldWhatChangedFindsWhatAFullReadFinds(_ test: Case, indexed: Bool) throws {
        let folder = try Self.site()
        let cache = InputFileCache(marginNanoseconds: 0)
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        _ = try reader.read()
        // Four JSON files, a vCard and the displayname of its collection.
        #expect(cache.takeReadCount() == 6)
        if indexed { cache.indexListing() }
        let changed = try test.edit(folder).map { AbsolutePath.of(folder.appendingPathComponent($0).path) }
        let (told, _) = try reader.read(changed: Set(changed))
        #expect(cache.takeReadCount() == test.reads)
        let (fresh, _) = try SiteReader(folder: folder, displayPath: "site").read()
        #expect(told.storeFiles.map(\.source.path) == fresh.storeFiles.map(\.source.path))
        #expect(told.storeFiles.map(\.source.bytes) == fresh.storeFiles.map(\.source.bytes))
        #expect(told.storeFiles.map(\.collection) == fresh.storeFiles.map(\.collection))
    }

    /// A read told what changed takes the store over unread and forgets only what went outside
    /// it (templates, static files): after each such read the cache holds exactly the files a
    /// cache that read everything afresh holds.
    ///
    /// `afterAnEmptyOne`: the first told read names nothing. Without it, the first read told
    /// what changed comes straight after the whole read, and finds the files outside the store
    /// as that read noted them.
    @Test(arguments: [false, true])
    func aReadToldWhatChangedForgetsTheTemplatesThatWent(afterAnEmptyOne: Bool) throws {
        let folder = try Self.site()
        try Self.write("<p>{{title}}</p>", "Templates/contact.mustache", in: folder)
        try Self.write("<p>{{name}}</p>", "Templates/group.mustache", in: folder)
        try Self.write("body {}", "Public/extra.css", in: folder)
        let cache = InputFileCache(marginNanoseconds: 0)
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        _ = try reader.read()
        func freshCount() throws -> Int {
            let fresh = InputFileCache(marginNanoseconds: 0)
            _ = try SiteReader(folder: folder, displayPath: "site", cache: fresh).read()
            return fresh.count
        }
        func told(_ paths: [String]) throws {
            _ = try reader.read(changed: Set(paths.map { AbsolutePath.of(folder.appendingPathComponent($0).path) }))
        }
        if afterAnEmptyOne {
            try told([])
            #expect(cache.count == (try freshCount()))
        }
        let steps: [(String, () throws -> [String])] = [
            ("a template removed", {
                try FileManager.default.removeItem(at: folder.appendingPathComponent("Templates/group.mustache"))
                return ["Templates/group.mustache"]
            }),
            ("a static file added and a contact saved", {
                try Self.write("p {}", "Public/more.css", in: folder)
                try Self.write(#"{"id": "bo", "givenName": "Bob"}"#, "store/contacts/bo.json", in: folder)
                return ["Public/more.css", "store/contacts/bo.json"]
            }),
            ("the template folder removed", {
                try FileManager.default.removeItem(at: folder.appendingPathComponent("Templates"))
                return ["Templates"]
            }),
            ("a static file removed", {
                try FileManager.default.removeItem(at: folder.appendingPathComponent("Public/extra.css"))
                return ["Public/extra.css"]
            }),
        ]
        for (label, edit) in steps {
            let before = cache.count
            try told(try edit())
            #expect(cache.count == (try freshCount()), "\(label): \(before) before")
        }
    }

    /// What the batch does not name is taken as it was: the watcher vouches for it. (A file
    /// changed behind the watcher's back shows at the next read that looks at everything.)
    @Test func aFileNotNamedIsTakenAsItWas() throws {
        let folder = try Self.site()
        let cache = InputFileCache(marginNanoseconds: 0)
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        _ = try reader.read()
        try Self.write(#"{"id": "bo", "givenName": "Bob"}"#, "store/contacts/bo.json", in: folder)
        let (told, _) = try reader.read(changed: [])
        let bo = try #require(told.storeFiles.first { $0.source.path == "site/store/contacts/bo.json" })
        #expect(String(decoding: bo.source.bytes, as: UTF8.self).contains(#""bo""#))
        let (full, _) = try reader.read()
        let fresh = try #require(full.storeFiles.first { $0.source.path == "site/store/contacts/bo.json" })
        #expect(String(decoding: fresh.source.bytes, as: UTF8.self).contains("Bob"))
    }

    /// A read that fails forgets what it kept: the next one, told only of later changes, still
    /// sees the change the failed read did not take in.
    @Test func aFailedReadMakesTheNextOneReadEverything() throws {
        let folder = try Self.site()
        let cache = InputFileCache(marginNanoseconds: 0)
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        _ = try reader.read()
        let bo = folder.appendingPathComponent("store/contacts/bo.json")
        try Self.write(#"{"id": "bo", "givenName": "Bob"}"#, "store/contacts/bo.json", in: folder)
        // A folder where the config should be cannot be read: the read fails before the store.
        let config = folder.appendingPathComponent("rolodeck.json")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: true)
        #expect(throws: DiagnosticError.self) {
            try reader.read(changed: [AbsolutePath.of(bo.path), AbsolutePath.of(config.path)])
        }
        try FileManager.default.removeItem(at: config)
        let (next, _) = try reader.read(changed: [AbsolutePath.of(config.path)])
        let read = try #require(next.storeFiles.first { $0.source.path == "site/store/contacts/bo.json" })
        #expect(String(decoding: read.source.bytes, as: UTF8.self).contains("Bob"))
    }
}
