import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// A watched decode that patches the last store by record must give exactly the store a decode
/// from scratch gives, and must patch only when nothing that relates records changed: each case
/// edits one file of a store whose records refer to one another in every way the store allows,
/// then puts it back.
@Suite struct StorePatchTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        /// The file edited, by path, and its new text.
        var path: String
        var text: String
        /// Whether the store holds the vCard files.
        var withCards = true
        /// Whether the store holds a contact that names a group that does not exist (a warning).
        var withWarning = false
        /// Whether the edit, and putting it back, patch the last store.
        var patched: Bool
        var testDescription: String { label }
    }

    static let ann = #"{"id": "ann", "givenName": "Ann", "groups": ["team"], "salutation": {"id": "dr"}}"#
    static let bo = #"{"id": "bo", "givenName": "Bo", "emails": ["bo@example.org"]}"#
    static let list = """
        [
          {"id": "dee", "givenName": "Dee"},
          {"id": "eve", "givenName": "Eve", "groups": ["club"]},
          {"id": "fay", "givenName": "Fay"}
        ]
        """
    static let todos =
        #"[{"id": "t1", "title": "Call Ann", "contact": "ann"}, {"id": "t2", "title": "Cake", "parent": "t1"}]"#
    static let cy = card("UID:cy", "FN:Cy Park", "N:Park;Cy", "EMAIL:cy@example.org", "CATEGORIES:Neighbours")
    static let street = card(
        "VERSION:4.0", "UID:street", "KIND:group", "FN:Street", "MEMBER:mailto:bo@example.org",
        "MEMBER:urn:uuid:cy")

    static func card(_ lines: String...) -> String {
        (["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// The store's files, path and text, with one of them replaced.
    static let zed = #"{"id": "zed", "givenName": "Zed", "groups": ["nope"]}"#

    /// The store's files.
    static func files(withCards: Bool, withWarning: Bool = false) -> [StoreFile] {
        func file(_ kind: RecordKind, _ layout: StoreFile.Layout, _ name: String, _ written: String)
            -> StoreFile
        {
            StoreFile(kind: kind, layout: layout, source: SourceText(path: name, text: written))
        }
        var files = [
            file(.salutation, .list, "store/salutations.json", #"[{"id": "dr", "text": "Dr."}]"#),
            file(.group, .single, "store/groups/team.json", #"{"id": "team", "name": "Team"}"#),
            file(.group, .single, "store/groups/club.json", #"{"id": "club", "name": "Club"}"#),
            file(.contact, .single, "store/contacts/ann.json", ann),
            file(.contact, .single, "store/contacts/bo.json", bo),
            file(.contact, .list, "store/contacts.json", list),
            file(.todo, .list, "store/todos.json", todos),
        ]
        if withWarning {
            files.append(file(.contact, .single, "store/contacts/zed.json", zed))
        }
        if withCards {
            files += [
                file(.contact, .vCard, "store/cards/cy.vcf", cy),
                file(.contact, .vCard, "store/cards/street.vcf", street),
            ]
        }
        return files
    }

    static let cases: [Case] = [
        Case(
            label: "a JSON contact's phone: its salutation and groups stay", path: "store/contacts/ann.json",
            text: ann.replacingOccurrences(of: "}}", with: #"}, "phones": ["+1 555 0100"]}"#), patched: true),
        Case(
            label: "the name of a contact a group card lists by email", path: "store/contacts/bo.json",
            text: bo.replacingOccurrences(of: "Bo", with: "Bodil"), patched: true),
        Case(
            label: "an unchanged save", path: "store/contacts/bo.json", text: bo, patched: true),
        Case(
            label: "the email a group card lists a contact by", path: "store/contacts/bo.json",
            text: bo.replacingOccurrences(of: "bo@", with: "bodil@"), patched: false),
        Case(
            label: "a contact joins a group", path: "store/contacts/ann.json",
            text: ann.replacingOccurrences(of: #"["team"]"#, with: #"["team", "club"]"#), patched: false),
        Case(
            label: "a contact names another salutation record", path: "store/contacts/ann.json",
            text: ann.replacingOccurrences(of: #"{"id": "dr"}"#, with: #"{"id": "prof"}"#), patched: false),
        Case(
            label: "a contact's id, which a todo refers to", path: "store/contacts/ann.json",
            text: ann.replacingOccurrences(of: #""ann""#, with: #""anna""#), patched: false),
        Case(
            label: "a field with a warning", path: "store/contacts/ann.json",
            text: ann.replacingOccurrences(of: "}}", with: #"}, "e_mail": "x"}"#), patched: false),
        Case(
            label: "a contact in a list renamed", path: "store/contacts.json",
            text: list.replacingOccurrences(of: "Eve", with: "Evelyn"), patched: true),
        Case(
            label: "two contacts in a list renamed", path: "store/contacts.json",
            text: list.replacingOccurrences(of: "Dee", with: "Deirdre").replacingOccurrences(
                of: "Fay", with: "Faye"),
            patched: true),
        Case(
            label: "a contact added to a list", path: "store/contacts.json",
            text: list.replacingOccurrences(
                of: "[\n", with: "[\n  {\"id\": \"gus\", \"givenName\": \"Gus\"},\n"),
            patched: false),
        Case(
            label: "a todo retitled", path: "store/todos.json",
            text: todos.replacingOccurrences(of: "Cake", with: "Bring a cake"), patched: true),
        Case(
            label: "a todo given to another contact", path: "store/todos.json",
            text: todos.replacingOccurrences(of: #""contact": "ann""#, with: #""contact": "bo""#),
            patched: false),
        Case(
            label: "a subtask moved to another parent", path: "store/todos.json",
            text: todos.replacingOccurrences(of: #""parent": "t1""#, with: #""parent": "t2""#), patched: false
        ),
        Case(
            label: "a card's phone: its categories' and group card's groups stay", path: "store/cards/cy.vcf",
            text: cy.replacingOccurrences(of: "END:VCARD", with: "TEL:+1 555 0101\r\nEND:VCARD"),
            patched: true),
        Case(
            label: "a card's categories", path: "store/cards/cy.vcf",
            text: cy.replacingOccurrences(of: "Neighbours", with: "Neighbours,Club"), patched: false),
        Case(
            label: "a card's UID", path: "store/cards/cy.vcf",
            text: cy.replacingOccurrences(of: "UID:cy", with: "UID:cyrus"), patched: false),
        Case(
            label: "a group card's members", path: "store/cards/street.vcf",
            text: street.replacingOccurrences(of: "MEMBER:urn:uuid:cy\r\n", with: ""), patched: false),
        Case(
            label: "a group renamed to the name of a category", path: "store/groups/club.json",
            text: #"{"id": "club", "name": "Neighbours"}"#, patched: false),
        Case(
            label: "a group renamed in a store without cards", path: "store/groups/club.json",
            text: #"{"id": "club", "name": "Neighbours"}"#, withCards: false, patched: true),
        Case(
            label: "a phone number in a store with a warning elsewhere, which is reported again",
            path: "store/contacts/ann.json",
            text: ann.replacingOccurrences(of: "}}", with: #"}, "phones": ["+1 555 0100"]}"#), withWarning: true,
            patched: true),
        Case(
            label: "the name of the contact with the warning, which moves it", path: "store/contacts/zed.json",
            text: zed.replacingOccurrences(of: "Zed", with: "Zedekiah"), withWarning: true, patched: false),
        Case(
            label: "a salutation record's text", path: "store/salutations.json",
            text: #"[{"id": "dr", "text": "Doctor"}]"#, patched: false),
    ]

    /// `prepared`: what the patch needs of the store (where each record is) found beforehand,
    /// as a watch finds it while nothing changes.
    @Test(arguments: cases, [false, true])
    func aPatchedStoreIsTheStoreDecodedAfresh(_ test: Case, prepared: Bool) {
        let cache = StoreDecodeCache()
        let original = Self.files(withCards: test.withCards, withWarning: test.withWarning)
        let (first, firstDiagnostics) = StoreDecoder.decode(original, cache: cache)
        #expect(firstDiagnostics.count == (test.withWarning ? 1 : 0), "\(firstDiagnostics)")
        #expect(first.contacts.first { $0.id == "bo" }?.groupIDs == (test.withCards ? ["street"] : []))
        // The edited file is read again (a new text), the others are taken as they were.
        let edited = original.map { file in
            guard file.source.path == test.path else { return file }
            var edited = file
            edited.source = SourceText(path: test.path, text: test.text)
            return edited
        }
        let reverted = original.map { file in
            guard file.source.path == test.path else { return file }
            var reverted = file
            reverted.source = SourceText(path: file.source.path, bytes: file.source.bytes)
            return reverted
        }
        var previous = first
        var previousHadErrors = firstDiagnostics.containsErrors
        var generation = cache.lastChanges.generation
        for (step, files) in [("edited", edited), ("put back", reverted)] {
            if prepared { cache.prepareForPatches() }
            let (patched, patchedDiagnostics) = StoreDecoder.decode(files, cache: cache)
            let comparable = !previousHadErrors && !patchedDiagnostics.containsErrors
            Self.expectChanges(
                cache.lastChanges, from: previous, generation, to: patched, comparable: comparable, step)
            previous = patched
            previousHadErrors = patchedDiagnostics.containsErrors
            generation = cache.lastChanges.generation
            let (fresh, freshDiagnostics) = StoreDecoder.decode(files)
            #expect(
                patched.contacts.map { StoreDump.contact($0) }
                    == fresh.contacts.map { StoreDump.contact($0) }, "\(step)")
            #expect(patched.contacts == fresh.contacts, "\(step)")
            #expect(patched.groups == fresh.groups, "\(step)")
            #expect(patched.todos == fresh.todos, "\(step)")
            #expect(patchedDiagnostics.map(\.description) == freshDiagnostics.map(\.description), "\(step)")
            #expect(cache.takePatchedCount() == (test.patched ? 1 : 0), "\(step)")
        }
    }

    /// What the cache says a decode changed, against the stores before (decode `generation`)
    /// and after: every contact it does not list is the same, each one it lists was there, and
    /// it says whether groups or todos changed. Only stores that are not `comparable` (a decode
    /// found an error) or have another number of contacts have no base.
    static func expectChanges(
        _ changes: StoreDecodeCache.StoreChanges, from before: Store, _ generation: Int, to after: Store,
        comparable: Bool, _ step: String
    ) {
        #expect(changes.generation == generation + 1, "\(step)")
        guard comparable, before.contacts.count == after.contacts.count else {
            #expect(changes.base == nil, "\(step)")
            return
        }
        #expect(changes.base == generation, "\(step)")
        var listed: [Int: Contact] = [:]
        for (position, contact) in changes.contacts { listed[position] = contact }
        #expect(listed.count == changes.contacts.count, "\(step): a position listed twice")
        for (position, contact) in before.contacts.enumerated() {
            if let replaced = listed[position] {
                #expect(replaced == contact, "\(step): position \(position)")
            } else {
                #expect(after.contacts[position] == contact, "\(step): position \(position) not listed")
            }
        }
        let others = before.groups != after.groups || before.todos != after.todos
        #expect(changes.replacedOthers == others, "\(step)")
    }
}
