import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckCore

/// A long vCard file (a phone's export of every contact) is read in pieces on every core, each
/// starting at a card. What it yields must be what the file read as a whole yields: the same
/// cards with the same locations, and the same messages.
@Suite struct VCardPiecesTests {
    /// Everything a record holds, its locations included.
    static func dump(_ card: VCardRecord) -> String {
        var lines = ["at \(card.location)", "named \(card.formattedName)"]
        if let uid = card.uid { lines.append("uid \(uid.value) at \(uid.location)") }
        for category in card.categories { lines.append("category \(category.value) at \(category.location)") }
        switch card.content {
        case .contact(let contact):
            lines.append(StoreDump.contact(contact))
        case .group(let name, let notes, let classification, let members):
            lines.append("group \(name): \(notes)" + (classification.map { " [class \($0)]" } ?? ""))
            lines += members.map { "member \($0.value) at \($0.location)" }
        }
        return lines.joined(separator: "\n")
    }

    /// The file read as a whole.
    static func whole(_ text: [UInt8], path: String = "store/book/all.vcf") -> (
        cards: [String], messages: [String]
    ) {
        let (cards, diagnostics) = StoreDecoder.wholeCards(
            of: ContentLineFile(source: SourceText(path: path, bytes: text)))
        return (cards.map(dump), diagnostics.map(\.description))
    }

    /// The file read in pieces of about `length` bytes, or as a whole when some piece has a
    /// problem.
    static func inPieces(_ text: [UInt8], length: Int, path: String = "store/book/all.vcf")
        -> (cards: [String], messages: [String])
    {
        let file = StoreFile.vCard(SourceText(path: path, bytes: text))
        let (cards, diagnostics) = StoreDecoder.cards(of: file, pieceLength: length)
        return (cards.map(dump), diagnostics.map(\.description))
    }

    /// How many pieces a file is cut into, and whether every one is read without a problem.
    static func pieces(_ text: [UInt8], length: Int) -> (count: Int, allRead: Bool) {
        let file = ContentLineFile(source: SourceText(path: "store/book/all.vcf", bytes: text))
        let starts = StoreDecoder.cardPieceStarts(of: file, pieceLength: length)
        let read = starts.indices.allSatisfy { StoreDecoder.cardPiece($0, of: file, starts: starts) != nil }
        return (starts.count, read)
    }

    /// `count` cards of every version and the quirks of real exports: vCard 2.1 with
    /// quoted-printable soft line breaks and a base64 photo on lines of its own, folded 3.0
    /// lines, 4.0 group cards with members, Apple's labels, categories, Korean and Japanese
    /// names, lowercase `begin:vcard`, blank lines between cards, LF and CRLF line ends.
    static func export(_ count: Int) -> [UInt8] {
        var text = ""
        for index in 0..<count {
            let end = index % 7 == 3 ? "\n" : "\r\n"
            var lines: [String]
            switch index % 6 {
            case 0:
                lines = [
                    "BEGIN:VCARD", "VERSION:2.1",
                    "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;J=C3=BCrgen",
                    "NOTE;ENCODING=QUOTED-PRINTABLE:first line=0D=0A=", "second line \(index)",
                    "TEL;CELL:+49 170 \(1_000_000 + index)", "PHOTO;ENCODING=BASE64;TYPE=GIF:",
                    "    R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "",
                    "UID:m\(index)", "END:VCARD",
                ]
            case 1:
                lines = [
                    "BEGIN:VCARD", "VERSION:3.0", "UID:urn:uuid:k\(index)", "N:김;철수;;;", "FN:김철수",
                    "TEL;TYPE=CELL:010-1234-\(String(format: "%04d", index % 10_000))",
                    "NOTE:a note that is long enough to be folded by any exporter that folds at seventy-",
                    " five octets, as RFC 2426 asks \(index)", "CATEGORIES:Tennis,Family", "END:VCARD",
                ]
            case 2:
                lines = [
                    "begin:vcard", "version:3.0", "uid:s\(index)", "n:佐藤;花子;;;", "fn:佐藤 花子",
                    "X-PHONETIC-LAST-NAME:さとう", "item1.EMAIL;type=INTERNET:hanako\(index)@example.jp",
                    "item1.X-ABLabel:Club", "end:vcard",
                ]
            case 3:
                lines = [
                    "BEGIN:VCARD", "VERSION:4.0", "UID:g\(index)", "KIND:group", "FN:Group \(index)",
                    "MEMBER:urn:uuid:k\(index - 2)", "MEMBER:mailto:hanako\(index - 1)@example.jp",
                    "END:VCARD",
                ]
            case 4:
                lines = [
                    "BEGIN:VCARD", "VERSION:3.0", "N:Ng;An;;Dr.;", "FN:Dr. An Ng",
                    "ADR;TYPE=HOME:;;Hauptstraße \(index);Berlin;;10115;Germany",
                    "BDAY:1980-02-\(10 + index % 18)",
                    "ORG:Morgenrot;Research", "END:VCARD",
                ]
            default:
                lines = [
                    "BEGIN:VCARD", "VERSION:3.0", "UID:o\(index)", "ORG:Company \(index)", "END:VCARD", "",
                ]
            }
            text += lines.map { $0 + end }.joined()
            if index % 11 == 0 { text += end }
        }
        return Array(text.utf8)
    }

