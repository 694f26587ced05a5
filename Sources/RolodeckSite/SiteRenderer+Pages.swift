import RolodeckPlan

/// One file of the site, as `SiteRenderer` writes it: a page made from a template, or a static
/// file of the theme. Watch renders pages one at a time by these, where a build renders them all.
public enum SitePage: Hashable, Sendable {
    /// A static file of the theme, by its path in the output.
    case asset(String)
    /// A file of the search index, by its position in the index's files.
    case search(Int)
    /// `index.html`.
    case index
    /// `groups.html`.
    case groups
    /// `todos.html`.
    case todos
    /// `404.html`.
    case notFound
    /// `birthdays.html`.
    case birthdays
    /// `birthdays.ics`, the birthday calendar.
    case birthdaysCalendar
    /// `todos.ics`, the todos as a calendar.
    case todosCalendar
    /// A contact's page, by its position in the directory's entries.
    case contact(Int)
    /// A group's page, by its position in the directory's groups.
    case group(Int)
    /// A contact's vCard, `contacts/<slug>.vcf`, by its position in the directory's entries.
    case contactCard(Int)
    /// A group's members' vCards, `groups/<slug>.vcf`, by its position in the directory's groups.
    case groupCard(Int)
    /// Every contact's vCard, `contacts.vcf`.
    case directoryCard
    /// A page of a section of the paged index, `sections/<name>.html`, by its position in
    /// the index's pages.
    case section(Int)
    /// A page of a section of a paged group, `groups/<slug>/<name>.html`: the group's position
    /// and the page's position in the group's pages.
    case groupSection(Int, Int)
    /// A later page of the paged todos, `todos-2.html` and on, by its number from 0 (0 is
    /// `todos.html`, `.todos`).
    case todosPage(Int)
    /// A later page of the paged birthdays, `birthdays-2.html` and on, by its number from 0
    /// (0 is `birthdays.html`, `.birthdays`).
    case birthdaysPage(Int)
    /// A photo without its metadata, `photos/<digest>.<ext>`, by its position in the renderer's
    /// photos (in digest order).
    case photo(Int)
    /// A photo's thumbnail, `photos/<digest>-96.webp`, by its position in the renderer's photos.
    case photoThumbnail(Int)
}

extension SiteRenderer {
    /// Every file `render` emits: the pages in the order it emits them, then the search
    /// index's files, which `render` emits alongside the others once the index is built (so
    /// this waits for it). A test checks that `pages` and `render` agree; a new kind of output
    /// file needs a case here and a rule in `PageDependencies`.
    public var pages: [SitePage] {
        pagesBeforeSearch + searchFiles
    }

    /// Every file but the search index's, in `pages` order: these are known before the index is
    /// built.
    public var pagesBeforeSearch: [SitePage] { pagesBeforeSearch(ofEntries: nil) }

    /// `pagesBeforeSearch` with the pages of only `entries` (ascending) among the entries' pages
    /// and vCards, or of every entry when nil.
    public func pagesBeforeSearch(ofEntries entries: [Int]?) -> [SitePage] {
        var pages: [SitePage] = theme.assets.keys.sorted().map(SitePage.asset)
        if publishesGroups { pages.append(.groups) }
        pages.append(.todos)
        pages += paging.todos.pages.indices.dropFirst().map(SitePage.todosPage)
        pages.append(.notFound)
        if publishesBirthdays {
            pages.append(.birthdays)
            pages += paging.birthdays.indices.dropFirst().map(SitePage.birthdaysPage)
            pages.append(.birthdaysCalendar)
        }
        pages.append(.todosCalendar)
        let entries = entries ?? Array(directory.entries.indices)
        pages += entries.map(SitePage.contact)
        pages += directory.groups.indices.map(SitePage.group)
        pages += paging.groupSectionPages
        pages += entries.map(SitePage.contactCard)
        pages += directory.groups.indices.map(SitePage.groupCard)
        pages.append(.directoryCard)
        for index in photoFiles.indices { pages += [.photo(index), .photoThumbnail(index)] }
        pages += paging.index.pages.indices.map(SitePage.section)
        pages.append(.index)
        return pages
    }

    /// Whether the site has `groups.html` (`SiteConfig.publishesGroups`).
    var publishesGroups: Bool { directory.config.publishesGroups }

    /// Whether the site has the birthday pages and calendar (`SiteConfig.publishesBirthdays`).
    var publishesBirthdays: Bool { directory.config.publishesBirthdays }

