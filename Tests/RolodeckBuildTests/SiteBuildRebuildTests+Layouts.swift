import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore

/// The invariant of watch on the stores that keep one file per card: the demo with a JSON file
/// per contact (`store/contacts/<id>.json`), and the demo as a vdir of vCard 3.0 files
/// (`store/book/<id>.vcf`), each with edits that only those layouts have: files added, renamed,
/// deleted, saved by rename, and folders of cards that come and go.
extension SiteBuildRebuildTests {
    /// A contact as a JSON file of its own holds it.
    static func contact(_ id: String, _ given: String, _ family: String, groups: [String] = [])
        -> [String: Any]
    {
        [
            "id": id, "givenName": given, "familyName": family, "groups": groups,
            "phones": [["label": "mobile", "value": "+49 151 0000 0000"]],
        ]
    }

    /// Edits to the demo with a JSON file per contact.
    static let contactFileSteps: [Step] = [
        Step(label: "a contact's notes, in its own file", expect: .patched) { site in
            try site.replace(
                "store/contacts/juergen-mueller.json", "Prefers **phone calls** over email.",
                "Prefers *letters*.")
        },
        Step(label: "a contact's family name, which moves it to another section", expect: .patched) { site in
            try site.updateRecord("store/contacts/juergen-mueller.json") { $0["familyName"] = "Zimmermann" }
        },
        Step(
            label: "a contact's given name saved again decomposed (NFD): the same to a reader, other bytes",
            expect: .patched, touches: ["contacts/juergen-mueller."]
        ) { site in
            try site.updateRecord("store/contacts/juergen-mueller.json") {
                $0["givenName"] = "Ju\u{0308}rgen"
            }
        },
        Step(label: "a new contact file", expect: .patched) { site in
            try site.writeRecord("store/contacts/new-person.json", contact("new-person", "Nova", "Neu"))
        },
        Step(label: "a new contact file, in a group", expect: .patched) { site in
            try site.writeRecord(
                "store/contacts/kai.json", contact("kai-keller", "Kai", "Keller", groups: ["friends"]))
        },
        Step(label: "a contact file renamed with its id, which moves its page", expect: .patched) { site in
            try site.move("store/contacts/new-person.json", "store/contacts/nova-neu.json")
            try site.updateRecord("store/contacts/nova-neu.json") { $0["id"] = "nova-neu" }
        },
        Step(
            label: "a contact file renamed, its record unchanged, so read earlier", expect: .patched,
            writes: false
        ) {
            site in
            try site.move("store/contacts/kai.json", "store/contacts/0-kai.json")
        },
        Step(label: "a contact file deleted", expect: .patched) { site in
            try site.remove("store/contacts/nova-neu.json")
        },
        Step(label: "a contact saved by rename, beside the editor's swap file", expect: .patched) { site in
            try site.saveByRename("store/contacts/sabine-weiss.json") { temporary in
                try site.updateRecord(temporary) { $0["title"] = "Hausärztin" }
            }
        },
        Step(label: "files beside the contacts that are not read", expect: .unchanged) { site in
            try site.write("store/contacts/.kai.json.swp", "junk")
            try site.write("store/contacts/half.json.tmp", "{\"id\": ")
            try site.write("store/contacts/kai.json~", "{}")
            try site.write("store/contacts/README.txt", "One file per contact.\n")
        },
        Step(label: "a contact file that is not JSON", expect: .failed) { site in
            try site.move("store/contacts/sabine-weiss.json", "../sabine-weiss.json")
            try site.write("store/contacts/sabine-weiss.json", #"{"id": "sabine-weiss", "givenName": }"#)
        },
        Step(label: "the contact file fixed, with another edited meanwhile", expect: .patched) { site in
            try site.move("../sabine-weiss.json", "store/contacts/sabine-weiss.json")
            try site.updateRecord("store/contacts/juergen-mueller.json") { $0["birthday"] = "1971-03-15" }
        },
        Step(label: "a new contact file with another file's id", expect: .failed) { site in
            try site.writeRecord("store/contacts/zz-copy.json", contact("sabine-weiss", "Sabine", "Copy"))
        },
        Step(label: "the copy removed", expect: .patched, writes: false) { site in
            try site.remove("store/contacts/zz-copy.json")
        },
        Step(label: "several contact files at once, two in a group", expect: .patched) { site in
            try site.writeRecord("store/contacts/burst-1.json", contact("burst-1", "Ada", "Burst"))
            try site.writeRecord("store/contacts/burst-2.json", contact("burst-2", "Bea", "Burst"))
            try site.writeRecord(
                "store/contacts/burst-3.json", contact("burst-3", "Cy", "Abend", groups: ["family"]))
            try site.writeRecord(
                "store/contacts/burst-4.json", contact("burst-4", "Dan", "Öz", groups: ["family"]))
            try site.writeRecord("store/contacts/burst-5.json", contact("burst-5", "민준", "김"))
        },
        Step(label: "those files deleted at once", expect: .patched) { site in
            for number in 1...5 { try site.remove("store/contacts/burst-\(number).json") }
        },
        Step(label: "a folder of group files beside groups.json, and a contact in one", expect: .patched) {
            site in
            try site.writeRecord("store/groups/chess.json", ["id": "chess-club", "name": "Chess Club"])
            try site.writeRecord(
                "store/groups/go.json", ["id": "go-club", "name": "Go Club", "notes": "*Baduk*"])
            try site.updateRecord("store/contacts/0-kai.json") { $0["groups"] = ["friends", "chess-club"] }
        },
        Step(label: "the contact out of the group, and the folder of groups deleted", expect: .patched) {
            site in
            try site.updateRecord("store/contacts/0-kai.json") { $0["groups"] = ["friends"] }
            try site.remove("store/groups")
        },
        Step(label: "two todo files beside todos.json, one linked to a contact file", expect: .patched) {
            site in
            try site.writeRecord(
                "store/todos/a.json", ["id": "call-kai", "title": "Call Kai", "contact": "kai-keller"])
            try site.writeRecord("store/todos/b.json", ["id": "water-plants", "title": "Water the plants"])
        },
        Step(label: "a todo file renamed, which moves it up the list", expect: .patched) { site in
            try site.move("store/todos/b.json", "store/todos/0-b.json")
        },
        Step(label: "the linked contact's file deleted with its todo", expect: .patched) { site in
            try site.remove("store/contacts/0-kai.json")
            try site.remove("store/todos/a.json")
        },
    ]

    @Test func everyEditToAStoreWithAFilePerContactLeavesWhatAWholeBuildWrites() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try DemoStoreLayouts.copyWithContactFiles(to: site.folder)
        try Self.check(Self.contactFileSteps, on: site, contacts: 80, patchedAtLeast: 15, namingChanges: true)
    }

