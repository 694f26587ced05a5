import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckStore
@testable import RolodeckTestSupport
@testable import RolodeckPlan

/// A patched directory must be the directory planned anew, and the patch must refuse every
/// change that moves a contact, renames one, or touches groups or todos.
@Suite struct DirectoryPatchingTests {
    static let demo: (store: Store, config: SiteConfig) = {
        let reader = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "demo")
        let input = try! reader.read().input
        return (StoreDecoder.decode(input.storeFiles).store, input.config)
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var patches: Bool
        var change: @Sendable (inout Store) -> Void
        var testDescription: String { label }
    }

    static func edit(_ store: inout Store, _ id: String, _ change: (inout Contact) -> Void) {
        change(&store.contacts[store.contacts.firstIndex { $0.id == id }!])
    }

    static let cases: [Case] = [
        Case(label: "nothing changed", patches: true) { _ in },
        Case(label: "notes, phones and an address", patches: true) { store in
            edit(&store, "ayse-oeztuerk") { contact in
                contact.notes = "New notes"
                contact.phones.append(LabeledValue(label: "home", value: "+49 30 1"))
                contact.addresses = []
            }
        },
        Case(label: "a title on two contacts", patches: true) { store in
            edit(&store, "ayse-oeztuerk") { $0.title = "Lead" }
            edit(&store, "juergen-mueller") { $0.title = "CEO" }
        },
        Case(label: "a family name, which sorts", patches: false) { store in
            edit(&store, "ayse-oeztuerk") { $0.familyName = "Aaberg" }
        },
        Case(label: "a given name, which shows in the name", patches: false) { store in
            edit(&store, "ayse-oeztuerk") { $0.givenName = "Ayla" }
        },
        Case(label: "a nickname of a contact known by it", patches: false) { store in
            let index = store.contacts.firstIndex {
                $0.givenName.isEmpty && $0.familyName.isEmpty && !$0.nickname.isEmpty
            }
            if let index {
                store.contacts[index].nickname += "!"
            } else {
                store.contacts[0].familyName += "!"
            }
        },
        Case(label: "a phonetic name, which sorts", patches: false) { store in
            edit(&store, "ayse-oeztuerk") { $0.phoneticFamilyName = "zz" }
        },
        Case(label: "a group joined", patches: false) { store in
            edit(&store, "ayse-oeztuerk") { $0.groupIDs.append("family") }
        },
        Case(label: "a contact added", patches: false) { store in
            store.contacts.append(Contact(id: "new"))
        },
        Case(label: "two contacts swapped in the file", patches: false) { store in
            store.contacts.swapAt(0, 1)
        },
        Case(label: "a group renamed", patches: false) { store in
            store.groups[0].name += " (old)"
        },
        Case(label: "a todo done", patches: false) { store in
            store.todos[0].done.toggle()
        },
    ]

    /// Everything a directory holds, as text.
    static func dump(_ directory: Directory) -> String {
        // A contact by its id and its hash: two equal contacts hash alike in one process.
        var lines = directory.entries.map {
            "\($0.contact.id) \($0.contact.hashValue) \($0.slug) \($0.displayName) \($0.section)"
        }
        lines += directory.sections.map { "\($0.section) \($0.items)" }
        lines += directory.groups.map {
            "\($0.group) \($0.slug) \($0.memberCount) \($0.sections.map { "\($0.section) \($0.items)" })"
        }
        lines += directory.todos.map {
            "\($0.todo) \(String(describing: $0.contact)) \(String(describing: $0.parent)) \($0.subtasks)"
        }
        lines += directory.groupIndex.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return lines.joined(separator: "\n")
    }

    @Test(arguments: cases)
    func aPatchIsAFreshPlanOrNothing(_ test: Case) {
        let (store, config) = Self.demo
        let old = Directory(store: store, config: config)
        var changed = store
        test.change(&changed)
        let patched = Directory.patching(old, from: store, to: changed)
        #expect((patched != nil) == test.patches)
        if let patched {
            #expect(Self.dump(patched.directory) == Self.dump(Directory(store: changed, config: config)))
            // The entries said to have changed are exactly those whose contact did.
            let differing = old.entries.indices.filter {
                old.entries[$0].contact != patched.directory.entries[$0].contact
            }
            #expect(patched.changedEntries == differing)
        }
    }
}
