import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSearch

/// An index built with what a cache kept from the last one is the index built from nothing.
@Suite struct SearchIndexCacheTests {
    struct Edit: Sendable, CustomStringConvertible {
        var description: String
        var change: @Sendable (inout Store, inout SiteConfig) -> Void
    }

    static let edits: [Edit] = [
        Edit(description: "nothing") { _, _ in },
        Edit(description: "a phone number") { store, _ in
            store.contacts[30].phones = [LabeledValue(label: "work", value: "+49 30 1234567")]
        },
        Edit(description: "a given name, which moves the contact") { store, _ in
            store.contacts[30].givenName = "Aaron"
            store.contacts[30].familyName = "Aalto"
        },
        Edit(description: "a contact added, which moves every later one") { store, _ in
            var contact = Contact(id: "new")
            contact.givenName = "Abe"
            contact.familyName = "Aab"
            contact.groupIDs = ["g1"]
            store.contacts.insert(contact, at: 0)
        },
        Edit(description: "a contact removed") { store, _ in store.contacts.remove(at: 5) },
        Edit(description: "a group renamed, which its members are found by") { store, _ in
            store.groups[1].name = "Squash"
        },
        Edit(description: "a group removed") { store, _ in store.groups.remove(at: 2) },
        Edit(description: "the phone region") { _, config in config.phoneRegion = "KR" },
        Edit(description: "the locale") { _, config in config.locale = "ko" },
        Edit(description: "phone numbers hidden") { _, config in config.hiddenFields = [.phones] },
    ]

    static func directory(_ edits: [Edit]) -> Directory {
        var store = SearchIndexTests.store(count: 60)
        var config = SiteConfig()
        for edit in edits { edit.change(&store, &config) }
        return Directory(store: store, config: config)
    }

    static func index(_ directory: Directory, cache: SearchIndexCache?) -> [String: [UInt8]] {
        SearchIndexTests.files(
            SearchIndex(directory: directory, limits: SearchIndexTests.limits, cache: cache, runs: 4))
    }

    /// The paths whose bytes differ between two indexes, or that only one has.
    static func differences(_ cached: [String: [UInt8]], _ whole: [String: [UInt8]]) -> [String] {
        Set(cached.keys).union(whole.keys).filter { cached[$0] != whole[$0] }.sorted()
    }

    @Test(arguments: edits)
    func anEditAfterACachedBuild(_ edit: Edit) {
        let cache = SearchIndexCache()
        _ = Self.index(Self.directory([]), cache: cache)
        let changed = Self.directory([edit])
        #expect(Self.differences(Self.index(changed, cache: cache), Self.index(changed, cache: nil)) == [])
        // And back, from what the edited build kept.
        let original = Self.directory([])
        #expect(Self.differences(Self.index(original, cache: cache), Self.index(original, cache: nil)) == [])
    }

    @Test func everyEditInTurnWithOneCache() {
        let cache = SearchIndexCache()
        for count in 0...Self.edits.count {
            let directory = Self.directory(Array(Self.edits.prefix(count)))
            #expect(
                Self.differences(Self.index(directory, cache: cache), Self.index(directory, cache: nil))
                    == [],
                "after \(Self.edits.prefix(count).last?.description ?? "no edit")")
        }
    }
}