    /// The search index's files, as `pages` ends; waits until the index is built.
    public var searchFiles: [SitePage] {
        search.files.indices.map(SitePage.search)
    }

    /// The page's path in the output.
    public func path(of page: SitePage) -> String {
        switch page {
        case .asset(let path): return path
        case .search(let index): return search.files[index].path
        case .index: return "index.html"
        case .groups: return "groups.html"
        case .todos: return "todos.html"
        case .notFound: return "404.html"
        case .birthdays: return "birthdays.html"
        case .birthdaysCalendar: return "birthdays.ics"
        case .todosCalendar: return "todos.ics"
        case .contact(let index): return Self.contactPaths(slug: directory.entries[index].slug).page
        case .group(let index): return "groups/\(directory.groups[index].slug).html"
        case .contactCard(let index): return Self.contactPaths(slug: directory.entries[index].slug).card
        case .groupCard(let index): return "groups/\(directory.groups[index].slug).vcf"
        case .directoryCard: return "contacts.vcf"
        case .section(let number): return "sections/\(paging.index.pages[number].name).html"
        case .groupSection(let group, let number):
            return "groups/\(directory.groups[group].slug)/\(paging.groups[group].pages[number].name).html"
        case .todosPage(let number): return TodoPaging.path(ofPage: number)
        case .birthdaysPage(let number): return SitePaging.birthdaysPath(ofPage: number)
        case .photo(let index): return photoFiles[index].path
        case .photoThumbnail(let index): return photoFiles[index].thumbnailPath
        }
    }

    /// The paths of the page and the vCard of the contact with the slug: its only files.
    public static func contactPaths(slug: String) -> (page: String, card: String) {
        ("contacts/\(slug).html", "contacts/\(slug).vcf")
    }

    /// The template the page is rendered from; nil for a static file.
    static func template(of page: SitePage) -> String? {
        switch page {
        case .asset, .search, .birthdaysCalendar, .todosCalendar, .contactCard, .groupCard, .directoryCard,
            .photo,
            .photoThumbnail:
            return nil
        case .index: return "index"
        case .groups: return "groups"
        case .todos, .todosPage: return "todos"
        case .section, .groupSection: return "section"
        case .notFound: return "not-found"
        case .birthdays, .birthdaysPage: return "birthdays"
        case .contact: return "contact"
        case .group: return "group"
        }
    }

    /// The parts a file of many cards is made of (`contacts.vcf`, a group's vCards), one after
    /// the other, as `render(_:)` joins them; nil for any other page. A writer that takes parts
    /// (66 MB of them for `contacts.vcf` at 100,000 contacts) need not have them joined.
    public func parts(of page: SitePage) -> [[UInt8]]? {
        switch page {
        case .groupCard(let index): return groupCardParts(index)
        case .directoryCard: return directoryCardParts()
        case .birthdaysCalendar: return birthdayEventCache == nil ? nil : birthdaysCalendarParts()
        default: return nil
        }
    }

    /// Renders one page (or returns a static file's bytes), exactly as `render` does.
    public func render(_ page: SitePage) throws -> [UInt8] {
        switch page {
        case .asset(let path): return theme.assets[path] ?? []
        case .search(let index): return search.files[index].bytes
        case .index: return try self.page("index", views.indexPage())
        case .groups: return try self.page("groups", views.groupsPage())
        case .todos: return try self.page("todos", views.todosPage())
        case .notFound: return try self.page("not-found", views.notFoundPage())
        case .birthdays: return try self.page("birthdays", views.birthdaysPage())
        case .birthdaysCalendar: return birthdaysCalendar()
        case .todosCalendar: return todosCalendar()
        case .contact(let index): return try self.page("contact", views.contactPage(index))
        case .group(let index): return try self.page("group", views.groupPage(index))
        case .contactCard(let index): return contactCard(index)
        case .groupCard(let index): return groupCard(index)
        case .directoryCard: return directoryCard()
        case .section(let number): return try self.page("section", views.sectionPage(number))
        case .groupSection(let group, let number):
            return try self.page("section", views.groupSectionPage(group, number))
        case .todosPage(let number): return try self.page("todos", views.todosPage(number))
        case .birthdaysPage(let number): return try self.page("birthdays", views.birthdaysPage(number))
        case .photo(let index): return photoFiles[index].bytes
        case .photoThumbnail(let index): return photoFiles[index].thumbnailBytes
        }
    }
}
