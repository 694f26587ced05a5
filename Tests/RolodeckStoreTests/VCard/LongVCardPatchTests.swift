import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// A watched store kept in one long vCard file (a phone's export of every contact): a save
/// reads again only the cards whose bytes changed, moves the cards after them to their new
/// lines, and patches the last store when only contact cards changed in place. After every
/// save the store and its messages must be exactly those of a decode from scratch.
@Suite struct LongVCardPatchTests {
    struct Step: Sendable {
        var label: String
        /// The file's text after the save, from its text before.
        var edit: @Sendable (String) -> String
        /// How many cards the save reads again.
        var decoded: Int
        /// Whether the save patches the last store.
        var patched: Bool
    }

    static let path = "store/book/all.vcf"
    /// A card added while a card without a name stands after it.
    static let early = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:early\r\nFN:Early\r\nEND:VCARD\r\n"
    static let count = 1_800

    /// The card that begins with `BEGIN:VCARD` number `index` (from 0) of `text`, and where.
    static func card(_ index: Int, of text: String) -> Range<String.Index> {
        var start = text.startIndex
        for _ in 0..<index {
            start =
                text.range(of: "END:VCARD", options: .caseInsensitive, range: start..<text.endIndex)!
                .upperBound
        }
        let begin = text.range(of: "BEGIN:VCARD", options: .caseInsensitive, range: start..<text.endIndex)!
        let end = text.range(
            of: "END:VCARD", options: .caseInsensitive, range: begin.upperBound..<text.endIndex)!
        return begin.lowerBound..<end.upperBound
    }

    /// `text` with card `index` changed by `change`.
    static func editing(_ index: Int, _ text: String, _ change: (String) -> String) -> String {
        let range = card(index, of: text)
        return text.replacingCharacters(in: range, with: change(String(text[range])))
    }

    /// Adds a property before a card's end, with the card's own line ends.
    static func adding(_ property: String) -> @Sendable (String) -> String {
        { card in
            let end = card.contains("\r\n") ? "\r\n" : "\n"
            return card.replacingOccurrences(
                of: "END:VCARD", with: property + end + "END:VCARD", options: .caseInsensitive)
        }
    }

