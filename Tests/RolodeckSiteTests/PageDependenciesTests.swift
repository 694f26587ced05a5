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
        let (listed, changed, _, _) = try compare { site, oldDirectory, oldSnapshot in
            var store = site.store
            let index = try #require(store.contacts.firstIndex { $0.id == "sabine-weiss" })
            edit(&store.contacts[index])
            let patch = try #require(Directory.patching(oldDirectory, from: site.store, to: store))
            let base = SiteRenderer.Base(snapshot: oldSnapshot, changedEntries: patch.changedEntries)
            return (patch.directory, base, patch.changedEntries)
        }
        return (listed, changed)
    }

    /// The pages the rules list for `edit` of the demo paged by 3's contacts when the new
    /// directory is planned whole, as for a save that moves a contact (`Directory.patching`
    /// takes none that moves), with the pages whose bytes really changed, and the place of
    /// every contact before and after, by id.
    static func listedAndChangedWhenPlanned(_ edit: (inout [Contact]) throws -> Void) throws -> (
        listed: Set<String>, changed: Set<String>, before: [String: Int], after: [String: Int]
    ) {
        let (listed, changed, old, new) = try compare { site, _, _ in
            var store = site.store
            try edit(&store.contacts)
            return (Directory(store: store, config: site.config), nil, nil)
        }
        func places(_ directory: Directory) -> [String: Int] {
            Dictionary(uniqueKeysWithValues: directory.entries.enumerated().map { ($1.contact.id, $0) })
        }
        return (listed, changed, places(old), places(new))
    }

    /// The pages the rules list between the demo paged by 3 and the directory `edit` makes of
    /// it (with the base it renders from and the entries it changed, when it was patched), the
    /// pages whose bytes really changed, and both directories.
    static func compare(
        _ edit: (Site, Directory, SiteSnapshot) throws -> (Directory, SiteRenderer.Base?, [Int]?)
    ) throws -> (listed: Set<String>, changed: Set<String>, old: Directory, new: Directory) {
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo paged by 3" })
        let today = SitePagesTests.today
        let oldDirectory = Directory(store: site.store, config: site.config)
        let old = SiteRenderer(directory: oldDirectory, theme: site.theme, today: today)
        let oldSnapshot = SiteSnapshot(
            config: site.config, renderer: old, theme: site.theme, siteTemplates: [:])
        let (newDirectory, base, changedEntries) = try edit(site, oldDirectory, oldSnapshot)
        let new = SiteRenderer(directory: newDirectory, theme: site.theme, today: today, base: base)
        let newSnapshot = SiteSnapshot(
            config: site.config, renderer: new, theme: site.theme, siteTemplates: [:])
        let listed = PageDependencies.changedPages(
            from: oldSnapshot, to: newSnapshot, renderer: new, among: new.pages,
            changedEntries: changedEntries)
        var before: [String: [UInt8]] = [:]
        for page in old.pages { before[old.path(of: page)] = try old.render(page) }
        var changed: Set<String> = []
        for page in new.pages where try before[new.path(of: page)] != new.render(page) {
            changed.insert(new.path(of: page))
        }
        return (Set(listed.map(new.path(of:))), changed, oldDirectory, newDirectory)
    }

    /// The last of the demo's contacts with a family name, with or without a birthday.
    static func lastContact(withBirthday: Bool) throws -> Contact {
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo paged by 3" })
        return try #require(
            site.store.contacts.last { ($0.birthday != nil) == withBirthday && !$0.familyName.isEmpty })
    }

    /// A contact without a birthday renamed to the front of the list moves every contact
    /// before it one place on, but shows on no birthday page: the birthday pages and the
    /// calendar are neither changed nor listed.
    @Test func aContactWithoutABirthdayMovedListsNoBirthdayPage() throws {
        let moved = try Self.lastContact(withBirthday: false)
        let (listed, changed, before, after) = try Self.listedAndChangedWhenPlanned { contacts in
            let index = try #require(contacts.firstIndex { $0.id == moved.id })
            contacts[index].familyName = "Aaberg"
        }
        #expect(before[moved.id] != after[moved.id])
        #expect(listed.isSuperset(of: changed), "\(changed.subtracting(listed))")
        #expect(!changed.contains { $0.hasPrefix("birthdays") })
        let birthdayPages = listed.filter { $0.hasPrefix("birthdays") }
        #expect(birthdayPages.isEmpty, "\(birthdayPages.sorted())")
        #expect(listed.contains("contacts.vcf"))
        // The contacts it passed stand a place on, and show as they did.
        #expect(
            Self.contactFiles(listed) == Self.contactFiles(changed), "\(Self.contactFiles(listed).sorted())")
    }

    /// A contact with a birthday renamed to the front of the list shows under its new name on
    /// its birthday page and in the calendar: they are listed, and no other birthday page is
    /// (no other contact shares its day).
    @Test func aContactWithABirthdayMovedListsTheBirthdayPages() throws {
        let moved = try Self.lastContact(withBirthday: true)
        let (listed, changed, before, after) = try Self.listedAndChangedWhenPlanned { contacts in
            let index = try #require(contacts.firstIndex { $0.id == moved.id })
            contacts[index].familyName = "Aaberg"
        }
        #expect(before[moved.id] != after[moved.id])
        #expect(changed.contains("birthdays.ics"))
        #expect(listed.isSuperset(of: changed), "\(changed.subtracting(listed))")
        #expect(Self.birthdayFiles(listed) == Self.birthdayFiles(changed))
    }

    /// A contact renamed to stand one place earlier, before its neighbour: matched in order,
    /// the neighbour is the one left over, and is found by its id. Only the renamed contact's
    /// own files are listed of the contacts' files, as only they changed.
    @Test func aContactMovedPastItsNeighbourListsOnlyItsOwnFiles() throws {
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo paged by 3" })
        let entries = Directory(store: site.store, config: site.config).entries
        // An entry that is the first of its family name, followed by one of another.
        let first = try #require(
            (1..<entries.count - 1).first { index in
                let family = entries[index].contact.familyName
                return !family.isEmpty && entries[index - 1].contact.familyName != family
                    && entries[index + 1].contact.familyName != family
            })
        let neighbour = entries[first].contact, moved = entries[first + 1].contact
        let (listed, changed, before, after) = try Self.listedAndChangedWhenPlanned { contacts in
            let index = try #require(contacts.firstIndex { $0.id == moved.id })
            contacts[index].familyName = neighbour.familyName
            contacts[index].givenName = "Aaa"
        }
        try #require(after[moved.id] == before[moved.id]! - 1, "the renamed contact moves one place")
        #expect(after[neighbour.id] == before[neighbour.id]! + 1)
        #expect(
            Self.contactFiles(listed) == Self.contactFiles(changed), "\(Self.contactFiles(listed).sorted())")
    }

    /// The contacts' own files (pages and cards) among `paths`.
    static func contactFiles(_ paths: Set<String>) -> Set<String> {
        paths.filter { $0.hasPrefix("contacts/") }
    }

    /// The birthday pages and calendar among `paths`, sorted.
    static func birthdayFiles(_ paths: Set<String>) -> [String] {
        paths.filter { $0.hasPrefix("birthdays") }.sorted()
    }

    /// What happens to a contact with a birthday while another contact moves.
    enum BirthdayEdit: CaseIterable {
        /// A letter added to its family name: it keeps its place.
        case renamed
        /// Its birthday a day later.
        case bornADayLater
    }

    /// While another contact moves, a contact with a birthday is renamed in its place, or its
    /// birthday changes: the birthday contacts are the same, in the same order, but one shows
    /// under another name, or on another day, on a birthday page and in the calendar.
    @Test(arguments: BirthdayEdit.allCases)
    func aContactWithABirthdayEditedInPlaceListsTheBirthdayPagesWhileAnotherMoves(
        _ edit: BirthdayEdit
    ) throws {
        let moved = try Self.lastContact(withBirthday: false)
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo paged by 3" })
        let renamed = try #require(site.store.contacts.first { $0.id == "sabine-weiss" })
        let birthday = try #require(renamed.birthday)
        let (listed, changed, before, after) = try Self.listedAndChangedWhenPlanned { contacts in
            let index = try #require(contacts.firstIndex { $0.id == moved.id })
            contacts[index].familyName = "Aaberg"
            let other = try #require(contacts.firstIndex { $0.id == renamed.id })
            switch edit {
            case .renamed: contacts[other].familyName += "s"
            case .bornADayLater:
                contacts[other].birthday = PartialDate(
                    year: birthday.year, month: birthday.month, day: birthday.day % 28 + 1)
            }
        }
        #expect(before[moved.id] != after[moved.id])
        // The case this weighs: the contacts with a birthday kept their order.
        let withBirthdays = Set(site.store.contacts.filter { $0.birthday != nil }.map(\.id))
        func birthdayOrder(_ places: [String: Int]) -> [String] {
            places.filter { withBirthdays.contains($0.key) }.sorted { $0.value < $1.value }.map(\.key)
        }
        #expect(birthdayOrder(before) == birthdayOrder(after))
        #expect(changed.contains("birthdays.ics"))
        #expect(changed.contains { $0.hasPrefix("birthdays") && $0.hasSuffix(".html") })
        #expect(listed.isSuperset(of: changed), "\(changed.subtracting(listed))")
        if edit == .renamed {
            // The same contacts on the same days: only the page that shows it, and the calendar.
            #expect(Self.birthdayFiles(listed) == Self.birthdayFiles(changed))
        }
    }

    /// The last contact with a birthday in the directory's order removed: every other contact
    /// with a birthday is where it was among them, but one is gone from the birthday pages.
    @Test func theLastContactWithABirthdayRemovedListsTheBirthdayPages() throws {
        let (_, site) = try #require(try SitePagesTests.sites().first { $0.0 == "demo paged by 3" })
        let directory = Directory(store: site.store, config: site.config)
        let last = try #require(directory.entries.last { $0.contact.birthday != nil }).contact.id
        let (listed, changed, _, after) = try Self.listedAndChangedWhenPlanned { contacts in
            contacts.removeAll { $0.id == last }
        }
        #expect(after[last] == nil)
        #expect(changed.contains("birthdays.ics"))
        #expect(listed.isSuperset(of: changed), "\(changed.subtracting(listed))")
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
