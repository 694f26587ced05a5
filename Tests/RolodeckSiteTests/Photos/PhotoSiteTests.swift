import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// The photos a site writes and shows: each once under `photos/`, named by its bytes, without
/// metadata, with a thumbnail made by libvips; on the contact page, in list rows, in the
/// contact's vCard; none when hidden.
@Suite struct PhotoSiteTests {
    static func image(_ name: String) throws -> [UInt8] {
        try Fixtures.photo(name)
    }

    /// A store of four contacts: Ada's JPEG (with EXIF GPS) in a vCard, Bo's PNG and Cy's WebP
    /// as photo files, Dee without a photo, and Eve, hidden when `hidden`, with the GIF.
    static func input(config: SiteConfig = SiteConfig()) throws -> SiteInput {
        let gps = Data(try image("face-gps.jpg")).base64EncodedString()
        let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ada\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada\r\n"
            + "PHOTO;ENCODING=b;TYPE=JPEG:\(gps)\r\nEND:VCARD\r\n"
        let contacts = #"""
            [{"id": "bo", "givenName": "Bo", "familyName": "Kim", "photo": "photos/bo.png", "groups": ["club"],
              "birthday": "1990-03-04"},
             {"id": "cy", "givenName": "Cy", "familyName": "Park", "photo": "photos/cy.webp"},
             {"id": "dee", "givenName": "Dee", "familyName": "Doe", "birthday": "1985-07-08"},
             {"id": "eve", "givenName": "Eve", "familyName": "Ng", "photo": "photos/eve.gif"}]
            """#
        let files: [StoreFile] = [
            StoreFile(kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", text: contacts)),
            StoreFile(kind: .group, layout: .list, source: SourceText(
                path: "store/groups.json", text: #"[{"id": "club", "name": "Club"}]"#)),
            .vCard(SourceText(path: "store/ada.vcf", text: card)),
            .photo(SourceText(path: "store/photos/bo.png", bytes: try image("face.png")), storePath: "photos/bo.png"),
            .photo(SourceText(path: "store/photos/cy.webp", bytes: try image("face.webp")), storePath: "photos/cy.webp"),
            .photo(SourceText(path: "store/photos/eve.gif", bytes: try image("face.gif")), storePath: "photos/eve.gif"),
        ]
        return SiteInput(config: config, storeFiles: files)
    }

    static func render(_ input: SiteInput) throws -> [String: [UInt8]] {
        try Site.load(input).renderFiles(today: PartialDate(year: 2026, month: 1, day: 1))
    }

    static func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    /// `bytes` as text without the contact page's QR code, the one image that is no photo.
    static func photoText(_ bytes: [UInt8]?) -> String {
        text(bytes).replacingOccurrences(of: #"<img class="qr-code"[^>]*>"#, with: "", options: .regularExpression)
    }

    static func contains(_ bytes: [UInt8], _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
    }

    @Test func eachPhotoIsWrittenOnceWithoutMetadataAndWithAThumbnail() throws {
        let files = try Self.render(try Self.input())
        let photos = files.keys.filter { $0.hasPrefix("photos/") }.sorted()
        // Four photos, two files each; names from the bytes read.
        #expect(photos.count == 8)
        let adaName = String(SHA256.hex(of: try Self.image("face-gps.jpg")).prefix(20))
        let ada = try #require(files["photos/\(adaName).jpg"])
        // The EXIF block (camera, GPS position) is gone, and nothing else: the bytes are the JPEG
        // the fixture was made from.
        #expect(ada == (try Self.image("face.jpg")))
        for name in ["face.png", "face.gif"] {
            let bytes = try Self.image(name)
            let format = try #require(ImageHeader.format(of: bytes))
            // Without metadata to take out, the bytes are written unchanged.
            #expect(files["photos/\(SHA256.hex(of: bytes).prefix(20)).\(format.fileExtension)"] == bytes)
        }
        // The WebP fixture carries an EXIF chunk (libvips wrote one when it made it): only that
        // chunk goes, the image data stays as it was.
        let webp = try Self.image("face.webp")
        let written = try #require(files["photos/\(SHA256.hex(of: webp).prefix(20)).webp"])
        #expect(Self.contains(webp, "EXIF") && written.count < webp.count)
        #expect(Self.contains(written, "VP8 ") && webp.count - written.count == 186 + 8)
        for path in photos {
            let bytes = files[path]!
            #expect(
                !Self.contains(bytes, "Exif") && !Self.contains(bytes, "EXIF") && !Self.contains(bytes, "RolodeckTestCam"),
                "metadata in \(path)")
            let format = try #require(ImageHeader.format(of: bytes), "\(path) is no image")
            let (width, height) = try #require(ImageHeader.dimensions(of: bytes, format: format))
            if path.hasSuffix("-96.webp") {
                #expect(format == .webp)
                // Square, cut from the middle, never enlarged: the 40 × 30 fixtures give 30 × 30.
                #expect(width == height && width <= SitePhotos.thumbnailSize && width == 30, "\(path)")
            } else {
                #expect((width, height) == (40, 30), "\(path)")
            }
        }
    }

    /// A site holds each photo once, as read: the copy without metadata is made when it is
    /// written, not kept beside it for the whole build (a second copy of every photo).
    @Test func aSiteHoldsEachPhotoOnceAsRead() throws {
        var contacts = StoreDecoder.decode(try Self.input().storeFiles).store.contacts
        let (photos, diagnostics) = SitePhotos.make(for: &contacts, cache: nil)
        #expect(diagnostics.isEmpty)
        let read = Dictionary(
            contacts.compactMap { $0.photo }.map { ($0.digest, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(read.count == 4 && photos.files.count == 4)
        var strippedCount = 0
        for (digest, files) in photos.files {
            let photo = try #require(read[digest])
            switch files.source {
            case .asRead(let kept), .withoutMetadata(let kept):
                #expect(kept.data === photo.data, "\(files.path) holds a copy of the photo")
            case .made:
                Issue.record("\(files.path) holds bytes of its own, though it needs no turning")
            }
            if case .withoutMetadata = files.source { strippedCount += 1 }
            // What is written is the photo without metadata, every time it is asked for.
            let stripped = PhotoMetadata.stripped(photo.data.bytes, format: photo.format)
            guard case .bytes(let expected) = stripped else {
                Issue.record("\(files.path) is turned")
                continue
            }
            #expect(files.bytes == expected && files.bytes == expected)
            #expect(expected.count < photo.data.bytes.count || files.bytes == photo.data.bytes)
        }
        // Ada's JPEG (EXIF) and Cy's WebP (an EXIF chunk) have metadata; Bo's PNG and Eve's GIF
        // none.
        #expect(strippedCount == 2)
    }

    @Test func pagesShowPhotosAndThumbnailsAndTheMonogramWhereThereIsNone() throws {
        let files = try Self.render(try Self.input())
        let adaName = String(SHA256.hex(of: try Self.image("face-gps.jpg")).prefix(20))
        let index = Self.text(files["index.html"])
        #expect(index.contains(#"<img src="photos/\#(adaName)-96.webp" width="48" height="48" loading="lazy" alt="Ada Lovelace">"#))
        // Lists load thumbnails only, never a full-size photo.
        #expect(!index.contains(".jpg\"") && !index.contains(".png\""))
        #expect(index.components(separatedBy: "<img ").count - 1 == 4)
        let group = Self.text(files["groups/club.html"])
        #expect(group.contains(#"<img src="../photos/"#) && group.contains(#"alt="Bo Kim""#))
        // The birthday list has the same avatars: Bo's thumbnail, Dee's monogram.
        let birthdays = Self.text(files["birthdays.html"])
        #expect(birthdays.contains(#"<img src="photos/"#) && birthdays.contains(#"-96.webp" width="48" height="48" loading="lazy" alt="Bo Kim">"#))
        #expect(birthdays.contains(#"<span class="avatar" aria-hidden="true">D</span>"#), "\(birthdays)")
        let page = Self.text(files["contacts/ada.html"])
        #expect(page.contains(#"<img class="photo" src="../photos/\#(adaName).jpg" width="40" height="30" alt="Ada Lovelace">"#))
        #expect(!page.contains(#"class="monogram"#))
        // Search results show the thumbnail too: the index's rows name it (20 characters, not
        // the path), for contacts with a photo only.
        let rows = files.filter { $0.key.hasPrefix("search/") }.values.map { Self.text($0) }.joined()
        #expect(rows.contains("\"\(adaName)\""))
        #expect(rows.components(separatedBy: "-96.webp").count == 1)
        let dee = Self.photoText(files["contacts/dee.html"])
        #expect(dee.contains(#"class="monogram"#) && !dee.contains("<img"))
        #expect(Self.text(files["contacts/dee.html"]).contains(#"<img class="qr-code""#))
    }

    /// The contact's vCard carries the photo as written (without metadata), and reads back.
    @Test func theContactsVCardCarriesThePhoto() throws {
        let files = try Self.render(try Self.input())
        let card = Self.text(files["contacts/ada.vcf"])
        #expect(card.contains("PHOTO;ENCODING=b;TYPE=JPEG:"))
        let (store, diagnostics) = StoreDecoder.decode([.vCard(SourceText(path: "ada.vcf", text: card))])
        #expect(diagnostics.isEmpty)
        #expect(store.contacts.first?.photo?.data.bytes == (try Self.image("face.jpg")))
        // A group's and the directory's files stay small: no member's photo.
        #expect(!Self.text(files["contacts.vcf"]).contains("PHOTO"))
    }

    @Test func hiddenPhotosAndHiddenContactsWriteNoPhoto() throws {
        var config = SiteConfig()
        config.hiddenContacts = ["eve"]
        let gif = try Self.image("face.gif")
        var files = try Self.render(try Self.input(config: config))
        #expect(files.keys.filter { $0.hasPrefix("photos/") }.count == 6)
        #expect(!files.keys.contains { $0.contains(SHA256.hex(of: gif).prefix(20)) })
        config.hiddenFields = [.photo]
        files = try Self.render(try Self.input(config: config))
        #expect(!files.keys.contains { $0.hasPrefix("photos/") })
        #expect(!files.values.contains { Self.photoText($0).contains("<img") || Self.text($0).contains("PHOTO") })
    }

    /// Two builds of one store write the same bytes: libvips' thumbnails carry no time stamp.
    @Test func photosAreDeterministic() throws {
        let first = try Self.render(try Self.input()).filter { $0.key.hasPrefix("photos/") }
        let second = try Self.render(try Self.input()).filter { $0.key.hasPrefix("photos/") }
        #expect(first == second)
    }

    /// An image libvips cannot read, though its first and last bytes look right, is a warning,
    /// and the contact is shown with its monogram.
    @Test func aPhotoLibvipsCannotReadIsAWarning() throws {
        var png = try Self.image("face.png")
        // The pixel data is damaged; the header and the end are as they were.
        for index in 60..<(png.count - 40) { png[index] = 0x55 }
        var input = try Self.input()
        input.storeFiles[3] = .photo(SourceText(path: "store/photos/bo.png", bytes: png), storePath: "photos/bo.png")
        let site = try Site.load(input)
        #expect(site.warnings.map(\.description).contains { $0.contains(#"the photo of contact "bo" cannot be read"#) })
        #expect(site.store.contacts.first { $0.id == "bo" }?.photo == nil)
    }

    /// libvips is loaded when a photo needs it; when it cannot be, the store with photos gets
    /// one error that says what to install, and a store without photos never asks for it.
    @Test func aMissingLibvipsIsOneErrorOnlyWhenAPhotoNeedsIt() throws {
        let missing = PhotoImages.load("libvips-that-is-not-installed.so.42")
        guard case .failure(let failure) = missing else {
            Issue.record("a library that is not there was loaded")
            return
        }
        #expect(failure.isLibraryMissing)
        #expect(
            failure.message.hasPrefix(
                "photos need libvips, which could not be loaded (libvips-that-is-not-installed.so.42: "))
        #expect(failure.message.hasSuffix("; install Debian's libvips42 package"))

        var contacts = StoreDecoder.decode(try Self.input().storeFiles).store.contacts
        var asked = 0
        let (photos, diagnostics) = SitePhotos.make(for: &contacts, cache: nil) {
            asked += 1
            return missing
        }
        #expect(asked == 1)
        #expect(photos.files.isEmpty)
        #expect(diagnostics.map(\.description) == ["error: " + failure.message])

        var withoutPhotos = contacts.filter { $0.photo == nil }
        let (none, quiet) = SitePhotos.make(for: &withoutPhotos, cache: nil) {
            asked += 1
            return missing
        }
        #expect(asked == 1)
        #expect(none.files.isEmpty && quiet.isEmpty)
        #expect(withoutPhotos.count == 1)
    }

    /// The library the command loads is there, and starts.
    @Test func libvipsLoads() {
        if case .failure(let failure) = PhotoImages.library { Issue.record("\(failure.message)") }
    }

    /// libvips runs without orc's run-time compiled code: Debian 12's orc is not safe when two
    /// threads compile or free programs at once, and libvips compiled one for every shrink.
    @Test func libvipsRunsNoCompiledVectorCode() throws {
        try PhotoImages.library.get()
        #expect(!PhotoImages.usesVectorCode)
    }

    /// What decides a photo file's bytes besides our code names libvips' version and each
    /// library loading it brought in, the encoders among them, by file name (no folder of this
    /// machine), size and time, sorted: a line each, and the same every time it is asked.
    @Test func theLibrariesThatMakePhotosAreNamedWithTheirSizesAndTimes() throws {
        try PhotoImages.library.get()
        let text = String(decoding: try #require(PhotoImages.libraries), as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("libvips 8.") == true, "\(lines.first ?? "")")
        let libraries = Array(lines.dropFirst())
        #expect(libraries == libraries.sorted())
        for name in ["libvips.so.42 ", "libwebp.so.", "libjpeg.so."] {
            #expect(libraries.contains { $0.hasPrefix(name) }, "no \(name) in \(libraries)")
        }
        // Loaded before libvips, so not brought in by it.
        #expect(!libraries.contains { $0.hasPrefix("libc.so.") })
        for line in libraries {
            let fields = line.split(separator: " ")
            #expect(fields.count == 3 && !fields[0].contains("/") && Int(fields[1]) != nil, "\(line)")
        }
    }
}
