import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite

/// A renderer given what the last rebuild rendered (`earlier`), for a directory planned anew
/// (a contact moved), takes the list rows of the contacts that show the same from it, and
/// renders what a renderer without it renders.
@Suite struct EarlierRowsTests {
    /// A save's edit of the store.
    enum Edit: String, CaseIterable, CustomTestStringConvertible {
        /// The last contact renamed to the front: every other contact one place on.
        case lastRenamedToTheFront
        /// A contact added whose id is the page name (the slug) of another: that one is given
        /// another page name, which its row links to, though it did not change.
        case slugTaken

        var testDescription: String { rawValue }

        func apply(to contacts: inout [Contact]) throws {
            switch self {
            case .lastRenamedToTheFront:
                contacts[contacts.count - 1].familyName = "Aaberg"
            case .slugTaken:
                try #require(contacts.contains { $0.id == "Zzapf-Extra" })
                var taker = Contact(id: "zzapf-extra")
                taker.givenName = "Taker"
                taker.familyName = "Aaberg"
                contacts.append(taker)
            }
        }
    }

    @Test(arguments: Edit.allCases)
    func rowsTakenFromTheLastRebuildRenderWhatNewRowsRender(_ edit: Edit) throws {
        let (site, store0) = try EntryCardsTests.site()
        var original = store0
        // An id that is not its own page name ("zzapf-extra"): it keeps that name while no
        // other contact's id is it.
        var extra = Contact(id: "Zzapf-Extra")
        extra.givenName = "Extra"
        extra.familyName = "Zzapf"
        original.contacts.append(extra)
        let today = SitePagesTests.today
        let old = SiteRenderer(
            directory: Directory(store: original, config: site.config), theme: site.theme, today: today)
        let earlier = SiteSnapshot(config: site.config, renderer: old, theme: site.theme, siteTemplates: [:])
        var store = original
        try edit.apply(to: &store.contacts)
        let directory = Directory(store: store, config: site.config)
        let new = SiteRenderer(directory: directory, theme: site.theme, today: today, earlier: earlier)
        let fresh = SiteRenderer(directory: directory, theme: site.theme, today: today)
        if edit == .slugTaken {
            let before = try #require(old.directory.entries.first { $0.contact.id == "Zzapf-Extra" }).slug
            let after = try #require(directory.entries.first { $0.contact.id == "Zzapf-Extra" }).slug
            #expect(before != after)
        }
        // The rows were taken, not made again: all but those of the contacts the edit touched.
        let oldRows = Set(old.views.rows.map(ObjectIdentifier.init))
        let taken = new.views.rows.filter { oldRows.contains(ObjectIdentifier($0)) }.count
        #expect(taken >= directory.entries.count - 2, "\(taken) of \(directory.entries.count)")
        #expect(new.pages == fresh.pages)
        for page in fresh.pages {
            #expect(try new.render(page) == fresh.render(page), "\(fresh.path(of: page))")
        }
    }
}
