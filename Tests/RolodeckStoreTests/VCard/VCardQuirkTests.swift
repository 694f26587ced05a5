import Testing
@testable import RolodeckStore
@testable import RolodeckCore

/// The ways real vCard exports bend the standards, each read into the contact it means, with
/// the exact warning where a card has a problem.
@Suite struct VCardQuirkTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: [UInt8]
        var contacts: [String]
        var warnings: [String] = []
        var testDescription: String { name }

        init(_ name: String, _ input: String, contacts: [String], warnings: [String] = []) {
            self.init(name, bytes: Array(input.utf8), contacts: contacts, warnings: warnings)
        }

        init(_ name: String, bytes: [UInt8], contacts: [String], warnings: [String] = []) {
            self.name = name
            self.input = bytes
            self.contacts = contacts
            self.warnings = warnings
        }
    }

    /// Contacts as `StoreDump` text and every diagnostic, from one file `c.vcf`.
    static func read(_ bytes: [UInt8]) -> (contacts: [String], diagnostics: [String]) {
        let (store, diagnostics) = StoreDecoder.decode([.vCard(SourceText(path: "c.vcf", bytes: bytes))])
        return (store.contacts.map { StoreDump.contact($0) }, diagnostics.map(\.description))
    }

    /// A card's lines joined with CRLF, as most exports write them.
    static func card(_ lines: String...) -> String {
        (["BEGIN:VCARD"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    static let latin1 = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=ISO-8859-1:M".utf8) + [0xFC]
        + Array("ller;J".utf8) + [0xFC] + Array("rgen\r\nEND:VCARD\r\n".utf8)
    static let windows1252 = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Zo".utf8) + [0xEB]
        + Array(" Ashworth\r\nNOTE:".utf8) + [0x93] + Array("Hi".utf8) + [0x94] + Array("\r\nEND:VCARD\r\n".utf8)
    static let shiftJIS = Array("BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=SHIFT_JIS:".utf8)
        + [0x88, 0xC9, 0x94, 0x5C] + Array(";".utf8) + [0x8C, 0x5C, 0x88, 0xEA] + Array("\r\nEND:VCARD\r\n".utf8)

    static let cases: [Case] = [
        Case("a byte-order mark, LF line ends", "\u{FEFF}BEGIN:VCARD\nVERSION:3.0\nN:Ng;Anh\nEND:VCARD\n",
             contacts: ["id: Anh Ng\ngiven: Anh\nfamily: Ng"]),
        Case("CR line ends", "BEGIN:VCARD\rVERSION:3.0\rN:Ng;Anh\rTEL:1\rEND:VCARD\r",
             contacts: ["id: Anh Ng\ngiven: Anh\nfamily: Ng\nphone: 1"]),
        Case("vCard 2.1 unfolding keeps the space",
             card("VERSION:2.1", "N:Ng;Anh", "FN:Anh", " Ng", "NOTE:first half", " second half"),
             contacts: ["id: Anh Ng\ngiven: Anh\nfamily: Ng\nnotes: first half second half"]),
        Case("vCard 3.0 unfolding drops it",
             card("VERSION:3.0", "N:Ng;Anh", "NOTE:hyphen-", " ated"),
             contacts: ["id: Anh Ng\ngiven: Anh\nfamily: Ng\nnotes: hyphen-ated"]),
        Case("quoted-printable is joined on bytes, across a soft break in a character",
             card("VERSION:2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=E5=AE=89=E8=97=A4;=E3=83=AD=E3=82=",
                  "=A4=E3=83=89", "NOTE;QUOTED-PRINTABLE:Zeile 1=0D=0AZeile=", " 2"),
             contacts: ["id: ロイド 安藤\ngiven: ロイド\nfamily: 安藤\nnotes: Zeile 1⏎Zeile 2"]),
        Case("CHARSET=ISO-8859-1", bytes: latin1, contacts: ["id: Jürgen Müller\ngiven: Jürgen\nfamily: Müller"]),
        Case("8-bit text without CHARSET is windows-1252, said once", bytes: windows1252,
             contacts: ["id: Zoë Ashworth\ngiven: Zoë\nfamily: Ashworth\nnotes: “Hi”"],
             warnings: ["c.vcf:3:4: warning: this text is not UTF-8 and names no CHARSET; it is read as windows-1252"]),
        Case("CHARSET=SHIFT_JIS, with a backslash byte inside a character", bytes: shiftJIS,
             contacts: ["id: 圭一 伊能\ngiven: 圭一\nfamily: 伊能"]),
        Case("bare 2.1 parameters and every way of writing TYPE",
             card("VERSION:2.1", "FN:Ann Lee", "TEL;CELL:1", "TEL;WORK;FAX:2", "TEL;TYPE=HOME;TYPE=VOICE:3",
                  "TEL;TYPE=work,voice:4", "TEL;TYPE=\"cell,text\":5", "TEL;type=IPHONE;type=CELL;type=pref:6",
                  "EMAIL;INTERNET;PREF:ann@example.com", "TEL;X-Satellite:7"),
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee\nphone: (cell) 1\nphone: (work,fax) 2\nphone: (home) 3\n"
                        + "phone: (work) 4\nphone: (cell) 5\nphone: (cell) 6\nphone: (satellite) 7\n"
                        + "email: ann@example.com"]),
        Case("escapes, and RFC 6868 carets in SORT-AS",
             card("VERSION:4.0", "FN:Vincent van Gogh", #"N;SORT-AS="Gogh^^,Vincent":van Gogh;Vincent;;;"#,
                  #"ORG:Van Gogh\, Inc.;Art\;Craft"#, #"NOTE:line one\nline two\, with a comma"#),
             contacts: ["id: Vincent van Gogh\ngiven: Vincent\nfamily: van Gogh\nsort given: Vincent\nsort family: Gogh^\n"
                        + "organization: Van Gogh, Inc., Art;Craft\nnotes: line one⏎line two, with a comma"]),
        Case("property groups with Apple's custom labels",
             card("VERSION:3.0", "N:Lee;Ann;;;", "item1.TEL:555 1", "item1.X-ABLabel:_$!<Mobile>!$_",
                  "item2.EMAIL;type=INTERNET:ann@club.example", "item2.X-ABLabel:Tennis club",
                  "item3.URL:https\\://ann.example", "item3.X-ABLabel:_$!<HomePage>!$_"),
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee\nphone: (Mobile) 555 1\nemail: (Tennis club) ann@club.example\n"
                        + "url: (HomePage) https://ann.example"]),
        Case("several cards in one file, one with BEGIN in lower case",
             card("VERSION:3.0", "N:Lee;Ann") + "begin:vcard\r\nversion:3.0\r\nn:Kim;Bo\r\nend:vcard\r\n",
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee", "id: Bo Kim\ngiven: Bo\nfamily: Kim"]),
        Case("BEGIN and END with blanks around VCARD, one of them a no-break space",
             "BEGIN: VCard\t\r\nVERSION:3.0\r\nN:Lee;Ann\r\nEND:vcard \r\n"
                + "BEGIN:\u{00A0}VCARD\r\nVERSION:3.0\r\nN:Kim;Bo\r\nEND:\u{00A0}VCARD\u{00A0}\r\n",
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee", "id: Bo Kim\ngiven: Bo\nfamily: Kim"]),
        Case("base64 photos in every layout do not disturb the lines around them",
             card("VERSION:2.1", "N:One;Photo", "PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQSkZJRgABAQAAAQABAAD",
                  "  /2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcp", "", "TEL;CELL:1")
                + card("VERSION:2.1", "N:Two;Photo", "PHOTO;BASE64:iVBORw0KGgoAAAANSUhEUgAAAAE",
                       "AAAAAQCAYAAAAfFcSJAAAADUlEQVR42mNk", "", "TEL:2")
                + card("VERSION:3.0", "N:Three;Photo", "PHOTO;ENCODING=b;TYPE=PNG:iVBORw0KGgoAAAANSUhEUgAAAAE",
                       " AAAAAQCAYAAAAfFcSJAAAADUlEQVR42mNk", "TEL:3")
                + card("VERSION:4.0", "N:Four;Photo", "PHOTO:data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAA",
                       " AAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk", "TEL:4"),
             contacts: ["id: Photo One\ngiven: Photo\nfamily: One\nphone: (cell) 1",
                        "id: Photo Two\ngiven: Photo\nfamily: Two\nphone: 2",
                        "id: Photo Three\ngiven: Photo\nfamily: Three\nphone: 3",
                        "id: Photo Four\ngiven: Photo\nfamily: Four\nphone: 4"],
             // Fragments of photos, each a warning of its own; the lines after them are read.
             warnings: [
                "c.vcf:4:33: warning: photo is a JPEG image that ends too soon (truncated); the contact is shown without a photo",
                "c.vcf:12:14: warning: PHOTO is not valid base64; the contact is shown without a photo",
                "c.vcf:20:27: warning: PHOTO is not valid base64; the contact is shown without a photo",
                "c.vcf:27:7: warning: photo is a PNG image that ends too soon (truncated); the contact is shown without a photo",
             ]),
        Case("missing FN and VERSION: the name comes from N", "BEGIN:VCARD\r\nN:Ando;Roid;;;\r\nEND:VCARD\r\n",
             contacts: ["id: Roid Ando\ngiven: Roid\nfamily: Ando"]),
        Case("missing N: the name comes from FN, family name last or (in East Asian names) first",
             card("VERSION:3.0", "FN:Frank Dawson") + card("VERSION:3.0", "FN:安藤 ロイド")
                + card("VERSION:3.0", "FN:Prince"),
             contacts: ["id: Frank Dawson\ngiven: Frank\nfamily: Dawson", "id: 安藤 ロイド\ngiven: ロイド\nfamily: 安藤",
                        "id: Prince\ngiven: Prince"]),
        Case("a card that is its organization", card("VERSION:3.0", "N:;;;;", "FN:Acme GmbH", "ORG:Acme GmbH;Sales"),
             contacts: ["id: Acme GmbH\norganization: Acme GmbH, Sales"]),
        Case("no name at all: the email or phone names it",
             card("VERSION:3.0", "EMAIL:someone@example.com") + card("VERSION:2.1", "TEL;CELL:+49 151 1"),
             contacts: ["id: someone@example.com\nnickname: someone@example.com\nemail: someone@example.com",
                        "id: +49 151 1\nnickname: +49 151 1\nphone: (cell) +49 151 1"]),
        Case("birthdays: full, without a year, Apple's 1604 (with or without X-APPLE-OMIT-YEAR), 0000, and wrong ones",
             card("VERSION:3.0", "N:A;One", "BDAY:1980-03-22") + card("VERSION:4.0", "N:B;Two", "BDAY:--0229")
                + card("VERSION:3.0", "N:C;Three", "BDAY;X-APPLE-OMIT-YEAR=1604:1604-05-06")
                + card("VERSION:3.0", "N:D;Four", "BDAY:19900230") + card("VERSION:4.0", "N:E;Five", "BDAY:19531015T231000Z")
                + card("VERSION:3.0", "N:F;Six", "BDAY:sometime in May")
                + card("VERSION:3.0", "N:G;Seven", "BDAY:1604-12-24") + card("VERSION:2.1", "N:H;Eight", "BDAY:0000-01-02"),
             contacts: ["id: One A\ngiven: One\nfamily: A\nbirthday: 1980-03-22",
                        "id: Two B\ngiven: Two\nfamily: B\nbirthday: --02-29",
                        "id: Three C\ngiven: Three\nfamily: C\nbirthday: --05-06",
                        "id: Four D\ngiven: Four\nfamily: D",
                        "id: Five E\ngiven: Five\nfamily: E\nbirthday: 1953-10-15",
                        "id: Six F\ngiven: Six\nfamily: F",
                        "id: Seven G\ngiven: Seven\nfamily: G\nbirthday: --12-24",
                        "id: Eight H\ngiven: Eight\nfamily: H\nbirthday: --01-02"],
             warnings: [
                "c.vcf:19:6: warning: BDAY \"19900230\" is not a date: February 1990 has 28 days; the birthday is left out",
                "c.vcf:29:6: warning: BDAY \"sometime in May\" is not a date; the birthday is left out",
             ]),
        Case("coordinates: vCard 4's geo: URI, vCard 3's pair, the first of two, and wrong ones",
             card("VERSION:4.0", "FN:One A", "GEO:geo:46.772673,-71.282945;u=10", "GEO:geo:1,2")
                + card("VERSION:3.0", "N:B;Two", "GEO:37.386013;-122.082932")
                + card("VERSION:3.0", "N:C;Three", "GEO:somewhere nice"),
             contacts: ["id: One A\ngiven: One\nfamily: A\ngeo: geo:46.772673,-71.282945",
                        "id: Two B\ngiven: Two\nfamily: B\ngeo: geo:37.386013,-122.082932",
                        "id: Three C\ngiven: Three\nfamily: C"],
             warnings: [
                "c.vcf:15:5: warning: GEO \"somewhere nice\" is not a latitude and longitude in degrees; the location is left out",
             ]),
        Case("access classification: CLASS in capitals, the first of two, none when empty",
             card("VERSION:3.0", "N:A;One", "CLASS:PUBLIC")
                + card("VERSION:3.0", "N:B;Two", "class:confidential", "CLASS:PUBLIC")
                + card("VERSION:4.0", "FN:Three C", "CLASS: x-family ")
                + card("VERSION:2.1", "N:D;Four", "CLASS:")
                + card("VERSION:3.0", "N:E;Five"),
             contacts: ["id: One A\ngiven: One\nfamily: A\nclass: PUBLIC",
                        "id: Two B\ngiven: Two\nfamily: B\nclass: CONFIDENTIAL",
                        "id: Three C\ngiven: Three\nfamily: C\nclass: X-FAMILY",
                        "id: Four D\ngiven: Four\nfamily: D", "id: Five E\ngiven: Five\nfamily: E"]),
        Case("every field Rolodeck shows",
             card("VERSION:3.0", "UID:urn:uuid:0A1B", "N:Müller;Jürgen;Karl;Dr.;M.Sc.", "FN:Dr. Jürgen Müller",
                  "NICKNAME:Jü,Jürgi", "X-PHONETIC-FIRST-NAME:Yürgen", "X-PHONETIC-LAST-NAME:Mueller",
                  "ORG:Morgenrot GmbH", "TITLE:Geschäftsführer", "TEL;TYPE=WORK:+49 30 1",
                  "EMAIL;TYPE=INTERNET,WORK:j@morgenrot.example",
                  #"ADR;TYPE=WORK:Postfach 9;Haus B;Hauptstraße 5\nHinterhof;Berlin;BE;10115;Germany"#,
                  "URL:morgenrot.example", "BDAY:1970-02-28", #"NOTE:Prefers **email**.\n\n- one\n- two"#),
             contacts: ["id: 0A1B\ngiven: Jürgen\nfamily: Müller\nadditional: Karl\nsalutation: Dr.\nsuffix: M.Sc.\n"
                        + "nickname: Jü, Jürgi\nphonetic given: Yürgen\nphonetic family: Mueller\n"
                        + "organization: Morgenrot GmbH\ntitle: Geschäftsführer\nphone: (work) +49 30 1\n"
                        + "email: (work) j@morgenrot.example\n"
                        + "address: (work) street=Hauptstraße 5⏎Hinterhof⏎Haus B⏎Postfach 9; code=10115; city=Berlin; region=BE; "
                        + "country=Germany\n"
                        + "url: morgenrot.example\nbirthday: 1970-02-28\nnotes: Prefers **email**.⏎⏎- one⏎- two"]),
        Case("a line that is not a property costs only that line",
             card("VERSION:3.0", "N:Lee;Ann", "this line is broken", "TEL:1"),
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee\nphone: 1"],
             warnings: ["c.vcf:4:1: warning: this line is not a property (NAME:value) and is ignored"]),
        Case("a card without END:VCARD ends at the next BEGIN or the end of the file",
             "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Lee;Ann\r\n" + card("VERSION:3.0", "N:Kim;Bo")
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Park;Jin\r\n",
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee", "id: Bo Kim\ngiven: Bo\nfamily: Kim",
                        "id: Jin Park\ngiven: Jin\nfamily: Park"],
             warnings: [
                "c.vcf:4:1: warning: BEGIN:VCARD comes before the card begun on line 1 has ended; that card ends here",
                "c.vcf:8:1: warning: this card has no END:VCARD; it is read to the end of the file",
             ]),
        Case("a vCard 2.1 AGENT card inside a card is not a card of its own",
             card("VERSION:2.1", "N:Boss;The", "AGENT:", "BEGIN:VCARD", "VERSION:2.1", "N:Assistant;The", "END:VCARD",
                  "TEL:1"),
             contacts: ["id: The Boss\ngiven: The\nfamily: Boss\nphone: 1"]),
        Case("text outside cards, a card with nothing to show, an unknown version",
             "PRODID:PhoneTool\r\n" + card("VERSION:3.0", "NOTE:only a note") + card("VERSION:5.0", "N:Lee;Ann"),
             contacts: ["id: Ann Lee\ngiven: Ann\nfamily: Lee"],
             warnings: [
                "c.vcf:1:1: warning: text outside BEGIN:VCARD … END:VCARD is ignored",
                "c.vcf:2:1: warning: this card has no name, organization, email or phone number to show; it is skipped",
                "c.vcf:7:9: warning: vCard version \"5.0\" is not 2.1, 3.0 or 4.0; the card is read as 3.0",
             ]),
        Case("a file with no card", "Exported by PhoneTool\r\n", contacts: [],
             warnings: ["c.vcf:1:1: warning: this line is not a property (NAME:value) and is ignored",
                        "c.vcf:1:1: warning: this file holds no vCard (BEGIN:VCARD … END:VCARD)"]),
        Case("an empty file", "", contacts: [],
             warnings: ["c.vcf:1:1: warning: this file holds no vCard (BEGIN:VCARD … END:VCARD)"]),
    ]

    @Test(arguments: cases)
    func readsTheCardItMeans(_ testCase: Case) {
        let (contacts, diagnostics) = Self.read(testCase.input)
        #expect(contacts == testCase.contacts)
        #expect(diagnostics == testCase.warnings)
    }
}