    /// A vCard 3.0 card of a contact.
    static func card(_ record: [String: Any]) -> String { DemoStoreLayouts.vCard(record, groupNames: [:]) }

    /// Edits to the demo as a vdir: an address book `store/book` ("Contacts"), `todos.json`
    /// linked to its cards, and a task list `store/tasks` ("Errands").
    static let vdirSteps: [Step] = [
        Step(label: "a card's NOTE, in its own file", expect: .patched) { site in
            try site.replaceUnfolded(
                "store/book/juergen-mueller.vcf", "Prefers **phone calls** over email.", "Prefers *letters*.")
        },
        Step(label: "a card's family name, which moves it to another section", expect: .patched) { site in
            try site.replaceUnfolded("store/book/juergen-mueller.vcf", "N:Müller;", "N:Zimmermann;")
            try site.replaceUnfolded(
                "store/book/juergen-mueller.vcf", "FN:Jürgen Müller", "FN:Jürgen Zimmermann")
        },
        Step(
            label: "a card's names saved again decomposed (NFD): the same to a reader, other bytes",
            expect: .patched, touches: ["contacts/juergen-mueller."]
        ) { site in
            try site.replaceUnfolded("store/book/juergen-mueller.vcf", "Jürgen", "Ju\u{0308}rgen")
            #expect(try site.read("store/book/juergen-mueller.vcf").utf8.contains(0xCC), "not decomposed")
        },
        Step(label: "a new card file", expect: .patched) { site in
            try site.write("store/book/new-person.vcf", card(contact("new-person", "Nova", "Neu")))
        },
        Step(label: "a new card file with a new category, which makes a group", expect: .patched) { site in
            try site.write(
                "store/book/kai.vcf", card(contact("kai-keller", "Kai", "Keller", groups: ["Chess Club"])))
        },
        Step(label: "a card file renamed with its UID, which moves its page", expect: .patched) { site in
            try site.move("store/book/new-person.vcf", "store/book/nova-neu.vcf")
            try site.replaceUnfolded("store/book/nova-neu.vcf", "UID:new-person", "UID:nova-neu")
        },
        Step(
            label: "a card file renamed so it is read first, its card unchanged", expect: .patched,
            writes: false
        ) {
            site in
            try site.move("store/book/anders-orsted.vcf", "store/book/zz-anders.vcf")
        },
        Step(label: "a card file deleted, and with it the only member of a group", expect: .patched) { site in
            try site.remove("store/book/kai.vcf")
        },
        Step(label: "a card saved by rename, beside the editor's swap file", expect: .patched) { site in
            try site.saveByRename("store/book/sabine-weiss.vcf") { temporary in
                try site.replaceUnfolded(temporary, "TITLE:Fachärztin", "TITLE:Hausärztin")
            }
        },
        Step(label: "files in the address book that are not read", expect: .unchanged) { site in
            try site.write("store/book/.nova-neu.vcf.swp", "junk")
            try site.write("store/book/half.vcf.tmp", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Half")
            try site.write("store/book/nova-neu.vcf~", "BEGIN:VCARD\r\nEND:VCARD\r\n")
            try site.write("store/book/color", "#ff8800\n")
        },
        Step(
            label: "a card's BDAY that is not a date: a warning, the birthday left out", expect: .patched,
            warning: "BDAY \"1971-02-30\" is not a date"
        ) { site in
            try site.replaceUnfolded("store/book/juergen-mueller.vcf", "BDAY:1971-03-14", "BDAY:1971-02-30")
        },
        Step(label: "the BDAY fixed", expect: .patched) { site in
            try site.replaceUnfolded("store/book/juergen-mueller.vcf", "BDAY:1971-02-30", "BDAY:1971-03-14")
        },
        Step(
            label: "a card without END:VCARD, and its NOTE edited: a warning, the card read to the end",
            expect: .patched, warning: "this card has no END:VCARD"
        ) { site in
            try site.replaceUnfolded("store/book/juergen-mueller.vcf", "END:VCARD\r\n", "")
            try site.replaceUnfolded(
                "store/book/juergen-mueller.vcf", "Prefers *letters*.", "Prefers *postcards*.")
        },
        Step(label: "END:VCARD back", expect: .patched, writes: false) { site in
            try site.write(
                "store/book/juergen-mueller.vcf",
                try site.read("store/book/juergen-mueller.vcf") + "END:VCARD\r\n")
        },
        Step(label: "a card deleted that a todo links to", expect: .failed) { site in
            try site.move("store/book/ingrid-vogel.vcf", "../ingrid-vogel.vcf")
        },
        Step(label: "the card back", expect: .patched, writes: false) { site in
            try site.move("../ingrid-vogel.vcf", "store/book/ingrid-vogel.vcf")
        },
        Step(label: "a new address book folder with several cards at once", expect: .patched) { site in
            try site.write(
                "store/friends/ada.vcf", card(contact("ada-burst", "Ada", "Burst", groups: ["Friends"])))
            try site.write(
                "store/friends/bea.vcf", card(contact("bea-burst", "Bea", "Burst", groups: ["Friends"])))
            try site.write(
                "store/friends/cy.vcf", card(contact("cy-abend", "Cy", "Abend", groups: ["Go Club"])))
            try site.write("store/friends/minjun.vcf", card(contact("kim-minjun", "민준", "김")))
        },
        Step(label: "that address book folder deleted", expect: .patched) { site in
            try site.remove("store/friends")
        },
        Step(
            label: "a second address book with a copy of a card: a warning, the first read is kept",
            expect: .patched, writes: false, warning: "has the same UID \"sabine-weiss\""
        ) { site in
            try site.write("store/old-phone/displayname", "Old phone\n")
            let card = try site.read("store/book/sabine-weiss.vcf")
            try site.write("store/old-phone/sabine.vcf", card)
            try site.replaceUnfolded("store/old-phone/sabine.vcf", "TITLE:Hausärztin", "TITLE:Landärztin")
        },
        Step(
            label: "its displayname, which has it read first, so its copy is kept", expect: .patched,
            warning: "has the same UID \"sabine-weiss\""
        ) { site in
            try site.write("store/old-phone/displayname", "Archive\n")
        },
        Step(label: "the task list's displayname, shown on the todos page", expect: .patched) { site in
            try site.write("store/tasks/displayname", "Chores\n")
        },
        Step(label: "a new task file", expect: .patched) { site in
            try site.write(
                "store/tasks/keys.ics", DemoStoreLayouts.todo("copy-keys", "Copy the keys", order: 3))
        },
        Step(label: "the second address book deleted", expect: .patched) { site in
            try site.remove("store/old-phone")
        },
        // Who is left out as private is part of what the directory is planned with, as the
        // config's hidden contacts are: a change of it plans the site anew.
        Step(label: "a card marked private (CLASS:PRIVATE), which takes it out of the site", expect: .whole) {
            site in
            try site.replaceUnfolded(
                "store/book/sabine-weiss.vcf", "UID:sabine-weiss", "UID:sabine-weiss\r\nCLASS:PRIVATE")
        },
        Step(label: "the card public again", expect: .whole) { site in
            try site.replaceUnfolded("store/book/sabine-weiss.vcf", "CLASS:PRIVATE", "CLASS:PUBLIC")
        },
        Step(
            label: "a task marked confidential, which takes it and its subtask out", expect: .patched,
            touches: ["todos.html"]
        ) { site in
            try site.write(
                "store/tasks/keys.ics",
                DemoStoreLayouts.todo("copy-keys", "Copy the keys", order: 3, extra: ["CLASS:CONFIDENTIAL"]))
            try site.write(
                "store/tasks/key-tag.ics",
                DemoStoreLayouts.todo("key-tag", "Label the copies", order: 4, extra: ["RELATED-TO:copy-keys"]))
        },
        Step(label: "the task public again", expect: .patched, touches: ["todos.html"]) { site in
            try site.write(
                "store/tasks/keys.ics", DemoStoreLayouts.todo("copy-keys", "Copy the keys", order: 3))
        },
        Step(label: "a group card for a group the cards' categories make, marked private", expect: .patched) {
            site in
            try site.write(
                "store/book/group-book-club.vcf",
                "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:group-book-club\r\nX-ADDRESSBOOKSERVER-KIND:group\r\n"
                    + "FN:Book Club\r\nCLASS:PRIVATE\r\nEND:VCARD\r\n")
        },
        Step(label: "the group card public again", expect: .patched) { site in
            try site.replaceUnfolded("store/book/group-book-club.vcf", "CLASS:PRIVATE", "CLASS:PUBLIC")
        },
        // The card's UID was the group's id, and so its page's name; the categories name it again.
        Step(label: "the group card deleted", expect: .patched) { site in
            try site.remove("store/book/group-book-club.vcf")
        },
        Step(label: "the address book's displayname, which no page shows", expect: .patched, writes: false) {
            site in
            try site.write("store/book/displayname", "Address book\n")
        },
    ]

    @Test func everyEditToAVdirStoreLeavesWhatAWholeBuildWrites() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try DemoStoreLayouts.copyAsVdir(to: site.folder)
        try Self.check(Self.vdirSteps, on: site, contacts: 80, patchedAtLeast: 15, namingChanges: true)
    }

