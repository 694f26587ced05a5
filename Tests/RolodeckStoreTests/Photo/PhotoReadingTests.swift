import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// Photos read from vCards of every version and encoding and from the JSON store's `photo`
/// files; what cannot be shown is a warning at its place, and the contact is kept without it.
@Suite struct PhotoReadingTests {
    /// A fixture image's bytes (Tests/Photos: 40 × 30 pixels, made with libvips).
    static func image(_ name: String) throws -> [UInt8] {
        try Fixtures.photo(name)
    }

    /// `bytes` in base64, cut into lines of `width` characters.
    static func base64Lines(_ bytes: [UInt8], width: Int = 72) -> [String] {
        let text = Data(bytes).base64EncodedString()
        return stride(from: 0, to: text.count, by: width).map { start in
            let from = text.index(text.startIndex, offsetBy: start)
            return String(text[from..<(text.index(from, offsetBy: width, limitedBy: text.endIndex) ?? text.endIndex)])
        }
    }

    static func card(_ lines: [String]) -> String {
        (["BEGIN:VCARD"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The store from vCard files and JSON files, with its warnings as printed.
    static func decode(_ files: [StoreFile]) -> (store: Store, diagnostics: [String]) {
        let (store, diagnostics) = StoreDecoder.decode(files)
        return (store, diagnostics.map(\.description))
    }

    static func vCard(_ text: String, path: String = "store/a.vcf") -> StoreFile {
        .vCard(SourceText(path: path, text: text))
    }

    /// vCard 2.1: `ENCODING=BASE64` with a quoted `TYPE`, the data on lines of its own that keep
    /// their leading spaces, ended by a blank line.
    @Test func vCard21Base64OnFoldedLines() throws {
        let jpeg = try Self.image("face.jpg")
        let lines = ["VERSION:2.1", "N:Lee;Ann", #"PHOTO;TYPE="JPEG";ENCODING=BASE64:"#]
            + Self.base64Lines(jpeg).map { "  " + $0 } + ["", "TEL:1"]
        let (store, diagnostics) = Self.decode([Self.vCard(Self.card(lines))])
        #expect(diagnostics == [])
        let photo = try #require(store.contacts.first?.photo)
        #expect(photo.format == .jpeg)
        #expect((photo.width, photo.height) == (40, 30))
        #expect(photo.data.bytes == jpeg)
        #expect(photo.digest == SHA256.hex(of: jpeg))
        #expect(store.contacts.first?.phones.map(\.value) == ["1"])
    }

    /// vCard 2.1's bare `BASE64` parameter, the way older phones wrote it.
    @Test func vCard21BareBase64Parameter() throws {
        let gif = try Self.image("face.gif")
        let lines = ["VERSION:2.1", "FN:Bo Kim", "PHOTO;GIF;BASE64:" + Self.base64Lines(gif)[0]]
            + Self.base64Lines(gif).dropFirst().map { " " + $0 } + [""]
        let (store, diagnostics) = Self.decode([Self.vCard(Self.card(lines))])
        #expect(diagnostics == [])
        #expect(store.contacts.first?.photo?.format == .gif)
        #expect(store.contacts.first?.photo?.data.bytes == gif)
    }

    /// vCard 3.0: `ENCODING=b;TYPE=JPEG`, folded by the RFC (one space taken off each line).
    @Test func vCard30EncodingB() throws {
        let jpeg = try Self.image("face-gps.jpg")
        let data = Self.base64Lines(jpeg)
        let lines = ["VERSION:3.0", "FN:Cy Park", "PHOTO;ENCODING=b;TYPE=JPEG:" + data[0]] + data.dropFirst().map { " " + $0 }
        let (store, diagnostics) = Self.decode([Self.vCard(Self.card(lines))])
        #expect(diagnostics == [])
        #expect(store.contacts.first?.photo?.data.bytes == jpeg)
    }

    /// vCard 4.0: a `data:` URI, whose media type is not believed (a WebP said to be a PNG).
    @Test func vCard40DataURI() throws {
        let webp = try Self.image("face.webp")
        let data = Self.base64Lines(webp)
        let lines = ["VERSION:4.0", "FN:Dee Doe", "PHOTO:data:image/png;base64," + data[0]] + data.dropFirst().map { " " + $0 }
        let (store, diagnostics) = Self.decode([Self.vCard(Self.card(lines))])
        #expect(diagnostics == [])
        let photo = try #require(store.contacts.first?.photo)
        #expect(photo.format == .webp)
        #expect((photo.width, photo.height) == (40, 30))
    }

    /// A PNG labelled JPEG is a PNG: the bytes tell the format, not the label.
    @Test func theBytesTellTheFormatNotTheLabel() throws {
        let png = try Self.image("face.png")
        let lines = ["VERSION:3.0", "FN:Ed", "PHOTO;ENCODING=b;TYPE=JPEG:" + Self.base64Lines(png, width: 100_000)[0]]
        let (store, diagnostics) = Self.decode([Self.vCard(Self.card(lines))])
        #expect(diagnostics == [])
        #expect(store.contacts.first?.photo?.format == .png)
        #expect(store.contacts.first?.photo?.data.bytes == png)
    }

    /// A photo given as a URL is passed over without a word: the build fetches nothing.
    @Test func aPhotoURLIsIgnored() {
        let text = Self.card(["VERSION:3.0", "FN:Flo", "PHOTO;VALUE=uri:https://example.com/flo.jpg"])
            + Self.card(["VERSION:4.0", "FN:Gus", "PHOTO:https://example.com/gus.jpg"])
        let (store, diagnostics) = Self.decode([Self.vCard(text)])
        #expect(diagnostics == [])
        #expect(store.contacts.map(\.photo) == [nil, nil])
    }

    /// Each photo that cannot be shown is a warning at its value; the contact is kept without
    /// it, and a later `PHOTO` of the same card may still give one.
    @Test func badPhotosAreWarningsAndTheContactKeepsItsMonogram() throws {
        let jpeg = try Self.image("face.jpg")
        let truncated = Array(jpeg.prefix(jpeg.count / 2))
        let fifty = [UInt8](repeating: 0, count: 50 << 20)
        let text = Self.card(["VERSION:3.0", "FN:Truncated", "PHOTO;ENCODING=b:" + Self.base64Lines(truncated, width: 10_000)[0]])
            + Self.card(["VERSION:3.0", "FN:Garbage", "PHOTO;ENCODING=b:/9j/4AAQ%%%garbage***"])
            + Self.card(["VERSION:3.0", "FN:Text", "PHOTO;ENCODING=b:" + Data("hello, world".utf8).base64EncodedString()])
            + Self.card(["VERSION:4.0", "FN:Huge", "PHOTO:data:image/jpeg;base64," + Data(fifty).base64EncodedString()])
            + Self.card(["VERSION:4.0", "FN:NoBase64", "PHOTO:data:image/jpeg,abc"])
            + Self.card(["VERSION:3.0", "FN:Second", "PHOTO;ENCODING=b:AAAA",
                         "PHOTO;ENCODING=b:" + Self.base64Lines(jpeg, width: 10_000)[0]])
        let (store, diagnostics) = Self.decode([Self.vCard(text)])
        let ignored = "the contact is shown without a photo"
        #expect(diagnostics == [
            "store/a.vcf:4:18: warning: photo is a JPEG image that ends too soon (truncated); \(ignored)",
            "store/a.vcf:9:18: warning: PHOTO is not valid base64; \(ignored)",
            "store/a.vcf:14:18: warning: photo is not a JPEG, PNG, GIF or WebP image; \(ignored)",
            "store/a.vcf:19:7: warning: photo has \(50 << 20) bytes, more than the limit of 10485760 (10 MB); \(ignored)",
            "store/a.vcf:24:7: warning: PHOTO is a data: URI without base64 image data; \(ignored)",
            "store/a.vcf:29:18: warning: photo is not a JPEG, PNG, GIF or WebP image; \(ignored)",
        ])
        #expect(store.contacts.map(\.givenName) == ["Truncated", "Garbage", "Text", "Huge", "NoBase64", "Second"])
        #expect(store.contacts.map { $0.photo != nil } == [false, false, false, false, false, true])
    }

    // MARK: - JSON

    static func json(_ contacts: String) -> StoreFile {
        StoreFile(kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", text: contacts))
    }

    static func photoFile(_ path: String, _ bytes: [UInt8]) -> StoreFile {
        .photo(SourceText(path: "store/" + path, bytes: bytes), storePath: path)
    }

    /// A JSON contact's `photo` names a file in the store's `photos/` folder.
    @Test func jsonPhotoNamesAFileInThePhotosFolder() throws {
        let webp = try Self.image("face.webp")
        let (store, diagnostics) = Self.decode([
            Self.json(#"[{"id": "ann", "givenName": "Ann", "photo": "photos/./ann.webp"}, {"id": "bo", "givenName": "Bo"}]"#),
            Self.photoFile("photos/ann.webp", webp),
        ])
        #expect(diagnostics == [])
        #expect(store.contacts[0].photo?.data.bytes == webp)
        #expect(store.contacts[1].photo == nil)
    }

    /// A path that leaves the store, one outside `photos/`, one with no file behind it and a
    /// file that is no image are each a warning at the path; none of them is looked for on disk.
    @Test func jsonPhotoPathsThatCannotBeShown() throws {
        let big = try Self.image("face.png") + [UInt8](repeating: 0, count: 11 << 20)
        let contacts = #"""
            [{"id": "a", "givenName": "A", "photo": "../../etc/passwd"},
             {"id": "b", "givenName": "B", "photo": "/etc/passwd"},
             {"id": "c", "givenName": "C", "photo": "photos/../../store/photos/c.jpg"},
             {"id": "d", "givenName": "D", "photo": "contacts.json"},
             {"id": "e", "givenName": "E", "photo": "photos/missing.jpg"},
             {"id": "f", "givenName": "F", "photo": "photos/notes.txt"},
             {"id": "g", "givenName": "G", "photo": "photos/big.png"}]
            """#
        let (store, diagnostics) = Self.decode([
            Self.json(contacts), Self.photoFile("photos/notes.txt", Array("not a photo".utf8)),
            Self.photoFile("photos/big.png", big),
        ])
        let ignored = "the contact is shown without a photo"
        #expect(diagnostics == [
            "store/contacts.json:1:41: warning: photo \"../../etc/passwd\" is not a path inside the store folder; \(ignored)",
            "store/contacts.json:2:41: warning: photo \"/etc/passwd\" is not a path inside the store folder; \(ignored)",
            "store/contacts.json:3:41: warning: photo \"photos/../../store/photos/c.jpg\" is not a path inside the store folder; \(ignored)",
            "store/contacts.json:4:41: warning: photo \"contacts.json\" is not in the store's photos/ folder; \(ignored)",
            "store/contacts.json:5:41: warning: photo \"photos/missing.jpg\" is not a file in the store's photos/ folder (links that lead out of the store are not followed); \(ignored)",
            "store/contacts.json:6:41: warning: photo is not a JPEG, PNG, GIF or WebP image; \(ignored)",
            "store/contacts.json:7:41: warning: photo has \(big.count) bytes, more than the limit of 10485760 (10 MB); \(ignored)",
        ])
        #expect(store.contacts.count == 7)
        #expect(store.contacts.allSatisfy { $0.photo == nil })
    }

    /// Read from disk: a link in `photos/` that leads out of the store is not read at all, and
    /// the contact naming it is told there is no such photo; a link inside the store is read.
    @Test func aLinkOutOfTheStoreIsNeverRead() throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("store/photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let secret = folder.appendingPathComponent("secret.jpg")
        try Data(try Self.image("face.jpg")).write(to: secret)
        try Data(try Self.image("face.png")).write(to: photos.appendingPathComponent("real.png"))
        try FileManager.default.createSymbolicLink(
            atPath: photos.appendingPathComponent("out.jpg").path, withDestinationPath: "../../secret.jpg")
        try FileManager.default.createSymbolicLink(
            atPath: photos.appendingPathComponent("in.png").path, withDestinationPath: "real.png")
        try FileManager.default.createSymbolicLink(
            atPath: photos.appendingPathComponent("etc").path, withDestinationPath: "/etc")
        try Data(#"""
            [{"id": "a", "givenName": "A", "photo": "photos/out.jpg"},
             {"id": "b", "givenName": "B", "photo": "photos/in.png"},
             {"id": "c", "givenName": "C", "photo": "photos/etc/passwd"}]
            """#.utf8).write(to: folder.appendingPathComponent("store/contacts.json"))
        let (input, _) = try SiteReader(folder: folder, displayPath: "site").read()
        #expect(input.storeFiles.map(\.source.path) == [
            "site/store/contacts.json", "site/store/photos/in.png", "site/store/photos/real.png",
        ])
        let (store, diagnostics) = Self.decode(Array(input.storeFiles))
        #expect(diagnostics.count == 2)
        #expect(diagnostics.allSatisfy { $0.contains("is not a file in the store's photos/ folder") })
        #expect(store.contacts.map { $0.photo?.format } == [nil, .png, nil])
    }

    /// The digest is SHA-256, checked against the standard's own examples.
    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex(of: []) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex(of: [UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Messages of every length around the block's edges (55 and 56 bytes, where the length no
    /// longer fits the last block; 63, 64, 65; two blocks and more), each of other bytes, give
    /// the digest coreutils' `sha256sum` gives, by the processor's SHA extensions and by the
    /// plain function alike.
    @Test func sha256AgreesWithSha256sumAtEveryBlockEdge() throws {
        let folder = try Fixtures.temporaryFolder()
        var generator = SeededGenerator(seed: 256)
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 4096, 65_537] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let file = folder.appendingPathComponent("\(length).bin")
            try Data(bytes).write(to: file)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["sha256sum", file.path]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0)
            #expect(SHA256.hex(of: bytes) == String(printed.prefix(64)), "\(length) bytes")
            let words = SHA256.digest(of: bytes, hardware: false)
            #expect(words.map { String(format: "%08x", $0) }.joined() == String(printed.prefix(64)))
        }
        if !SHA256.hasHardware {
            print("skipped the SHA extensions' half: this processor has none")
        }
    }

    /// Base64 as vCards write it: whitespace anywhere is passed over, padding is optional, and
    /// anything else is refused.
    @Test func base64() {
        #expect(Base64.decode(Array("aGVs bG8=".utf8)) == Array("hello".utf8))
        #expect(Base64.decode(Array("aGVsbG8".utf8)) == Array("hello".utf8))
        #expect(Base64.decode(Array("aGVsbG8=\r\n\t".utf8)) == Array("hello".utf8))
        #expect(Base64.decode(Array("aGVsbG8=x".utf8)) == nil)
        #expect(Base64.decode(Array("aGVsb*8=".utf8)) == nil)
        #expect(Base64.decode(Array("a".utf8)) == nil)
        #expect(Base64.decodedCount(Array("aGVs bG8=".utf8)) == 5)
    }
}