    static let steps: [Step] = [
        Step(
            label: "a phone number", edit: { editing(901, $0, adding("TEL:+1 555 0101")) }, decoded: 1,
            patched: true),
        Step(
            label: "a note of three lines more, early in the file: every card after it moves",
            edit: { editing(7, $0, adding("NOTE:one\r\n two\r\n three\r\nTITLE:Chief")) }, decoded: 1,
            patched: true),
        Step(
            label: "a card with the UID of one far before it, at the end: its warning names both lines",
            edit: { $0 + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:k1\r\nFN:Again\r\nEND:VCARD\r\n" },
            decoded: 1, patched: false),
        Step(
            label: "that card taken out again",
            edit: {
                $0.replacingOccurrences(
                    of: "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:k1\r\nFN:Again\r\nEND:VCARD\r\n", with: ""
                )
            },
            decoded: 0, patched: false),
        Step(
            label: "the first card", edit: { editing(0, $0, adding("TEL:+49 30 1234")) }, decoded: 1,
            patched: true),
        Step(
            label: "the last card", edit: { editing(count - 1, $0, adding("TEL:+1 555 0105")) }, decoded: 1,
            patched: true),
        Step(
            label: "a given name, which moves the contact in the directory",
            edit: { editing(1_201, $0) { $0.replacingOccurrences(of: "N:김;철수", with: "N:김;영희") } },
            decoded: 1,
            patched: true),
        Step(
            label: "a card's categories, which relates the store again",
            edit: {
                editing(1_303, $0) {
                    $0.replacingOccurrences(of: "CATEGORIES:Tennis,Family", with: "CATEGORIES:Chess")
                }
            },
            decoded: 1, patched: false),
        Step(
            label: "two cards far apart in one save: each read again, the cards between kept",
            edit: { editing(1_500, editing(20, $0, adding("TEL:+1 555 0102")), adding("TEL:+1 555 0103")) },
            decoded: 2, patched: true),
        Step(
            label:
                "a card with the UID of one between those two: the warning names its line, moved by the first",
            edit: { $0 + "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:k703\r\nFN:Again\r\nEND:VCARD\r\n" },
            decoded: 1, patched: false),
        Step(
            label: "that card taken out again, too",
            edit: {
                $0.replacingOccurrences(
                    of: "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:k703\r\nFN:Again\r\nEND:VCARD\r\n",
                    with: "")
            },
            decoded: 0, patched: false),
        Step(
            label:
                "a card added and one far after it changed: the stretch between is read again, and related",
            edit: {
                let added = editing(100, $0) {
                    $0 + "\r\nBEGIN:VCARD\r\nVERSION:3.0\r\nUID:added\r\nFN:Added\r\nEND:VCARD"
                }
                return editing(1_001, added, adding("TEL:+1 555 0106"))
            },
            decoded: 1_001 - 101 + 1, patched: false),
        Step(
            label:
                "a card without a name: read on its own, it yields no record and its warning is reported;"
                + " a card went, so the store is related",
            edit: { editing(600, $0) { _ in "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:nameless\r\nEND:VCARD" } },
            decoded: 0, patched: false),
        Step(
            label: "a phone number after it while it stands: patched, its warning kept",
            edit: { editing(702, $0, adding("TEL:+1 555 0111")) }, decoded: 1, patched: true),
        Step(
            label: "lines added to a card before it while it stands: its warning moves, patched",
            edit: { editing(500, $0, adding("NOTE:one\r\n two")) }, decoded: 1, patched: true),
        Step(
            label: "the cards on both sides of it in one save: it is kept as it stands, between them",
            edit: { editing(601, editing(599, $0, adding("TEL:+1 555 0113")), adding("TEL:+1 555 0114")) },
            decoded: 2, patched: true),
        Step(
            label: "a card added before it while it stands: a card came, so the store is related",
            edit: {
                editing(300, $0) { early + $0 }
            },
            decoded: 2, patched: false),
        Step(
            label: "a phone number in the card just before it, one place on now: patched",
            edit: { editing(600, $0, adding("TEL:+1 555 0112")) }, decoded: 1, patched: true),
        Step(
            label: "the added card taken out again",
            edit: {
                $0.replacingOccurrences(of: early, with: "")
            },
            decoded: 1, patched: false),
        Step(
            label: "named again: a card came, so the store is related",
            edit: {
                editing(600, $0) { _ in "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:nameless\r\nFN:Named\r\nEND:VCARD"
                }
            },
            decoded: 1, patched: false),
        Step(
            label: "then a phone number again", edit: { editing(906, $0, adding("TEL:+1 555 0104")) },
            decoded: 1, patched: true),
        Step(
            label: "a blank line between two cards: the card after it is read again",
            edit: { editing(35, $0) { $0 + "\r\n" } }, decoded: 1, patched: true),
        Step(
            label: "a group card's member that is not in the store: relating puts a warning in the file",
            edit: {
                editing(904, $0) {
                    $0.replacingOccurrences(of: "MEMBER:urn:uuid:k901", with: "MEMBER:urn:uuid:nobody")
                }
            },
            decoded: 1, patched: false),
        Step(
            label:
                "lines added to a card before it while that warning stands: related again, the warning moved",
            edit: { editing(13, $0, adding("NOTE:one\r\n two")) }, decoded: 1, patched: false),
        Step(
            label: "the member set back",
            edit: {
                editing(904, $0) {
                    $0.replacingOccurrences(of: "MEMBER:urn:uuid:nobody", with: "MEMBER:urn:uuid:k901")
                }
            },
            decoded: 1, patched: false),
        // The card added after card 100 stays: card 1,102 as written is at 1,103 now.
        Step(
            label:
                "a birthday that is not a date in a card without a UID (one of 300 of one name): only its card"
                + " read again, its warning reported, and the store patched",
            edit: {
                editing(1_103, $0) { $0.replacingOccurrences(of: "BDAY:1980-02-", with: "BDAY:1980-02-3") }
            },
            decoded: 1, patched: true),
        Step(
            label:
                "lines added to a card before it while the warning stands: the warning moves with its card,"
                + " and the store is patched",
            edit: { editing(501, $0, adding("NOTE:one\r\n two\r\nTITLE:Chief")) }, decoded: 1, patched: true),
        Step(
            label: "a birthday that is not a date in a card with a UID, after the first: patched",
            edit: { editing(1_202, $0, adding("BDAY:1980-02-31")) }, decoded: 1, patched: true),
        Step(
            label: "a phone number between the two warnings: both stay where they are",
            edit: { editing(1_154, $0, adding("TEL:+1 555 0108")) }, decoded: 1, patched: true),
        Step(
            label: "lines taken out of a card before both: both move",
            edit: { editing(501, $0) { $0.replacingOccurrences(of: "NOTE:one\r\n two\r\n", with: "") } },
            decoded: 1, patched: true),
        Step(
            label: "the second birthday taken out: its warning goes, the store patched",
            edit: { editing(1_202, $0) { $0.replacingOccurrences(of: "BDAY:1980-02-31\r\n", with: "") } },
            decoded: 1, patched: true),
        Step(
            label: "the first birthday fixed",
            edit: {
                editing(1_103, $0) { $0.replacingOccurrences(of: "BDAY:1980-02-3", with: "BDAY:1980-02-") }
            },
            decoded: 1, patched: true),
        // Cards 1,204 and 1,210 as written (1,205 and 1,211 now) have no UID and one name, and
        // differ in their street and birthday.
        Step(
            label: "a card without a UID made the same as an earlier one of its name: patched",
            edit: {
                editing(1_211, $0) {
                    $0.replacingOccurrences(of: "Hauptstraße 1210", with: "Hauptstraße 1204")
                        .replacingOccurrences(of: "BDAY:1980-02-14", with: "BDAY:1980-02-26")
                }
            },
            decoded: 1, patched: true),
        Step(
            label: "then a phone number in it: which of the two it was is not known, so the store is related",
            edit: { editing(1_211, $0, adding("TEL:+1 555 0110")) }, decoded: 1, patched: false),
        Step(
            label: "its street and birthday set back: patched again",
            edit: {
                editing(1_211, $0) {
                    $0.replacingOccurrences(of: "Hauptstraße 1204", with: "Hauptstraße 1210")
                        .replacingOccurrences(of: "BDAY:1980-02-26", with: "BDAY:1980-02-14")
                }
            },
            decoded: 1, patched: true),
        Step(
            label: "a card without a UID renamed: its id comes from its name, so the store is related",
            edit: {
                editing(1_211, $0) { $0.replacingOccurrences(of: "FN:Dr. An Ng", with: "FN:Dr. An Ng-Lee") }
            },
            decoded: 1, patched: false),
        Step(
            label: "and a phone number, with the file without warnings again",
            edit: { editing(906, $0, adding("TEL:+1 555 0107")) }, decoded: 1, patched: true),
    ]

    @Test func aLongFileIsPatchedByCardAsADecodeFromScratchReadsIt() {
        let cache = StoreDecodeCache()
        let groups = StoreFile(
            kind: .group, layout: .list,
            source: SourceText(path: "store/groups.json", text: #"[{"id": "chess", "name": "Chess"}]"#))
        var text = String(decoding: VCardPiecesTests.export(Self.count), as: UTF8.self)
        func files() -> [StoreFile] { [groups, .vCard(SourceText(path: Self.path, text: text))] }
        let (_, firstDiagnostics) = StoreDecoder.decode(files(), cache: cache)
        #expect(firstDiagnostics.isEmpty, "\(firstDiagnostics)")
        #expect(cache.takeDecodedCount() == Self.count + 1)
        _ = cache.takePatchedCount()
        for step in Self.steps {
            text = step.edit(text)
            let (patched, patchedDiagnostics) = StoreDecoder.decode(files(), cache: cache)
            let (fresh, freshDiagnostics) = StoreDecoder.decode(files())
            #expect(
                patched.contacts.map { StoreDump.contact($0) }
                    == fresh.contacts.map { StoreDump.contact($0) },
                "\(step.label)")
            #expect(patched.contacts == fresh.contacts, "\(step.label)")
            #expect(patched.groups == fresh.groups, "\(step.label)")
            #expect(
                patchedDiagnostics.map(\.description) == freshDiagnostics.map(\.description), "\(step.label)")
            #expect(cache.takeDecodedCount() == step.decoded, "\(step.label)")
            #expect(cache.takePatchedCount() == (step.patched ? 1 : 0), "\(step.label)")
        }
    }

    /// A card in another file with the UID of a card in the long file: its warning names the
    /// first card's line, so a save that moves that card relates the store again, and the
    /// message names the line the card is on now.
    @Test func aWarningThatNamesAPlaceInTheFileIsWrittenAgainWhenTheFileChanges() {
        let cache = StoreDecodeCache()
        var text = String(decoding: VCardPiecesTests.export(Self.count), as: UTF8.self)
        let again = StoreFile.vCard(
            SourceText(
                path: "store/book/zz.vcf",
                text: "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:urn:uuid:k1003\r\nFN:Again\r\nEND:VCARD\r\n"))
        func files() -> [StoreFile] { [.vCard(SourceText(path: Self.path, text: text)), again] }
        let (_, firstDiagnostics) = StoreDecoder.decode(files(), cache: cache)
        #expect(firstDiagnostics.map(\.location?.path) == ["store/book/zz.vcf"])
        _ = cache.takeDecodedCount()
        _ = cache.takePatchedCount()
        let steps: [Step] = [
            Step(
                label: "lines added to a card before the first card with that UID",
                edit: { Self.editing(20, $0, Self.adding("NOTE:one\r\n two\r\nTITLE:Chief")) }, decoded: 1,
                patched: false),
            Step(
                label: "a phone number after it",
                edit: { Self.editing(1_500, $0, Self.adding("TEL:+1 555 0109")) },
                decoded: 1, patched: false),
        ]
        for step in steps {
            text = step.edit(text)
            let (patched, patchedDiagnostics) = StoreDecoder.decode(files(), cache: cache)
            let (fresh, freshDiagnostics) = StoreDecoder.decode(files())
            #expect(patched.contacts == fresh.contacts, "\(step.label)")
            #expect(
                patchedDiagnostics.map(\.description) == freshDiagnostics.map(\.description), "\(step.label)")
            #expect(cache.takeDecodedCount() == step.decoded, "\(step.label)")
            #expect(cache.takePatchedCount() == (step.patched ? 1 : 0), "\(step.label)")
        }
    }
}
