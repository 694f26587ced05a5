import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// The rules list every page an edit changes, and leave out the pages of a paged list whose
/// contacts it does not touch.
@Suite struct PageDependenciesTests {
    /// The pages the rules list for `edit` of the demo paged by 3, and the pages whose bytes
    /// the edit really changed.
    static func listedAndChanged(_ edit: (inout Contact) -> Void) throws -> (
        listed: Set<String>, changed: Set<String>
    ) {
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo paged by 3" })
        let today = SitePagesTests.today
        let oldDirectory = Directory(store: site.store, config: site.config)
        let old = SiteRenderer(directory: oldDirectory, theme: site.theme, today: today)
        let oldSnapshot = SiteSnapshot(
            config: site.config, renderer: old, theme: site.theme, siteTemplates: [:])
        var store = site.store
        let index = try #require(store.contacts.firstIndex { $0.id == "sabine-weiss" })
        edit(&store.contacts[index])
        let patch = try #require(Directory.patching(oldDirectory, from: site.store, to: store))
        let new = SiteRenderer(
            directory: patch.directory, theme: site.theme, today: today,
            base: SiteRenderer.Base(snapshot: oldSnapshot, changedEntries: patch.changedEntries))
        let newSnapshot = SiteSnapshot(
            config: site.config, renderer: new, theme: site.theme, siteTemplates: [:])
        let listed = PageDependencies.changedPages(
            from: oldSnapshot, to: newSnapshot, renderer: new, among: new.pages,
            changedEntries: patch.changedEntries)
        var before: [String: [UInt8]] = [:]
        for page in old.pages { before[old.path(of: page)] = try old.render(page) }
        var changed: Set<String> = []
        for page in new.pages where try before[new.path(of: page)] != new.render(page) {
            changed.insert(new.path(of: page))
        }
        return (Set(listed.map(new.path(of:))), changed)
    }

    /// Notes are neither in the list rows nor searched: of the section pages, at most the one
    /// that lists the contact is weighed again (a changed contact counts as a changed row).
    @Test func notesChangeTheContactsPageAndNoOtherSectionPage() throws {
        let (listed, changed) = try Self.listedAndChanged { $0.notes = "Moved to **Potsdam**." }
        #expect(changed.isSuperset(of: ["contacts/sabine-weiss.html"]))
        #expect(listed.isSuperset(of: changed), "\(changed.subtracting(listed))")
        #expect(!changed.contains { $0.hasPrefix("sections/") || $0.hasPrefix("search/") })
        let sections = listed.filter { $0.hasPrefix("sections/") }
        #expect(sections.count <= 1, "\(sections.sorted())")
    }

    /// A phone number is searched and shown in the contact's row: the search index changes,
    /// and of the pages with a search box only the section page that lists the row (no page
    /// names the index's version).
    @Test func aPhoneNumberChangesTheSearchIndexAndOnlyItsOwnSectionPage() throws {
        let (listed, changed) = try Self.listedAndChanged {
            $0.phones = [LabeledValue(label: "work", value: "+49 30 7654 321")]
        }
        #expect(changed.contains { $0.hasPrefix("search/") })
        #expect(listed.isSuperset(of: changed), "\(changed.subtracting(listed))")
        let sections = changed.filter { $0.hasPrefix("sections/") }
        #expect(sections.count == 1, "\(sections.sorted())")
        #expect(listed.filter { $0.hasPrefix("sections/") } == sections)
        #expect(!changed.contains("404.html"))
    }
}
