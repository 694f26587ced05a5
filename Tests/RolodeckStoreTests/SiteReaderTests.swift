import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
import RolodeckCore

/// What the site reader hands on, in which order.
@Suite struct SiteReaderTests {
    /// A store with a file per record lists them in file-name order: for `todos/` that order is
    /// the user's order of the todo page, so it must not depend on how a dictionary hashes.
    @Test func recordsInAFolderComeInFileNameOrder() throws {
        let folder = try Fixtures.temporaryFolder()
        let todos = folder.appendingPathComponent("store/todos")
        try FileManager.default.createDirectory(at: todos, withIntermediateDirectories: true)
        let names = (1...40).map { String(format: "%02d-task", $0) }
        var generator = SeededGenerator(seed: 40)
        for name in names.shuffled(using: &generator) {
            try Data(#"{"id": "\#(name)", "title": "\#(name)"}"#.utf8).write(
                to: todos.appendingPathComponent(name + ".json"))
        }
        let (input, _) = try SiteReader(folder: folder, displayPath: "site").read()
        #expect(input.storeFiles.map(\.source.path) == names.map { "site/store/todos/\($0).json" })
        #expect(StoreDecoder.decode(input.storeFiles).store.todos.map(\.id) == names)
    }

    /// vCard and iCalendar files come by collection name (a folder's `displayname`, or else
    /// its own name), then by path: two folders of one name are one collection, their files
    /// side by side in path order; loose files are a collection of no name, first. (`ab` follows
    /// `aa` in the walk, a folder name of the same length: its files are a collection of their
    /// own, first of the named ones.)
    /// The folders an unchanged build looks for a `displayname` in: each once, whatever order
    /// the files come in, and not the top.
    @Test func theFoldersOfFilesAreEachFoundOnce() {
        let paths = ["a/x.vcf", "a/y.vcf", "b/c/z.vcf", "top.vcf", "a/w.vcf", "b/c/y.vcf", "b/v.vcf", "ä/u.vcf"]
        #expect(SiteReader.folders(of: paths) == ["a", "b/c", "b", "ä"])
        #expect(SiteReader.folders(of: ["top.vcf"]).isEmpty)
    }

    @Test func vdirFilesComeByCollectionThenPath() throws {
        let folder = try Fixtures.temporaryFolder()
        let files = [
            "store/zz/displayname": "Alpha", "store/zz/b.vcf": "", "store/zz/d.VCF": "",
            "store/aa/displayname": "Zed", "store/aa/a.vcf": "", "store/aa/t.ics": "",
            "store/mm/displayname": "Alpha", "store/mm/c.vcf": "", "store/mm/e.vcard": "",
            "store/Beta/f.vcf": "", "store/loose.vcf": "", "store/contacts.json": "[]",
            "store/ab/displayname": "Aardvark", "store/ab/g.vcf": "",
        ]
        for (path, text) in files {
            let url = folder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let (input, _) = try SiteReader(folder: folder, displayPath: "site").read()
        let expected = [
            "contacts.json", "loose.vcf", "ab/g.vcf", "mm/c.vcf", "mm/e.vcard", "zz/b.vcf", "zz/d.VCF",
            "Beta/f.vcf", "aa/a.vcf", "aa/t.ics",
        ]
        #expect(input.storeFiles.map(\.source.path) == expected.map { "site/store/" + $0 })
    }

    /// Files are read whole, whatever their size: the bytes come back exactly, for an empty
    /// file, one of a single byte, one larger than any read buffer and one of several MiB.
    @Test(arguments: [0, 1, 4_095, 4_096, 1_000_003, 9 << 20 | 3])
    func filesAreReadWhole(size: Int) throws {
        let folder = try Fixtures.temporaryFolder()
        let assets = folder.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        try Data(bytes).write(to: assets.appendingPathComponent("blob.bin"))
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("store"), withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: folder.appendingPathComponent("store/contacts.json"))
        let (input, _) = try SiteReader(folder: folder, displayPath: "site").read()
        let read = try #require(input.assets["blob.bin"])
        #expect(read.count == size)
        // Compared as a whole, without printing a megabyte of bytes when they differ.
        #expect(read.elementsEqual(bytes), "the bytes read differ from the file's")
    }