    @Test func aLongExportReadInPiecesYieldsWhatItYieldsReadWhole() {
        let text = Self.export(600)
        let whole = Self.whole(text)
        #expect(whole.cards.count == 600)
        #expect(whole.messages.isEmpty)
        for length in [1, 700, 4_096, 40_000] {
            let (count, allRead) = Self.pieces(text, length: length)
            #expect(count > 1, "pieces of \(length) bytes")
            #expect(allRead, "pieces of \(length) bytes")
            let pieces = Self.inPieces(text, length: length)
            #expect(pieces.cards == whole.cards, "pieces of \(length) bytes")
            #expect(pieces.messages.isEmpty)
        }
        // Every card a piece of its own.
        #expect(Self.pieces(text, length: 1).count == 600)
    }

    /// `text` with `inserted` before the first card that begins after its middle.
    static func inserting(_ inserted: String, into text: [UInt8]) throws -> [UInt8] {
        var text = text
        let start = try #require(Self.cardStart(in: text, from: text.count / 2))
        text.insert(contentsOf: Array(inserted.utf8), at: start)
        return text
    }

    @Test func theProblemsOfCardsAreReportedFromThePiecesTheyAreIn() throws {
        // A version no vCard has, a card without a name, a birthday that is not a date, a card
        // begun inside another, and a property outside any card, in the middle of the file:
        // each piece reads as it does in the file, and each problem is reported where it is.
        let text = try Self.inserting(
            "BEGIN:VCARD\r\nVERSION:5.0\r\nFN:Five\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:nameless\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bad Day\r\nBDAY:1990-02-30\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Left Open\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:After\r\nEND:VCARD\r\nNOTE:outside\r\n",
            into: Self.export(120))
        let whole = Self.whole(text)
        #expect(whole.messages.count == 5, "\(whole.messages)")
        for length in [1, 1_000] {
            #expect(Self.pieces(text, length: length).allRead, "pieces of \(length) bytes")
            let pieces = Self.inPieces(text, length: length)
            #expect(pieces.cards == whole.cards, "pieces of \(length) bytes")
            #expect(pieces.messages == whole.messages, "pieces of \(length) bytes")
        }
    }

    @Test func aSkippedLineOrAProblemReportedOnceAFileReadsTheFileWhole() throws {
        // Lines that are not properties are counted for the file, and a charset no one knows is
        // reported at its first card only: a piece cannot tell either.
        // Twelve lines that are not properties, in three cards: ten are reported, then how many
        // more were skipped.
        let junk =
            "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Skip\r\n"
            + String(repeating: "not a property\r\n", count: 4) + "END:VCARD\r\n"
        let skipped = try Self.inserting(String(repeating: junk, count: 3), into: Self.export(120))
        let charset = try Self.inserting(
            "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=X-NOBODY:Lee;Ann\r\nEND:VCARD\r\n",
            into: Array(
                (String(decoding: Self.export(60), as: UTF8.self)
                    + "BEGIN:VCARD\r\nVERSION:2.1\r\nN;CHARSET=X-NOBODY:Kim;Bo\r\nEND:VCARD\r\n"
                    + String(decoding: Self.export(60), as: UTF8.self)).utf8))
        for (label, text, messages) in [("lines skipped", skipped, 11), ("a charset", charset, 1)] {
            let whole = Self.whole(text)
            #expect(whole.messages.count == messages, "\(label): \(whole.messages)")
            #expect(Self.pieces(text, length: 1).allRead == false, "\(label)")
            let pieces = Self.inPieces(text, length: 1)
            #expect(pieces.cards == whole.cards, "\(label)")
            #expect(pieces.messages == whole.messages, "\(label)")
        }
    }

    @Test func aCardLeftOpenIsNotCutInto() {
        // The second card has no END: the third begins inside it, where a piece may not start.
        let text = Array(
            ("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:One\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Two\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Three\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Four\r\nEND:VCARD\r\n").utf8)
        let whole = Self.whole(text)
        #expect(whole.cards.count == 4)
        #expect(whole.messages.count == 1)
        let pieces = Self.inPieces(text, length: 1)
        #expect(pieces.cards == whole.cards)
        #expect(pieces.messages == whole.messages)
    }

