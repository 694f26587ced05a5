import Testing
@testable import RolodeckCore
@testable import RolodeckSite

/// The vCard writer line by line: folding, escaping, structured values, labels, determinism.
@Suite struct VCardWriterTests {
    /// The lines of a card as written, CR LF taken off, folds left in.
    static func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(current)
                current = []
                index += 2
            } else {
                current.append(bytes[index])
                index += 1
            }
        }
        #expect(current.isEmpty, "the card does not end in CR LF")
        return lines
    }

    /// The logical lines: each fold (CR LF and a space) undone.
    static func unfolded(_ bytes: [UInt8]) -> [String] {
        var lines: [[UInt8]] = []
        for line in physicalLines(bytes) {
            if line.first == UInt8(ascii: " "), !lines.isEmpty {
                lines[lines.count - 1] += line.dropFirst()
            } else {
                lines.append(line)
            }
        }
        return lines.map { String(decoding: $0, as: UTF8.self) }
    }

    static func contact(_ build: (inout Contact) -> Void) -> Contact {
        var contact = Contact(id: "c1")
        contact.givenName = "Ann"
        contact.familyName = "Lee"
        build(&contact)
        return contact
    }

    static func card(_ contact: Contact, categories: [String] = []) -> [UInt8] {
        VCardWriter(revisionDate: PartialDate(year: 2026, month: 12, day: 4))
            .card(ExportedCard(contact: contact, formattedName: "Ann Lee", categories: categories))
    }

    struct FoldCase: CustomTestStringConvertible, Sendable {
        let name: String
        let note: String
        var testDescription: String { name }
    }

    static let foldCases = [
        FoldCase(name: "ASCII", note: String(repeating: "abcdefghij", count: 30)),
        FoldCase(name: "two-byte letters", note: String(repeating: "äöüß", count: 60)),
        FoldCase(name: "three-byte Hangul", note: String(repeating: "가나다라마", count: 40)),
        FoldCase(name: "four-byte emoji", note: "x" + String(repeating: "😀", count: 70)),
        FoldCase(name: "mixed", note: String(repeating: "a가ä😀b", count: 50)),
    ]

    /// No line is longer than 75 octets, no fold cuts a character (every line is valid UTF-8 on
    /// its own), and unfolding gives the value back.
    @Test(arguments: foldCases)
    func longLinesFoldAtCharacterBoundaries(_ testCase: FoldCase) throws {
        let bytes = Self.card(Self.contact { $0.notes = testCase.note })
        let lines = Self.physicalLines(bytes)
        #expect(lines.count > 3)
        for line in lines {
            #expect(line.count <= 75, "a line of \(line.count) octets")
            #expect(String(validating: line, as: UTF8.self) != nil, "a fold splits a character")
        }
        // Folds are as late as the width allows: a line is short of 75 only by a cut character.
        for line in lines.dropLast() where line.count < 72 && lines.firstIndex(of: line)! > 0 {
            let next = lines[lines.firstIndex(of: line)! + 1]
            #expect(next.first != UInt8(ascii: " "), "a folded line of only \(line.count) octets")
        }
        #expect(Self.unfolded(bytes).contains("NOTE:" + testCase.note))
    }

    struct EscapeCase: Sendable, CustomTestStringConvertible {
        let text: String
        let escaped: String
        var testDescription: String { escaped }
    }

    static let escapeCases = [
        EscapeCase(text: "plain", escaped: "plain"),
        EscapeCase(text: "a,b;c\\d", escaped: "a\\,b\\;c\\\\d"),
        EscapeCase(text: "line 1\nline 2", escaped: "line 1\\nline 2"),
        EscapeCase(text: "crlf\r\nand cr\rend", escaped: "crlf\\nand cr\\nend"),
        EscapeCase(text: "\\n is not a break", escaped: "\\\\n is not a break"),
        EscapeCase(text: "Müller, \"Hans\"", escaped: "Müller\\, \"Hans\""),
    ]

    @Test(arguments: escapeCases)
    func textIsEscaped(_ testCase: EscapeCase) {
        #expect(VCardLines.escaped(testCase.text) == testCase.escaped)
    }

    /// A comma or semicolon inside a name part or an address part stays inside it.
    @Test func structuredValuesKeepTheirComponents() {
        let contact = Self.contact {
            $0.familyName = "Lee; Park"
            $0.givenName = "Ann, Marie"
            $0.additionalNames = "J."
            $0.salutation = "Dr."
            $0.suffix = "Jr., M.Sc."
            $0.addresses = [
                PostalAddress(
                    label: "home", street: "Main St. 1\nBack house, 2nd floor", postalCode: "10999",
                    city: "Berlin; Kreuzberg", region: "BE", country: "Germany")
            ]
        }
        let lines = Self.unfolded(Self.card(contact))
        #expect(lines.contains("N:Lee\\; Park;Ann\\, Marie;J.;Dr.;Jr.\\, M.Sc."))
        #expect(
            lines.contains(
                "ADR;TYPE=HOME:;;Main St. 1\\nBack house\\, 2nd floor;Berlin\\; Kreuzberg;BE;10999;Germany"))
    }

    struct LabelCase: Sendable, CustomTestStringConvertible {
        let label: String
        let types: [String]
        let custom: String?
        var testDescription: String { "\"\(label)\"" }
    }

    static let labelCases = [
        LabelCase(label: "mobile", types: ["CELL"], custom: nil),
        LabelCase(label: "Mobile", types: ["CELL"], custom: nil),
        LabelCase(label: "cell", types: ["CELL"], custom: nil),
        LabelCase(label: "iphone", types: ["CELL"], custom: nil),
        LabelCase(label: "work", types: ["WORK"], custom: nil),
        LabelCase(label: "Work", types: ["WORK"], custom: nil),
        LabelCase(label: "home", types: ["HOME"], custom: nil),
        LabelCase(label: "work,fax", types: ["WORK", "FAX"], custom: nil),
        LabelCase(label: "workfax", types: ["WORK", "FAX"], custom: nil),
        LabelCase(label: "pager", types: ["PAGER"], custom: nil),
        LabelCase(label: "main", types: ["MAIN"], custom: nil),
        LabelCase(label: "other", types: ["OTHER"], custom: nil),
        LabelCase(label: "voice,pref,home", types: ["HOME"], custom: nil),
        LabelCase(label: "_$!<Mobile>!$_", types: ["CELL"], custom: nil),
        LabelCase(label: "", types: [], custom: nil),
        LabelCase(label: "Assistant", types: [], custom: "Assistant"),
        LabelCase(label: "Tennis club", types: [], custom: "Tennis club"),
        LabelCase(label: "_$!<HomePage>!$_", types: [], custom: "HomePage"),
        LabelCase(label: "work, Büro 2", types: [], custom: "work, Büro 2"),
    ]

    @Test(arguments: labelCases)
    func labelsBecomeTypesOrCustomLabels(_ testCase: LabelCase) {
        let (types, custom) = VCardTypes.of(testCase.label)
        #expect(types == testCase.types)
        #expect(custom == testCase.custom)
    }

    /// Known labels are `TYPE`s; the user's own ride in an Apple property group.
    @Test func phonesAndEmailsCarryTheirLabels() {
        let contact = Self.contact {
            $0.phones = [
                LabeledValue(label: "mobile", value: "+49 151 1"),
                LabeledValue(label: "Assistant", value: "+49 30 2"),
            ]
            $0.emails = [LabeledValue(label: "work", value: "ann@example.com")]
            $0.urls = [LabeledValue(label: "Blog", value: "https://example.com/a,b")]
        }
        let lines = Self.unfolded(Self.card(contact))
        #expect(lines.contains("TEL;TYPE=CELL:+49 151 1"))
        #expect(lines.contains("item1.TEL:+49 30 2"))
        #expect(lines.contains("item1.X-ABLabel:Assistant"))
        #expect(lines.contains("EMAIL;TYPE=INTERNET,WORK:ann@example.com"))
        #expect(lines.contains("item2.URL:https://example.com/a\\,b"))
        #expect(lines.contains("item2.X-ABLabel:Blog"))
    }

    /// The whole card of a small contact, byte for byte: the order of properties, `UID`, `REV`.
    @Test func aCardIsWrittenInAFixedOrder() {
        let contact = Self.contact {
            $0.id = "0b5f1d9e-3c1a-4b7e-9d2f-6a8c4e2b1f00"
            $0.nickname = "Annie"
            $0.organization = "Lee & Co"
            $0.birthday = PartialDate(year: nil, month: 2, day: 29)
            $0.notes = "Likes **tea**."
        }
        let text = String(
            decoding: Self.card(contact, categories: ["Team, Berlin", "Family"]), as: UTF8.self)
        #expect(
            text
                == [
                    "BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Rolodeck//Rolodeck//EN",
                    "UID:urn:uuid:0b5f1d9e-3c1a-4b7e-9d2f-6a8c4e2b1f00", "FN:Ann Lee", "N:Lee;Ann;;;",
                    "NICKNAME:Annie",
                    "ORG:Lee & Co", "BDAY;X-APPLE-OMIT-YEAR=1604:1604-02-29",
                    "CATEGORIES:Team\\, Berlin,Family",
                    "NOTE:Likes **tea**.", "REV:2026-12-04T00:00:00Z", "END:VCARD", "",
                ].joined(separator: "\r\n"))
    }

    @Test func theSameContactGivesTheSameBytes() {
        let contact = Self.contact { $0.phones = [LabeledValue(label: "x", value: "1")] }
        let copy = Self.contact { $0.phones = [LabeledValue(label: "x", value: "1")] }
        #expect(Self.card(contact) == Self.card(copy))
        #expect(
            VCardWriter.compactCard(ExportedCard(contact: contact, formattedName: "A"))
                == VCardWriter.compactCard(ExportedCard(contact: copy, formattedName: "A")))
    }

    /// The QR code's card keeps the name and first phone, adds what fits, and stays unfolded.
    @Test func theCompactCardStaysWithinItsLimit() {
        let contact = Self.contact {
            $0.organization = "Lee & Co"
            $0.phones = (1...30).map { LabeledValue(label: "work", value: "+49 30 1234 56\($0)") }
            $0.emails = [LabeledValue(label: "home", value: "ann@example.com")]
            $0.notes = "Never in a QR code."
        }
        // A limit of its own, so the lengths below hold whatever the default.
        let limit = 400
        let bytes = VCardWriter.compactCard(
            ExportedCard(contact: contact, formattedName: "Ann Lee"), limit: limit)
        let lines = Self.physicalLines(bytes).map { String(decoding: $0, as: UTF8.self) }
        #expect(bytes.count <= limit)
        #expect(
            Array(lines.prefix(5)) == [
                "BEGIN:VCARD", "VERSION:3.0", "N:Lee;Ann;;;", "FN:Ann Lee",
                "TEL;TYPE=WORK:+49 30 1234 561",
            ])
        #expect(lines.contains("ORG:Lee & Co"))
        #expect(lines.last == "END:VCARD")
        #expect(!lines.contains { $0.hasPrefix("NOTE") || $0.hasPrefix("UID") || $0.hasPrefix(" ") })
        // Not every phone fit, and the card is full: no other phone would have.
        #expect(lines.count { $0.hasPrefix("TEL") } < 30)
        #expect(bytes.count + "TEL;TYPE=WORK:+49 30 1234 5630\r\n".utf8.count > limit)
        // A short one after those that did not fit still does.
        var short = contact
        short.urls = [LabeledValue(label: "", value: "https://a.example")]
        short.phones = Array(contact.phones.prefix(9))
        short.emails = [LabeledValue(label: "home", value: "ann.lee.the.first@example.com")]
        let withURL = VCardWriter.compactCard(
            ExportedCard(contact: short, formattedName: "Ann Lee"), limit: limit)
        let urlLines = Self.physicalLines(withURL).map { String(decoding: $0, as: UTF8.self) }
        #expect(!urlLines.contains { $0.hasPrefix("EMAIL") })
        #expect(urlLines.contains("URL:https://a.example"))
    }

    /// The QR code holds those bytes: the first row of a version's finder pattern, a quiet zone.
    @Test func theQRCodeHasFinderPatternsAndAQuietZone() throws {
        let code = try #require(QRCode(encoding: Array("BEGIN:VCARD\r\nFN:Ann\r\nEND:VCARD\r\n".utf8)))
        // 33 bytes at medium correction need version 3: 29 modules, 37 with the quiet zone.
        #expect(code.width == 29)
        #expect(code.size == 37)
        // The finder pattern in the top left: a row of seven dark modules, then a light one.
        #expect((0..<7).allSatisfy { code.isDark(x: $0, y: 0) } && !code.isDark(x: 7, y: 0))
        #expect(QRCode(encoding: []) == nil)
        #expect(QRCode(encoding: Array(repeating: 0x41, count: 4000)) == nil)
    }
    /// Base64 gives RFC 4648's test vectors (section 10), padding included.
    @Test func base64GivesTheRFCsVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
                       "foobar": "Zm9vYmFy"]
        for (text, expected) in vectors { #expect(Base64Text.encoded(Array(text.utf8)) == expected) }
        #expect(Base64Text.encoded([0xFB, 0xFF, 0xBF]) == "+/+/")
    }

    /// The checksums the PNG needs give the check values their standards publish: CRC-32 of
    /// "123456789" (ISO 3309, as zlib and PNG use it), Adler-32 of "Wikipedia" (RFC 1950's
    /// algorithm), and the CRC every PNG's empty IEND chunk ends with.
    @Test func thePNGChecksumsMatchTheirCheckValues() {
        #expect(PNGChunk.crc32(ArraySlice("123456789".utf8)) == 0xCBF4_3926)
        #expect(PNGChunk.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(PNGChunk.adler32([]) == 1)
        let image = PNGChunk.greyscaleImage(side: 3) { _, pixels in pixels.update(repeating: 0xFF) }
        #expect(image.suffix(12) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82])
        // Past 5,552 bytes the sums are reduced: 100,000 bytes of 0xFF, worked out by the formula.
        let ones = [UInt8](repeating: 0xFF, count: 100_000)
        let a = (1 + 255 * 100_000) % 65_521
        let b = (100_000 + 255 * (100_000 * 100_001 / 2)) % 65_521
        #expect(PNGChunk.adler32(ones) == UInt32(b << 16 | a))
    }

    /// The PNG holds exactly the code: read back chunk by chunk (each CRC checked), its stored
    /// deflate blocks joined, every row's pixels are the modules with a light quiet zone, for
    /// codes whose rows take one and two words (20, 300 and 1,500 bytes).
    @Test(arguments: [20, 300, 1_500])
    func thePNGShowsEveryModule(byteCount: Int) throws {
        let bytes = (0..<byteCount).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let code = try #require(QRCode(encoding: bytes))
        let png = code.png
        #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var chunks: [(type: String, data: [UInt8])] = []
        var offset = 8
        func word(_ at: Int) -> Int { png[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        while offset + 12 <= png.count {
            let length = word(offset)
            let type = String(decoding: png[offset + 4..<offset + 8], as: UTF8.self)
            let data = Array(png[offset + 8..<offset + 8 + length])
            #expect(UInt32(word(offset + 8 + length)) == PNGChunk.crc32(png[offset + 4..<offset + 8 + length]))
            chunks.append((type, data))
            offset += 12 + length
        }
        #expect(offset == png.count)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        let header = chunks[0].data
        let side = code.size
        #expect(header == [0, 0, 0, UInt8(side), 0, 0, 0, UInt8(side), 1, 0, 0, 0, 0])
        // The zlib stream: its header, stored blocks, the Adler-32 of what they hold.
        let stream = chunks[1].data
        #expect(stream.prefix(2) == [0x78, 0x01])
        var pixels: [UInt8] = []
        var at = 2
        var last = false
        while !last {
            last = stream[at] & 1 == 1
            #expect(stream[at] >> 1 == 0)  // stored
            let count = Int(stream[at + 1]) | Int(stream[at + 2]) << 8
            #expect(Int(stream[at + 3]) | Int(stream[at + 4]) << 8 == ~count & 0xFFFF)
            pixels += stream[at + 5..<at + 5 + count]
            at += 5 + count
        }
        #expect(stream.count == at + 4)
        #expect(UInt32(stream[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }) == PNGChunk.adler32(pixels))
        let rowBytes = (side + 7) / 8
        #expect(pixels.count == side * (rowBytes + 1))
        var drawn: [Bool] = []
        for y in 0..<side {
            let row = pixels[y * (rowBytes + 1)..<(y + 1) * (rowBytes + 1)]
            #expect(row.first == 0)
            for x in 0..<side {
                let black = row[row.startIndex + 1 + x / 8] >> (7 - x % 8) & 1 == 0
                let module = (x - QRCode.quietZone, y - QRCode.quietZone)
                if (0..<code.width).contains(module.0), (0..<code.width).contains(module.1) {
                    drawn.append(black)
                } else {
                    #expect(!black, "the quiet zone at \(x), \(y) is light")
                }
            }
        }
        #expect(drawn == code.modules)
        if byteCount == 1_500 { #expect(code.width > 100) }
    }
}
