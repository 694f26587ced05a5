import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckPlan

/// A directory with renamed contacts moved into place (`Directory.moving`) must be the
/// directory planned anew, in every locale, whatever section the contacts leave and join,
/// whatever ids they take; and the move must refuse a contact with other groups, or an id
/// whose change reaches beyond its contact.
@Suite struct DirectoryMovingTests {
    /// Everything a directory holds, as text, each entry's groups too.
    static func dump(_ directory: Directory) -> String {
        DirectoryPatchingTests.dump(directory) + "\n\(directory.entryGroups)\n\(directory.entryGroupStarts)"
            + "\n\(directory.shownSlugs.bases)\n\(directory.shownSlugs.slugs)"
    }

    /// The contacts of `new` that are not those of `old`, with their positions and the old ones.
    static func replaced(_ old: Store, _ new: Store) -> [(position: Int, before: Contact)] {
        old.contacts.indices.filter { old.contacts[$0] != new.contacts[$0] }.map { ($0, old.contacts[$0]) }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var moves: Bool
        var change: @Sendable (inout Store) -> Void
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "a family name that moves it to the front", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.familyName = "Aaberg" }
        },
        Case(label: "a family name in another script's section", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "juergen-mueller") { $0.familyName = "김" }
        },
        Case(label: "a given name, which shows in the name", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.givenName = "Ayla" }
        },
        Case(label: "a phonetic name, which sorts", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.phoneticFamilyName = "zz" }
        },
        Case(label: "the same name as another contact: the ids order them", moves: true) { store in
            let other = store.contacts[3]
            DirectoryPatchingTests.edit(&store, "sabine-weiss") {
                $0.givenName = other.givenName
                $0.familyName = other.familyName
            }
        },
        Case(label: "two contacts renamed, one of them in groups", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.familyName = "Zyx" }
            let member = store.contacts.first { !$0.groupIDs.isEmpty }!.id
            DirectoryPatchingTests.edit(&store, member) { $0.familyName = "Aab" }
        },
        Case(label: "a contact a todo names, renamed", moves: true) { store in
            let named = store.todos.compactMap(\.contactID).first!
            DirectoryPatchingTests.edit(&store, named) { $0.familyName = "Ąbc" }
        },
        Case(label: "a name and a phone number at once", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") {
                $0.familyName = "Quast"
                $0.phones = []
            }
        },
        Case(label: "a group joined", moves: false) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") {
                $0.familyName = "Aaberg"
                $0.groupIDs.append("family")
            }
        },
        Case(label: "an id changed (a card without a UID renamed)", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.id = "ayse" }
        },
        Case(label: "an id and the name at once", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") {
                $0.id = "Ayla Öztürk"
                $0.givenName = "Ayla"
            }
        },
        Case(label: "an id that folds as another's, which keeps its slug", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.id = "Jürgen Müller" }
        },
        Case(label: "an id in Hangul, whose slug is a hash", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.id = "김민준" }
        },
        Case(label: "two ids swapped", moves: true) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.id = "swap" }
            DirectoryPatchingTests.edit(&store, "sabine-weiss") { $0.id = "ayse-oeztuerk" }
            DirectoryPatchingTests.edit(&store, "swap") { $0.id = "sabine-weiss" }
        },
        Case(label: "the id of a contact a todo names", moves: false) { store in
            let named = store.todos.compactMap(\.contactID).first!
            DirectoryPatchingTests.edit(&store, named) { $0.id = "renamed" }
        },
        Case(label: "an id a todo names, taken", moves: false) { store in
            store.todos[0].contactID = "taken"
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.id = "taken" }
        },
    ]

    @Test(arguments: cases)
    func aMoveIsAFreshPlanOrNothing(_ test: Case) {
        let (store, config) = DirectoryPatchingTests.demo
        let old = Directory(store: store, config: config)
        var changed = store
        test.change(&changed)
        let moved = Directory.moving(old, replacing: Self.replaced(store, changed), in: changed)
        #expect((moved != nil) == test.moves)
        if let moved {
            #expect(Self.dump(moved) == Self.dump(Directory(store: changed, config: config)))
        }
    }

    /// A new id that shares its base with another contact's id, neither of them the base
    /// itself, gives both a hash: the other contact's page would move, so the move is refused.
    @Test func anIDThatChangesAnotherContactsSlugIsNotMoved() {
        var store = Store(contacts: ["Mueller", "Anna", "Zed"].map { Contact(id: $0) })
        for index in store.contacts.indices { store.contacts[index].familyName = store.contacts[index].id }
        let config = SiteConfig()
        let old = Directory(store: store, config: config)
        #expect(old.entries.map(\.slug).sorted() == ["anna", "mueller", "zed"])
        var changed = store
        changed.contacts[2].id = "MUELLER"
        #expect(Directory.moving(old, replacing: Self.replaced(store, changed), in: changed) == nil)
        #expect(!Directory(store: changed, config: config).entries.map(\.slug).contains("mueller"))
        // The same while the other contact is renamed in the same save: its slug changes too.
        changed.contacts[0].familyName = "Aaberg"
        let both = Directory.moving(old, replacing: Self.replaced(store, changed), in: changed)
        let planned = Self.dump(Directory(store: changed, config: config))
        #expect(both.map(Self.dump) ?? planned == planned)
        changed.contacts[0].familyName = store.contacts[0].familyName
        // "Müller" folds as "Mueller" too; "Zedd" is its own.
        changed.contacts[2].id = "Müller"
        #expect(Directory.moving(old, replacing: Self.replaced(store, changed), in: changed) == nil)
        changed.contacts[2].id = "Zedd"
        let moved = Directory.moving(old, replacing: Self.replaced(store, changed), in: changed)
        #expect(moved.map(Self.dump) == Self.dump(Directory(store: changed, config: config)))
    }

    /// The config hides contacts by id: a changed id is not moved while it hides any.
    @Test func anIDChangedWhileContactsAreHiddenIsNotMoved() {
        var (store, config) = DirectoryPatchingTests.demo
        config.hiddenContacts = ["sabine-weiss"]
        let old = Directory(store: store, config: config)
        var changed = store
        DirectoryPatchingTests.edit(&changed, "ayse-oeztuerk") { $0.id = "ayse" }
        #expect(Directory.moving(old, replacing: Self.replaced(store, changed), in: changed) == nil)
        // An id the config hides that no contact had: the contact is hidden now.
        config.hiddenContacts = ["ayse"]
        let none = Directory(store: store, config: config)
        #expect(none.entries.count == store.contacts.count)
        #expect(Directory.moving(none, replacing: Self.replaced(store, changed), in: changed) == nil)
        #expect(Directory(store: changed, config: config).entries.count == store.contacts.count - 1)
        config.hiddenContacts = ["sabine-weiss"]
        changed = store
        DirectoryPatchingTests.edit(&changed, "ayse-oeztuerk") { $0.familyName = "Aaberg" }
        let moved = Directory.moving(old, replacing: Self.replaced(store, changed), in: changed)
        #expect(moved.map(Self.dump) == Self.dump(Directory(store: changed, config: config)))
    }

    /// Ids changed a few at a time, again and again, to ids that fold alike, to ids that are
    /// their own slugs, to Hangul ids whose slugs are hashes: every directory moved into place
    /// is the one planned anew, and most changes are moved.
    @Test func randomIDChanges() {
        var state: UInt64 = 0x5eed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func id() -> String {
            let number = next(40)
            let ids = [
                "c\(number)", "C\(number)", "c-\(number)", "Jürgen \(number)", "juergen-\(number)",
                "철수 \(number)",
            ]
            return ids[next(ids.count)]
        }
        let config = SiteConfig()
        var store = Store(contacts: [], groups: [Group(id: "g", name: "G")])
        var taken: Set<String> = []
        while store.contacts.count < 150 {
            let candidate = id()
            guard taken.insert(candidate).inserted else { continue }
            var contact = Contact(id: candidate)
            contact.familyName = ["Müller", "Kim", "김", "Åberg", "Zed"][next(5)]
            contact.groupIDs = next(3) == 0 ? ["g"] : []
            store.contacts.append(contact)
        }
        var directory = Directory(store: store, config: config)
        var movedCount = 0
        for round in 0..<60 {
            var changed = store
            for _ in 0..<(1 + next(3)) {
                let position = next(store.contacts.count)
                let candidate = id()
                guard !taken.contains(candidate) else { continue }
                taken.remove(changed.contacts[position].id)
                taken.insert(candidate)
                changed.contacts[position].id = candidate
                if next(2) == 0 {
                    changed.contacts[position].familyName = ["Müller", "Kim", "김", "Åberg", "Zed"][next(5)]
                }
            }
            // Another contact renamed in the same save, keeping its id.
            if next(2) == 0 {
                let position = next(store.contacts.count)
                changed.contacts[position].familyName = ["Müller", "Kim", "김", "Åberg", "Zed"][next(5)]
            }
            let moved = Directory.moving(directory, replacing: Self.replaced(store, changed), in: changed)
            let planned = Directory(store: changed, config: config)
            if let moved {
                movedCount += 1
                #expect(Self.dump(moved) == Self.dump(planned), "round \(round)")
            }
            store = changed
            directory = moved ?? planned
        }
        #expect(movedCount >= 30, "\(movedCount) of 60 moved")
    }

    /// Stores of many scripts, in five locales, each renamed a few contacts at a time, again and
    /// again: every directory moved into place is the one planned anew.
    @Test(arguments: ["en", "de", "sv", "ko", "ja"])
    func randomRenamesInEveryLocale(locale: String) {
        var state: UInt64 = 0x9e37_79b9 &+ UInt64(locale.utf8.reduce(0) { $0 * 31 + Int($1) })
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let given = ["Jürgen", "Anna", "Søren", "Zoë", "철수", "미숙", "花子", "Émile", "", "Åsa", "Ölaf"]
        let family = [
            "Müller", "Mueller", "Weiß", "O'Brien", "김", "이", "佐藤", "さとう", "Lefèvre", "Öberg", "Åberg",
            "Ångström", "", "Zed", "van Dijk", "1st Choice",
        ]
        var config = SiteConfig()
        config.locale = locale
        let groups = (0..<4).map { Group(id: "g\($0)", name: "Group \($0)") }
        func contact(_ id: String) -> Contact {
            var contact = Contact(id: id)
            contact.givenName = given[next(given.count)]
            contact.familyName = family[next(family.count)]
            if contact.givenName.isEmpty && contact.familyName.isEmpty { contact.organization = "Org \(id)" }
            contact.groupIDs = (0..<next(3)).map { _ in "g\(next(4))" }
            return contact
        }
        var store = Store(contacts: (0..<300).map { contact("c\($0)") }, groups: groups)
        store.todos = (0..<5).map { number in
            var todo = Todo(id: "t\(number)", title: "Call")
            todo.contactID = "c\(number * 37)"
            return todo
        }
        var directory = Directory(store: store, config: config)
        for round in 0..<12 {
            var changed = store
            for _ in 0..<(1 + next(3)) {
                let position = next(store.contacts.count)
                var renamed = contact(store.contacts[position].id)
                renamed.groupIDs = store.contacts[position].groupIDs
                changed.contacts[position] = renamed
            }
            let moved = Directory.moving(directory, replacing: Self.replaced(store, changed), in: changed)
            let planned = Directory(store: changed, config: config)
            #expect(moved.map(Self.dump) == Self.dump(planned), "\(locale), round \(round)")
            store = changed
            directory = moved ?? planned
        }
    }
}
