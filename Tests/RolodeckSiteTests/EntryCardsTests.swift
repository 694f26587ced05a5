import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite

/// The cards a rebuild keeps (`VCardCache`) are brought up to date for the next one, and are
/// then the cards a renderer without them makes.
@Suite struct EntryCardsTests {
    /// The demo with 150 more contacts, whose family name sorts after every demo contact's:
    /// renaming the last to the front moves more contacts one place than a save weighs one by one.
    static func site() throws -> (site: Site, store: Store) {
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo" })
        var store = site.store
        for number in 0..<150 {
            var contact = Contact(id: "zapf-\(number)")
            contact.givenName = "Person \(1000 + number)"
            contact.familyName = "Zzapf"
            contact.emails = [LabeledValue(label: "home", value: "person\(number)@example.org")]
            store.contacts.append(contact)
        }
        return (site, store)
    }

    /// Every entry's card of `store`, made with `cache`, and the entries known to have changed.
    static func cards(_ store: Store, of site: Site, cache: VCardCache?) -> (
        cards: [[UInt8]], changed: [Int]?
    ) {
        let directory = Directory(store: store, config: site.config)
        let renderer = SiteRenderer(
            directory: directory, theme: site.theme, today: SitePagesTests.today, cardCache: cache)
        let cards = renderer.entryCards()
        return (cards, renderer.cards.changed)
    }

    /// A save's edit of the store.
    enum Edit: String, CaseIterable, CustomTestStringConvertible {
        case lastRenamedToTheFront, lastRenamedAndAnotherEdited, oneAddedAtTheFront, firstRemoved
        case seventyRenamedToTheFront

        var testDescription: String { rawValue }

        /// The contacts whose cards or places the edit changes, by id; all of them for an edit
        /// too large to bring the cards up to date one by one.
        func apply(to contacts: inout [Contact]) -> Set<String> {
            switch self {
            case .lastRenamedToTheFront:
                contacts[contacts.count - 1].familyName = "Aaberg"
                return [contacts[contacts.count - 1].id]
            case .lastRenamedAndAnotherEdited:
                contacts[contacts.count - 1].familyName = "Aaberg"
                contacts[contacts.count - 40].emails = [LabeledValue(label: "work", value: "new@example.org")]
                return [contacts[contacts.count - 1].id, contacts[contacts.count - 40].id]
            case .oneAddedAtTheFront:
                var contact = Contact(id: "aachen")
                contact.givenName = "Anna"
                contact.familyName = "Aachen"
                contacts.append(contact)
                return ["aachen"]
            case .firstRemoved:
                let first = contacts.firstIndex { $0.id == "zapf-0" }!
                contacts.remove(at: first)
                return []
            case .seventyRenamedToTheFront:
                for index in (contacts.count - 70)..<contacts.count { contacts[index].familyName = "Aaberg" }
                return Set(contacts.map(\.id))
            }
        }
    }

    @Test(arguments: Edit.allCases)
    func cardsKeptAcrossAMoveAreTheCardsMadeAnew(_ edit: Edit) throws {
        let (site, original) = try Self.site()
        var store = original
        let cache = VCardCache()
        let first = Self.cards(original, of: site, cache: cache)
        #expect(first.changed == nil)
        let edited = edit.apply(to: &store.contacts)
        let kept = Self.cards(store, of: site, cache: cache)
        let fresh = Self.cards(store, of: site, cache: nil)
        #expect(kept.cards == fresh.cards)
        let directory = Directory(store: store, config: site.config)
        if edit == .seventyRenamedToTheFront {
            // Too many to weigh one by one: made again, nothing known of what changed.
            #expect(kept.changed == nil)
        } else {
            let changed = try #require(kept.changed, "the cards were made again, not brought up to date")
            let changedIDs = Set(changed.map { directory.entries[$0].contact.id })
            #expect(changedIDs.isSuperset(of: edited), "\(edited.subtracting(changedIDs))")
            #expect(changed.count <= 2, "\(changed)")
        }
        // And kept again for the save after: the same cards once more, nothing changed.
        let again = Self.cards(store, of: site, cache: cache)
        #expect(again.cards == fresh.cards)
        #expect(again.changed == [])
    }

    /// Two renderers share a watch's cache: the older one (made for an output found up to
    /// date) makes its cards off the rebuilds' path, before or after the newer one (a save)
    /// made its own. The cache keeps the newer one's cards either way, so the save after finds
    /// nothing changed since the newer one, and brings the cards up to date, not made again.
    @Test(arguments: [false, true])
    func theCacheKeepsTheNewestRenderersCards(olderFirst: Bool) throws {
        let (site, original) = try Self.site()
        var store = original
        _ = Edit.lastRenamedToTheFront.apply(to: &store.contacts)
        let cache = VCardCache()
        func renderer(_ store: Store) -> SiteRenderer {
            SiteRenderer(
                directory: Directory(store: store, config: site.config), theme: site.theme,
                today: SitePagesTests.today, cardCache: cache)
        }
        let older = renderer(original)
        let newer = renderer(store)
        for made in olderFirst ? [older, newer] : [newer, older] { _ = made.entryCards() }
        let next = Self.cards(store, of: site, cache: cache)
        #expect(next.cards == Self.cards(store, of: site, cache: nil).cards)
        #expect(next.changed == [], "the cards kept were not the newer renderer's")
    }
}
