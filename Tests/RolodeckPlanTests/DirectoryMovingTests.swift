import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckPlan

/// A directory with renamed contacts moved into place (`Directory.moving`) must be the
/// directory planned anew, in every locale, whatever section the contacts leave and join;
/// and the move must refuse a contact with another id or other groups.
@Suite struct DirectoryMovingTests {
    /// Everything a directory holds, as text, each entry's groups too.
    static func dump(_ directory: Directory) -> String {
        DirectoryPatchingTests.dump(directory) + "\n\(directory.entryGroups)\n\(directory.entryGroupStarts)"
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
        Case(label: "an id changed", moves: false) { store in
            DirectoryPatchingTests.edit(&store, "ayse-oeztuerk") { $0.id = "ayse" }
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
