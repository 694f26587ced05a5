import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// A phone's export gives its cards no UID, so each card's id is made from its name: renaming
/// one renumbers the cards of its old and its new name after it. A save that renames one card
/// patches the store with those ids changed, unless another name's ids may be among theirs, a
/// todo names an id that changes, or other cards changed with it. After every save the store
/// and its messages must be exactly those of a decode from scratch.
@Suite struct RenamedCardPatchTests {
    static let path = "store/book/all.vcf"

    /// The name of card `index` as first written.
    static func name(_ index: Int) -> String {
        switch index % 8 {
        case 0: return "Anna Kim"
        case 1: return "Jürgen Müller"
        case 2: return "김민준"
        case 3: return "Bo Li"
        case 4: return "Room"
        case 5: return "Room 2"
        default: return "Solo-\(index)"
        }
    }

    /// 800 cards without a UID, 100 of each of six names and 200 of names of their own, long
    /// enough to be read card by card.
    static let export: String = (0..<800).map { index in
        let note = String(repeating: "A note that makes the file as long as a phone's export. ", count: 7)
        return "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name(index))\r\nN:\(name(index));;;;\r\n"
            + "TEL;TYPE=CELL:+1 555 \(100_000 + index)\r\nNOTE:\(note)\(index)\r\nEND:VCARD\r\n"
    }.joined()

    /// Card `index` of `text` named `name` (its FN and N).
    static func renaming(_ index: Int, to name: String, in text: String) -> String {
        LongVCardPatchTests.editing(index, text) { card in
            var lines = card.components(separatedBy: "\r\n")
            for position in lines.indices {
                if lines[position].hasPrefix("FN:") { lines[position] = "FN:" + name }
                if lines[position].hasPrefix("N:") { lines[position] = "N:" + name + ";;;;" }
            }
            return lines.joined(separator: "\r\n")
        }
    }

    struct Step: Sendable {
        var label: String
        var edit: @Sendable (String) -> String
        var patched: Bool
        /// How many cards the save reads again.
        var decoded = 1
    }

    static let steps: [Step] = [
        Step(
            label:
                "the 96th Bo Li renamed as Jürgen Müller: the Bo Lis after it step past the JSON contact's id",
            edit: { renaming(763, to: "Jürgen Müller", in: $0) }, patched: true),
        Step(
            label: "a 김민준 given a name of its own: its page's slug was a hash",
            edit: { renaming(786, to: "Solo-new", in: $0) }, patched: true),
        Step(
            label: "an Anna Kim before the one a todo names renamed: that todo would name another",
            edit: { renaming(768, to: "Bo Li", in: $0) }, patched: false),
        Step(
            label: "an Anna Kim after the one the todo names renamed",
            edit: { renaming(792, to: "Bo Li", in: $0) }, patched: true),
        Step(
            label: "a Room renamed: Room 2 is a name of its own and one of Room's ids",
            edit: { renaming(780, to: "Zed", in: $0) }, patched: false),
        Step(
            label: "a card renamed as Room 2", edit: { renaming(6, to: "Room 2", in: $0) }, patched: false),
        Step(
            label: "a card renamed as a name numbered after another card's: Solo-7 2 may be Solo-7's id",
            edit: { renaming(15, to: "Solo-7 2", in: $0) }, patched: false),
        Step(
            label: "a card renamed as a name that ends in a number, no card having the name before it",
            edit: { renaming(23, to: "Nobody 2", in: $0) }, patched: true),
        Step(
            label: "a card of its own renamed as Anna Kim, after every Anna Kim",
            edit: { renaming(799, to: "Anna Kim", in: $0) }, patched: true),
        Step(
            label: "two cards renamed in one save",
            edit: { renaming(31, to: "Bo Li", in: renaming(30, to: "Bo Li", in: $0)) }, patched: false,
            decoded: 2),
        Step(
            label: "a phone number in a card that was renumbered",
            edit: {
                LongVCardPatchTests.editing(787, $0, LongVCardPatchTests.adding("TEL:+1 555 0199"))
            }, patched: true),
        Step(
            label: "the 96th Bo Li renamed back", edit: { renaming(763, to: "Bo Li", in: $0) }, patched: true),
        Step(
            label: "a name with spaces around it: the same id",
            edit: { renaming(763, to: "  Bo Li ", in: $0) }, patched: true),
        Step(
            label: "the first Jürgen Müller renamed: more ids change than a patch takes",
            edit: { renaming(1, to: "Zed", in: $0) }, patched: false),
    ]