    /// Bytes beyond the size `fstat` gave (a file that grows while it is read; here a pipe,
    /// whose size is 0) are read on to the end, in several steps.
    @Test(arguments: [1, 4_096, 40_000])
    func bytesBeyondTheGuessedSizeAreRead(size: Int) throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        // Less than a pipe holds, so this write does not wait for a reader.
        let written = bytes.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
        close(ends[1])
        try #require(written == size)
        let read = try SiteReader.readToEnd(ends[0], sizeGuess: 0)
        #expect(read.count == size)
        #expect(read.elementsEqual(bytes), "the bytes read differ from the ones written")
    }

    /// Only a regular file's short read is its end: from a pipe (or a device), a read that
    /// gives fewer bytes than asked is followed by others until one gives none.
    /// A store that is the root of the file system, a folder holding the site folder (named
    /// as `".."`, by an absolute path, or through a link), or one inside `Public/` (whose files
    /// are published as they are), is an error at the config's value,
    /// before anything under it is read: a card beside the site is never read, and the
    /// survey an unchanged build makes first gives up rather than walk it. A store inside the
    /// site folder, or the site folder itself, is read as before.
    @Test func aStoreThatHoldsTheSiteFolderIsRefused() throws {
        let parent = try Fixtures.temporaryFolder()
        let site = parent.appendingPathComponent("site")
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("book"), withIntermediateDirectories: true)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x\r\nFN:X\r\nN:X;;;;\r\nEND:VCARD\r\n"
        try Data(card.utf8).write(to: site.appendingPathComponent("book/inside.vcf"))
        try FileManager.default.createDirectory(
            at: parent.appendingPathComponent("private"), withIntermediateDirectories: true)
        try Data(card.replacingOccurrences(of: "UID:x", with: "UID:y").utf8)
            .write(to: parent.appendingPathComponent("private/beside.vcf"))
        try FileManager.default.createSymbolicLink(
            at: site.appendingPathComponent("up"), withDestinationURL: parent)
        let reader = SiteReader(folder: site, displayPath: "site")
        func read(store: String) throws -> Result<[String], DiagnosticError> {
            let value = String(decoding: try JSONEncoder().encode(store), as: UTF8.self)
            let config = "{\n  \"title\": \"T\",\n  \"store\": \(value)\n}\n"
            try Data(config.utf8).write(to: site.appendingPathComponent("rolodeck.json"))
            do {
                return .success(try reader.read().input.storeFiles.map(\.source.path))
            } catch {
                #expect(reader.survey() == nil, "the survey walked \(store)")
                return .failure(error)
            }
        }
        for store in ["/", "..", "../", parent.path, "up", "book/../.."] {
            guard case .failure(let error) = try read(store: store) else {
                Issue.record("a store of \(store) was read")
                continue
            }
            #expect(error.diagnostics.count == 1, "\(error.diagnostics)")
            let message = error.diagnostics.first?.description ?? ""
            #expect(message.hasPrefix("site/rolodeck.json:3:12: error: store "), "\(message)")
            let why = store == "/" ? "is the root of the file system" : "holds the site folder itself"
            #expect(message.contains(why), "\(message)")
        }
        // Inside Public/, which is published as it is: the raw cards would be on the site.
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("Public/data"), withIntermediateDirectories: true)
        try Data(card.utf8).write(to: site.appendingPathComponent("Public/data/inside.vcf"))
        for store in ["Public", "Public/data", "./Public/data/"] {
            guard case .failure(let error) = try read(store: store) else {
                Issue.record("a store of \(store) was read")
                continue
            }
            let message = error.diagnostics.map(\.description).joined()
            #expect(message.hasPrefix("site/rolodeck.json:3:12: error: store "), "\(message)")
            let why = "lies inside Public/, whose files are published as they are"
            #expect(message.contains(why), "\(message)")
        }
        try FileManager.default.removeItem(at: site.appendingPathComponent("Public"))
        // Without a config, the default store folder may itself be a link to such a folder.
        try FileManager.default.removeItem(at: site.appendingPathComponent("rolodeck.json"))
        try FileManager.default.createSymbolicLink(
            at: site.appendingPathComponent("store"), withDestinationURL: parent)
        #expect(throws: DiagnosticError.self) { try reader.read() }
        #expect(reader.survey() == nil)
        try FileManager.default.removeItem(at: site.appendingPathComponent("store"))
        // The site folder itself, and its folders however written, name their files plainly.
        for store in [".", "./", "book", "./book/", "book//", "book/."] {
            #expect(try read(store: store).get() == ["site/book/inside.vcf"], "\(store)")
        }
    }

    @Test func messagesNameTheStoreWithoutDotParts() throws {
        let site = try Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("book"), withIntermediateDirectories: true)
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:x\r\nFN:X\r\nN:X;;;;\r\nEND:VCARD\r\n"
        try Data(card.utf8).write(to: site.appendingPathComponent("book/x.vcf"))
        let named = [("site/.", "./book/"), ("site//", "book/."), ("./site", ".//book"), ("site", "./book")]
        for (shown, store) in named {
            try Data("{\"store\": \"\(store)\"}".utf8).write(to: site.appendingPathComponent("rolodeck.json"))
            let reader = SiteReader(folder: site, displayPath: shown)
            // Every message about a store file names it by its source's path.
            let paths = try reader.read().input.storeFiles.map(\.source.path)
            #expect(paths == ["site/book/x.vcf"], "\(shown), \(store)")
            #expect(reader.display(store) == "site/book", "\(shown), \(store)")
        }
        #expect(SiteReader(folder: site, displayPath: ".").display("./") == ".")
        let absolute = SiteReader(folder: site, displayPath: "/srv/./site/")
        #expect(absolute.display("../book") == "/srv/site/../book")
    }

    @Test func aShortReadEndsOnlyARegularFile() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { close(ends[0]) }
        #expect(write(ends[1], "ab", 2) == 2)
        let writer = ends[1]
        let later = Thread {
            Thread.sleep(forTimeInterval: 0.05)
            _ = write(writer, "cd", 2)
            close(writer)
        }
        later.start()
        let read = try SiteReader.readToEnd(ends[0], sizeGuess: 16)
        #expect(read == Array("abcd".utf8))
        // The same bytes from a regular file of that size, asked for more than it holds.
        let file = try Fixtures.temporaryFolder().appendingPathComponent("card.json")
        try Data("abcd".utf8).write(to: file)
        let fd = open(file.path, O_RDONLY)
        try #require(fd >= 0)
        defer { close(fd) }
        #expect(try SiteReader.readToEnd(fd, sizeGuess: 4, isRegularFile: true) == Array("abcd".utf8))
    }

    /// A file that cannot be read (here a folder where the store's file should be) is an error
    /// that names it, not a crash or an empty store.
    @Test func anUnreadableFileIsAnErrorNamingIt() throws {
        let folder = try Fixtures.temporaryFolder()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("store/contacts.json"), withIntermediateDirectories: true)
        #expect {
            try SiteReader(folder: folder, displayPath: "site").read()
        } throws: { error in
            "\(error)".contains("cannot read site/store/contacts.json")
        }
    }

    /// What the walk leaves out that a build would have read is a warning naming it: a vdir
    /// linked into the store, a link to a card outside it, one that leads nowhere, a named
    /// pipe where a record would be. What a build would not read (a pipe named `notes.txt`) is
    /// left out without a word. Again from the listing kept, when a save reads one file.
    @Test func whatIsLeftOutThatABuildWouldReadIsAWarning() throws {
        let folder = try Fixtures.temporaryFolder()
        let store = folder.appendingPathComponent("store")
        let book = folder.appendingPathComponent("vdir/book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: store.appendingPathComponent("contacts"), withIntermediateDirectories: true)
        try Data("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zed\r\nEND:VCARD\r\n".utf8).write(
            to: book.appendingPathComponent("zed.vcf"))
        let record = store.appendingPathComponent("contacts/a.json")
        try Data(#"{"id": "a", "givenName": "Ann"}"#.utf8).write(to: record)
        let links = ["book": "../vdir/book", "out.vcf": "../vdir/book/zed.vcf", "gone.vcf": "nowhere.vcf"]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(
                atPath: store.appendingPathComponent(name).path, withDestinationPath: target)
        }
        #expect(mkfifo(store.appendingPathComponent("contacts/b.json").path, 0o644) == 0)
        #expect(mkfifo(store.appendingPathComponent("notes.txt").path, 0o644) == 0)
        let cache = InputFileCache()
        let reader = SiteReader(folder: folder, displayPath: "site", cache: cache)
        let expected = [
            #"warning: site/store/book is a link to a folder, which is not followed: left out; to build "#
                + #"from that folder, name it as "store" in rolodeck.json or copy it into the store"#,
            "warning: site/store/contacts/b.json is not a plain file (a named pipe, a socket or a device): "
                + "left out; replace it with the file itself",
            "warning: site/store/gone.vcf is a link that leads nowhere: left out; replace it with the file itself",
            "warning: site/store/out.vcf is a link to a file outside the store: left out; replace it with "
                + "the file itself",
        ]
        let (input, warnings) = try reader.read()
        #expect(input.storeFiles.map(\.source.path) == ["site/store/contacts/a.json"])
        #expect(warnings.map(\.description) == expected)
        // A save of the one record: read from the listing kept, with its warnings.
        try Data(#"{"id": "a", "givenName": "Anna"}"#.utf8).write(to: record)
        let changed = record.resolvingSymlinksInPath().path
        let (again, warningsAgain) = try reader.read(changed: [changed])
        #expect(again.storeFiles.map(\.source.path) == ["site/store/contacts/a.json"])
        #expect(warningsAgain.map(\.description) == expected)
    }

    /// What the walk of `Templates/` or `Public/` leaves out is a warning naming it: a link to
    /// a file outside the folder (never followed, so that no link publishes a file from
    /// elsewhere), a link to a folder or to nothing, a named pipe. The files beside them are
    /// read as before.
    @Test func whatTemplatesAndPublicLeaveOutIsAWarning() throws {
        let folder = try Fixtures.temporaryFolder()
        let site = folder.appendingPathComponent("site")
        try FileManager.default.createDirectory(
            at: site.appendingPathComponent("store"), withIntermediateDirectories: true)
        try Data(#"[{"id": "a", "givenName": "Ann"}]"#.utf8)
            .write(to: site.appendingPathComponent("store/contacts.json"))
        for name in ["Templates", "Public"] {
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        try Data("secret".utf8).write(to: folder.appendingPathComponent("secret.txt"))
        try Data("body{}".utf8).write(to: site.appendingPathComponent("Public/own.css"))
        let links = [
            "Public/logo.svg": "../../secret.txt", "Public/shared": "../../",
            "Templates/page.mustache": "gone",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(
                atPath: site.appendingPathComponent(name).path, withDestinationPath: target)
        }
        #expect(mkfifo(site.appendingPathComponent("Public/feed.txt").path, 0o644) == 0)
        let (input, warnings) = try SiteReader(folder: site, displayPath: "site").read()
        #expect(input.assets.keys.sorted() == ["own.css"])
        #expect(input.templates.isEmpty)
        #expect(
            warnings.map(\.description) == [
                "warning: site/Templates/page.mustache is a link that leads nowhere: left out",
                "warning: site/Public/feed.txt is not a plain file (a named pipe, a socket or a device): left out",
                "warning: site/Public/logo.svg is a link to a file outside Public/: left out; copy the file "
                    + "itself into Public/",
                "warning: site/Public/shared is a link to a folder, which is not followed: left out; copy the "
                    + "folder itself into Public/",
            ])
    }
}