    /// Edits to the demo as one long vCard file (`store/book/all.vcf`, a phone's export): cards
    /// edited, moved, added and taken out in the middle of it, warnings that come and go, and
    /// the file saved by rename.
    static let oneFileSteps: [Step] = [
        Step(label: "a card's NOTE, in the middle of the file", expect: .patched) { site in
            try site.replaceUnfolded(
                "store/book/all.vcf", "Prefers **phone calls** over email.", "Prefers *letters*.")
        },
        Step(label: "a card's family name, which moves it to another section", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Müller;", "N:Zimmermann;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Jürgen Müller", "FN:Jürgen Zimmermann")
        },
        Step(label: "a phone number of a card far down the file", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "+49 151 10000200", "+49 151 20000200")
        },
        Step(label: "a new card in the middle of the file", expect: .patched) { site in
            let text = try site.read("store/book/all.vcf")
            let at = try #require(Self.cardRange("ingrid-vogel", in: text)).lowerBound
            try site.write(
                "store/book/all.vcf",
                text.replacingCharacters(in: at..<at, with: card(contact("nova-neu", "Nova", "Neu"))))
        },
        Step(label: "a card with a new category, which makes a group", expect: .patched) { site in
            try site.replaceUnfolded(
                "store/book/all.vcf", "UID:nova-neu", "UID:nova-neu\r\nCATEGORIES:Chess Club")
        },
        Step(label: "that card taken out again, and with it the only member of a group", expect: .patched) {
            site in
            let text = try site.read("store/book/all.vcf")
            let card = try #require(Self.cardRange("nova-neu", in: text))
            try site.write("store/book/all.vcf", text.replacingCharacters(in: card, with: ""))
        },
        Step(
            label: "a card's BDAY that is not a date: a warning, the birthday left out", expect: .patched,
            warning: "BDAY \"1971-02-30\" is not a date"
        ) { site in
            try site.replaceUnfolded("store/book/all.vcf", "BDAY:1971-03-14", "BDAY:1971-02-30")
        },
        Step(label: "the BDAY fixed, and a phone number far down the file", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "BDAY:1971-02-30", "BDAY:1971-03-14")
            try site.replaceUnfolded("store/book/all.vcf", "+49 151 10000300", "+49 151 20000300")
        },
        Step(
            label: "a card without END:VCARD in the middle: a warning, the card ends at the next",
            expect: .patched, writes: false, warning: "has ended; that card ends here"
        ) { site in
            let text = try site.read("store/book/all.vcf")
            let card = try #require(Self.cardRange("juergen-mueller", in: text))
            let end = text.index(card.upperBound, offsetBy: -"END:VCARD\r\n".count)
            try site.write(
                "store/book/all.vcf", text.replacingCharacters(in: end..<card.upperBound, with: ""))
        },
        Step(label: "END:VCARD back", expect: .patched, writes: false) { site in
            let text = try site.read("store/book/all.vcf")
            let uid = try #require(text.range(of: "\r\nUID:juergen-mueller\r\n"))
            let next = try #require(text.range(of: "BEGIN:VCARD", range: uid.upperBound..<text.endIndex))
            try site.write(
                "store/book/all.vcf",
                text.replacingCharacters(in: next.lowerBound..<next.lowerBound, with: "END:VCARD\r\n"))
        },
        Step(label: "a card taken out that a todo links to", expect: .failed) { site in
            try site.replaceUnfolded("store/book/all.vcf", "UID:ingrid-vogel", "UID:ingrid-vogel-gone")
        },
        Step(label: "the card back", expect: .patched, writes: false) { site in
            try site.replaceUnfolded("store/book/all.vcf", "UID:ingrid-vogel-gone", "UID:ingrid-vogel")
        },
        Step(label: "the file saved by rename, beside the editor's swap file", expect: .patched) { site in
            try site.saveByRename("store/book/all.vcf") { temporary in
                try site.replaceUnfolded(temporary, "TITLE:Fachärztin", "TITLE:Hausärztin")
            }
        },
    ]

    /// The card with UID `uid` in `text`, from its BEGIN to the line break after its END.
    static func cardRange(_ uid: String, in text: String) -> Range<String.Index>? {
        guard let line = text.range(of: "\r\nUID:" + uid + "\r\n"),
            let begin = text.range(
                of: "BEGIN:VCARD", options: .backwards, range: text.startIndex..<line.lowerBound),
            let end = text.range(of: "END:VCARD\r\n", range: line.upperBound..<text.endIndex)
        else { return nil }
        return begin.lowerBound..<end.upperBound
    }

    /// Edits of cards without a UID, as Google Contacts and Android phones export them: their
    /// ids are made from their names.
    static let cardsWithoutUIDSteps: [Step] = [
        Step(label: "a phone number of a card without a UID", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "+49 151 10000200", "+49 151 20000200")
        },
        Step(
            label: "a BDAY that is not a date in a card without a UID: a warning, the page as it was",
            expect: .patched, writes: false, warning: "BDAY \"1971-02-30\" is not a date"
        ) { site in
            try site.replaceUnfolded(
                "store/book/all.vcf", "+49 151 10000300", "+49 151 10000300\r\nBDAY:1971-02-30")
        },
        Step(label: "a phone number of a card before it while the warning stands", expect: .patched) { site in
            try site.replaceUnfolded(
                "store/book/all.vcf", "+49 151 10000100", "+49 151 10000100\r\nTEL;TYPE=HOME:+49 30 100")
        },
        Step(label: "the BDAY taken out", expect: .patched, writes: false) { site in
            try site.replaceUnfolded("store/book/all.vcf", "\r\nBDAY:1971-02-30", "")
        },
        Step(label: "a card without a UID renamed, which gives it another id", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Filler;Fill 250;", "N:Filler;Fillip 250;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Fill 250 Filler", "FN:Fillip 250 Filler")
        },
        Step(label: "a phone number of the renamed card", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "+49 151 10000250", "+49 151 20000250")
        },
        Step(label: "a card renamed as one before it, which numbers its id", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Filler;Fill 260;", "N:Filler;Fill 100;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Fill 260 Filler", "FN:Fill 100 Filler")
        },
        Step(
            label: "a card renamed as one after it, which takes that one's id and numbers it",
            expect: .patched, touches: ["contacts/fill-300-filler-2."]
        ) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Filler;Fill 90;", "N:Filler;Fill 300;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Fill 90 Filler", "FN:Fill 300 Filler")
        },
        Step(label: "a card renamed in Hangul, whose slug is a hash of its id", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Filler;Fill 120;", "N:김;민준;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Fill 120 Filler", "FN:김민준")
        },
        Step(label: "the card named as the one after it named back", expect: .patched) { site in
            // Only the first card of that name, the one with card 90's phone number.
            let text = try site.read("store/book/all.vcf").replacingOccurrences(of: "\r\n ", with: "")
            var cards = text.components(separatedBy: "END:VCARD")
            let index = try #require(cards.firstIndex { $0.contains("+49 151 10000090") })
            #expect(cards[index].contains("FN:Fill 300 Filler"))
            cards[index] = cards[index].replacingOccurrences(of: "Fill 300", with: "Fill 90")
            let lines = cards.joined(separator: "END:VCARD").components(separatedBy: "\r\n")
            try site.write("store/book/all.vcf", lines.map(DemoStoreLayouts.folded).joined(separator: "\r\n"))
        },
        Step(label: "the Hangul card renamed in Hangul", expect: .patched) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:김;민준;", "N:김;서준;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:김민준", "FN:김서준")
        },
        Step(label: "a card renamed in decomposed Unicode (NFD), as macOS may write it", expect: .patched) {
            site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Filler;Fill 140;", "N:Filler;Ju\u{0308}rgen;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Fill 140 Filler", "FN:Ju\u{0308}rgen Filler")
        },
        Step(
            label: "a card before it renamed to that name composed (NFC): one numbering, each id its bytes",
            expect: .patched, touches: ["contacts/juergen-filler-2."]
        ) { site in
            try site.replaceUnfolded("store/book/all.vcf", "N:Filler;Fill 130;", "N:Filler;J\u{00FC}rgen;")
            try site.replaceUnfolded("store/book/all.vcf", "FN:Fill 130 Filler", "FN:J\u{00FC}rgen Filler")
        },
        Step(label: "that card's name saved again decomposed: its id's bytes change", expect: .patched) {
            site in
            var text = try site.read("store/book/all.vcf")
            for (composed, decomposed) in [
                ("N:Filler;J\u{00FC}rgen;", "N:Filler;Ju\u{0308}rgen;"),
                ("FN:J\u{00FC}rgen Filler", "FN:Ju\u{0308}rgen Filler"),
            ] {
                let range = try #require(text.range(of: composed))
                text.replaceSubrange(range, with: decomposed)
            }
            try site.write("store/book/all.vcf", text)
        },
    ]

    @Test func everyEditOfCardsWithoutAUIDLeavesWhatAWholeBuildWrites() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try DemoStoreLayouts.copyAsOneVCardFile(to: site.folder, fillers: 400, fillerUIDs: false)
        #expect(try !site.read("store/book/all.vcf").contains("UID:filler-"))
        try Self.check(
            Self.cardsWithoutUIDSteps, on: site, contacts: 480, patchedAtLeast: 11, namingChanges: true)
    }

    @Test func everyEditToOneLongVCardFileLeavesWhatAWholeBuildWrites() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try DemoStoreLayouts.copyAsOneVCardFile(to: site.folder, fillers: 400)
        let length = try site.read("store/book/all.vcf").utf8.count
        #expect(length >= StoreDecoder.minimumCardPiecesLength, "\(length) bytes")
        try Self.check(Self.oneFileSteps, on: site, contacts: 480, patchedAtLeast: 10, namingChanges: true)
    }
}