    /// `prepared`: the contacts named by their cards found before each save, as a watch finds
    /// them while nothing changes.
    @Test(arguments: [false, true])
    func aRenamedCardWithoutAUIDIsPatchedAsADecodeFromScratchReadsIt(prepared: Bool) {
        let cache = StoreDecodeCache()
        let contacts = StoreFile(
            kind: .contact, layout: .list,
            source: SourceText(
                path: "store/contacts.json",
                text: #"[{"id": "Bo Li 99", "givenName": "Bo", "familyName": "Li"}]"#))
        let todos = StoreFile(
            kind: .todo, layout: .list,
            source: SourceText(
                path: "store/todos.json",
                text: #"[{"id": "call", "title": "Call", "contact": "Anna Kim 98"}]"#))
        var text = Self.export
        #expect(text.utf8.count >= StoreDecoder.minimumCardPiecesLength)
        func files() -> [StoreFile] { [contacts, todos, .vCard(SourceText(path: Self.path, text: text))] }
        let (first, firstDiagnostics) = StoreDecoder.decode(files(), cache: cache)
        #expect(firstDiagnostics.isEmpty, "\(firstDiagnostics)")
        // The JSON contact's id is one a Bo Li card would have taken.
        #expect(
            first.contacts.filter { $0.id.hasPrefix("Bo Li") }.map(\.id).suffix(3) == [
                "Bo Li 98", "Bo Li 100", "Bo Li 101",
            ])
        _ = cache.takeDecodedCount()
        _ = cache.takePatchedCount()
        for step in Self.steps {
            let before = StoreDecoder.decode(files()).store
            text = step.edit(text)
            if prepared { cache.prepareForPatches() }
            let (patched, patchedDiagnostics) = StoreDecoder.decode(files(), cache: cache)
            let (fresh, freshDiagnostics) = StoreDecoder.decode(files())
            #expect(patched.contacts == fresh.contacts, "\(step.label)")
            #expect(patched.todos == fresh.todos, "\(step.label)")
            #expect(
                patchedDiagnostics.map(\.description) == freshDiagnostics.map(\.description), "\(step.label)")
            #expect(cache.takeDecodedCount() == step.decoded, "\(step.label)")
            #expect(cache.takePatchedCount() == (step.patched ? 1 : 0), "\(step.label)")
            // What the save changed, as the directory is told it (when not too much to tell).
            let changed = fresh.contacts.indices.filter { fresh.contacts[$0] != before.contacts[$0] }
            let told = cache.lastChanges.contacts.filter { $0.before != patched.contacts[$0.position] }
            if changed.count <= StoreDecodeCache.patchLimit {
                #expect(told.map(\.position).sorted() == changed, "\(step.label)")
                #expect(told.allSatisfy { before.contacts[$0.position] == $0.before }, "\(step.label)")
            }
        }
    }

    /// A group card may list a member by an id made from a name: a rename that renumbers it
    /// relates the store again, and the member is the one a decode from scratch finds.
    @Test func aGroupCardThatListsMembersKeepsARenameFromBeingPatched() {
        let cache = StoreDecodeCache()
        let group = StoreFile.vCard(
            SourceText(
                path: "store/book/group.vcf",
                text: "BEGIN:VCARD\r\nVERSION:4.0\r\nUID:team\r\nKIND:group\r\nFN:Team\r\n"
                    + "MEMBER:urn:uuid:Anna Kim 100\r\nEND:VCARD\r\n"))
        var text = Self.export
        func files() -> [StoreFile] { [.vCard(SourceText(path: Self.path, text: text)), group] }
        let (first, _) = StoreDecoder.decode(files(), cache: cache)
        #expect(first.contacts.first { $0.id == "Anna Kim 100" }?.groupIDs == ["team"])
        _ = cache.takePatchedCount()
        // The 99th Anna Kim renamed: the 100th takes its id, and the group's member is gone.
        text = Self.renaming(784, to: "Zed", in: text)
        let (patched, patchedDiagnostics) = StoreDecoder.decode(files(), cache: cache)
        let (fresh, freshDiagnostics) = StoreDecoder.decode(files())
        #expect(patched.contacts == fresh.contacts)
        #expect(patchedDiagnostics.map(\.description) == freshDiagnostics.map(\.description))
        #expect(!fresh.contacts.contains { $0.groupIDs == ["team"] })
        #expect(cache.takePatchedCount() == 0)
    }
}