    @Test func anEmbeddedAgentCardIsNotCutInto() {
        // vCard 2.1 embeds an AGENT's card in the card it belongs to; the END of the embedded
        // card is followed by another BEGIN that the outer card skips as well.
        let text = Array(
            ("BEGIN:VCARD\r\nVERSION:2.1\r\nN:Boss;Ann\r\nAGENT:\r\n"
                + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Agent;Bo\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Agent;Cy\r\nEND:VCARD\r\n"
                + "TEL:+1 555 0100\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Dee\r\nEND:VCARD\r\n").utf8)
        let whole = Self.whole(text)
        let pieces = Self.inPieces(text, length: 1)
        #expect(pieces.cards == whole.cards)
        #expect(pieces.messages == whole.messages)
        // One embedded card: a piece never starts at its BEGIN, which follows no END, so the
        // file is read in pieces.
        let one = Array(
            ("BEGIN:VCARD\r\nVERSION:2.1\r\nN:Boss;Ann\r\nAGENT:\r\n"
                + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Agent;Bo\r\nEND:VCARD\r\n"
                + "TEL:+1 555 0100\r\nEND:VCARD\r\n"
                + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Lee;Dee\r\nEND:VCARD\r\n").utf8)
        #expect(Self.pieces(one, length: 1) == (2, true))
        #expect(Self.inPieces(one, length: 1).cards == Self.whole(one).cards)
        #expect(Self.whole(one).cards.count == 2)
    }

    @Test(
        .enabled(
            if: VCardCorpusTests.available,
            "the vCard corpus (../shared/corpora/vcard) is not beside the package"))
    func theCorpusAsOneExportReadsTheSameInPieces() throws {
        // Every corpus file that reads without a problem on its own, one after the other in one
        // file, as a phone that kept them all would export them.
        let folder = try #require(VCardCorpusTests.folder)
        var text: [UInt8] = []
        var files = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        where name.hasSuffix(".vcf") {
            var bytes = Array(try Data(contentsOf: folder.appendingPathComponent(name)))
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            guard !bytes.starts(with: [0xFF, 0xFE]), !bytes.starts(with: [0xFE, 0xFF]),
                Self.whole(bytes, path: name).messages.isEmpty
            else { continue }
            if let last = bytes.last, last != 0x0A, last != 0x0D { bytes += Array("\r\n".utf8) }
            text += bytes
            files += 1
        }
        let whole = Self.whole(text)
        #expect(files > 10)
        #expect(whole.messages.isEmpty, "\(whole.messages)")
        let (count, allRead) = Self.pieces(text, length: 1)
        #expect(count > files / 2)
        #expect(allRead)
        #expect(Self.inPieces(text, length: 1).cards == whole.cards)
    }

    @Test func aLongFileDecodesAsItsCardsDoInFilesOfTheirOwn() throws {
        // Long enough to be read in pieces by `decode` (256 KB), with a UID repeated far from
        // its first card: the warning names both cards' lines in the long file.
        // And a birthday that is not a date, so that the pieces report a problem of their own.
        var text = String(decoding: Self.export(1_800), as: UTF8.self)
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:bad-day\r\nFN:Bad Day\r\nBDAY:1990-02-30\r\nEND:VCARD\r\n"
        text += "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:k1\r\nFN:Again\r\nEND:VCARD\r\n"
        #expect(Self.pieces(Array(text.utf8), length: StoreDecoder.minimumPieceLength).allRead)
        #expect(text.utf8.count > StoreDecoder.minimumCardPiecesLength)
        let path = "store/book/all.vcf"
        let (store, diagnostics) = StoreDecoder.decode([.vCard(SourceText(path: path, text: text))])
        // Split at LF by bytes: a String takes CR LF as one character.
        let lines = text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        let firstBegin = try #require(lines.firstIndex { $0.hasPrefix("UID:urn:uuid:k1\r") }) - 2
        let again = try #require(lines.lastIndex { $0.hasPrefix("UID:urn:uuid:k1\r") })
        let badDay = try #require(lines.firstIndex { $0.hasPrefix("BDAY:1990-02-30\r") })
        #expect(
            diagnostics.map(\.description) == [
                "\(path):\(badDay + 1):6: warning: BDAY \"1990-02-30\" is not a date: February 1990 has 28 days; the birthday is left out",
                "\(path):\(again + 1):5: warning: the card at \(path):\(firstBegin + 1):1 has the same UID \"k1\"; this card is skipped",
            ])
        // The same cards one to a file.
        var files: [StoreFile] = []
        var card = ""
        var number = 0
        for line in lines.dropLast(2) {
            card += line + "\n"
            if line.lowercased().hasPrefix("end:vcard") {
                files.append(
                    .vCard(SourceText(path: "store/book/\(String(format: "%05d", number)).vcf", text: card)))
                card = ""
                number += 1
            }
        }
        let (alone, _) = StoreDecoder.decode(files)
        #expect(store.contacts.count == 1_800 - 300 + 1)
        #expect(store.contacts.map { StoreDump.contact($0) } == alone.contacts.map { StoreDump.contact($0) })
        #expect(store.groups.map(StoreDump.group) == alone.groups.map(StoreDump.group))
    }

    /// Where the first card that begins at or after `offset` begins.
    static func cardStart(in text: [UInt8], from offset: Int) -> Int? {
        let begin = Array("\nBEGIN:VCARD".utf8)
        var index = offset
        while index + begin.count <= text.count {
            if Array(text[index..<(index + begin.count)]) == begin { return index + 1 }
            index += 1
        }
        return nil
    }
}
