import Mustache
import RolodeckPlan
import RolodeckCore
import RolodeckSearch
import RolodeckLocale
import RolodeckMarkdown

/// Builds the context each template receives. `docs/templates.md` lists every key built here;
/// change both together.
///
/// Unchecked `Sendable`: the tables hold only strings, numbers, booleans and tables of them and
/// are never changed after `init`, so the builder is shared read-only by the render workers.
struct ViewBuilder: @unchecked Sendable {
    /// The planned directory the pages show.
    let directory: Directory
    /// The date ages and overdue todos are computed for.
    let today: PartialDate
    /// The day the store last changed, for the footer; nil leaves it out.
    let lastUpdated: PartialDate?
    /// The search index the index page's search box loads; nil leaves the box out.
    let search: SearchIndex?
    /// How the long lists are split into pages.
    let paging: SitePaging
    /// The files written for the contacts' photos, which pages and rows show.
    let photos: SitePhotos
    /// The interface text in the site's language.
    let strings: InterfaceStrings
    /// Formats phone numbers for display and `tel:` links.
    let phones: PhoneFormatter
    /// Notes on contact pages, where they sit under the h2 "Notes".
    let contactNotes: MarkdownRenderer
    /// Notes of groups and todos, which sit directly under the page's h1.
    let pageNotes: MarkdownRenderer
    /// Whether todos come from more than one task list, so each says which it is on.
    let showsTodoLists: Bool
    /// The `site` key of every page.
    let site: MustacheTable
    /// The `t` key of every page: the interface strings.
    let interface: MustacheTable
    /// List rows by entry index, made once for the index and all group pages. Kept in chunks: a
    /// save makes the rows of the entries it changed and takes the others from the last build's
    /// list, which copies one chunk, not a reference to every row (100,000 retains and releases,
    /// 3 to 6 ms of the save before any page was written).
    private(set) var rows = ChunkedArray<RowData>()
    /// The `nav` links of contact pages, made once for all of them.
    private(set) var contactNav: [MustacheTable] = []
    /// The `page` key's keys on contact pages.
    let contactInfo = PageInfo(kind: "contact")
    /// Each group's `groups` entry on contact pages, by group index, made once for all of them.
    private(set) var contactGroupLinks: [MustacheTable] = []

    // The keys of the tables built here; each table writes its values beside these keys, which
    // debug builds check (`MustacheTable(keys:fields:)`).
    /// A contact page's keys.
    static let contactPageKeys = MustacheTable.Keys(["site", "t", "root", "nav", "page", "contact"])
    private static let siteKeys = MustacheTable.Keys([
        "title", "lang", "noindex", "contactCount", "groupCount", "todoCount", "lastUpdated",
    ])
    private static let lastUpdatedKeys = MustacheTable.Keys(["display", "iso"])
    private static let interfaceKeys = MustacheTable.Keys(InterfaceKey.allCases.map(\.rawValue))
    private static let navKeys = MustacheTable.Keys(["label", "href", "current"])
    private static let groupLinkKeys = MustacheTable.Keys(["name", "href"])
    private static let sectionKeys = MustacheTable.Keys(["label", "anchor", "lang", "count", "contacts"])
    private static let todoKeys = MustacheTable.Keys([
        "id", "number", "title", "done", "notesHTML", "due", "priority", "contact", "categories",
        "hasCategories", "list", "subtasks", "hasSubtasks",
    ])
    private static let dueKeys = MustacheTable.Keys(["display", "iso", "overdue"])
    private static let priorityKeys = MustacheTable.Keys(["level", "label"])
    private static let todoContactKeys = MustacheTable.Keys(["name", "lang", "href"])

    /// Makes what every page shares: list rows, navigation, the `site` and `t` tables.
    ///
    /// `keptRows` are the rows of an earlier build of a directory this one was patched from,
    /// with the entries the patch changed: the others' rows are taken as they are. Without
    /// them, `earlierRows` are the rows of an earlier build of a directory planned with the same
    /// config: an entry that shows the same contact under the same name and path as one of its
    /// entries, matched in order, takes that entry's row.
    init(
        directory: Directory, today: PartialDate, lastUpdated: PartialDate? = nil, search: SearchIndex? = nil,
        paging: SitePaging? = nil, photos: SitePhotos = SitePhotos(),
        keptRows: (rows: ChunkedArray<RowData>, changedEntries: [Int])? = nil,
        earlierRows: (rows: ChunkedArray<RowData>, directory: Directory)? = nil
    ) {
        self.directory = directory
        self.photos = photos
        self.today = today
        self.lastUpdated = lastUpdated
        self.search = search
        self.paging = paging ?? SitePaging(directory, today: today)
        let config = directory.config
        strings = InterfaceStrings(localeIdentifier: config.locale)
        phones = PhoneFormatter(defaultRegion: config.effectivePhoneRegion)
        contactNotes = MarkdownRenderer(allowsRawHTML: config.unsafeHTML, topHeadingLevel: 3)
        pageNotes = MarkdownRenderer(allowsRawHTML: config.unsafeHTML, topHeadingLevel: 2)
        // Each todo's list read in place, until one differs from the first: mapping the todos
        // copied every one of them, on every save (1.3 ms of 1,000 todos).
        let todos = directory.todos
        showsTodoLists = todos.indices.contains { todos[$0].todo.list != todos[0].todo.list }
        let languageTag = strings.language.languageTag
        var updated = MustacheValue.bool(false)
        if let lastUpdated {
            let (display, iso) = (strings.date(lastUpdated), Self.htmlDate(lastUpdated))
            updated = .table(
                MustacheTable(keys: Self.lastUpdatedKeys) { field in
                    [field("display", .string(display)), field("iso", .string(iso))]
                })
        }
        site = MustacheTable(keys: Self.siteKeys) { field in
            [
                field("title", .string(config.title)),
                field("lang", .string(languageTag)),
                field("noindex", .bool(config.noindex)),
                field("contactCount", .int(directory.entries.count)),
                field("groupCount", .int(directory.groups.count)),
                field("todoCount", .int(directory.todos.count)),
                field("lastUpdated", updated),
            ]
        }
        // A local: the closure below cannot capture `self` before `init` has set every property.
        let strings = strings
        interface = MustacheTable(
            keys: Self.interfaceKeys, values: InterfaceKey.allCases.map { .string(strings[$0]) })
        contactNav = navigation(kind: "contact", root: "../")
        contactGroupLinks = directory.groups.map { entry in
            MustacheTable(keys: Self.groupLinkKeys) { field in
                [
                    field("name", .string(entry.group.name)),
                    field("href", .string("../groups/\(entry.slug).html")),
                ]
            }
        }
        let builder = self
        let fields = RowFields(config)
        if let keptRows, keptRows.rows.count == directory.entries.count {
            var rows = keptRows.rows
            for index in keptRows.changedEntries { rows[index] = builder.rowData(at: index, fields: fields) }
            self.rows = rows
        } else if let earlierRows, let match = Self.match(directory, earlierRows.directory) {
            // A save that moved a contact (a name changed): the entries between its old place and
            // its new one are a place off, and their rows were made again (0.1 s at 100,000).
            var rows = ChunkedArray<RowData>()
            for index in directory.entries.indices {
                let earlier = match.places[index].map { earlierRows.rows[$0] }
                rows.append(earlier ?? builder.rowData(at: index, fields: fields))
            }
            self.rows = rows
        } else {
            rows = ChunkedArray(
                ParallelWork.map(directory.entries.count) { builder.rowData(at: $0, fields: fields) })
        }
    }

    /// The keys every page has: `site`, `t` (interface strings), `root`, `nav`, `page`.
    func common(kind: String, title: String, root: String) -> [String: Any] {
        [
            "site": site, "t": interface, "root": root, "nav": navigation(kind: kind, root: root),
            "page": PageInfo(kind: kind).table(title: title),
        ]
    }

    /// The `nav` links of a page of `kind`, the one to the page itself marked `current`; none to
    /// a page the config's hidden fields leave out (`SiteConfig.publishesGroups`,
    /// `publishesBirthdays`).
    private func navigation(kind: String, root: String) -> [MustacheTable] {
        var links: [(String, String, InterfaceKey)] = [("index", "index.html", .contacts)]
        if directory.config.publishesGroups { links.append(("groups", "groups.html", .groups)) }
        links.append(("todos", "todos.html", .todos))
        if directory.config.publishesBirthdays { links.append(("birthdays", "birthdays.html", .birthdays)) }
        return links.map { name, href, key in
            MustacheTable(keys: Self.navKeys) { field in
                [
                    field("label", .string(strings[key])),
                    field("href", .string(root + href)),
                    field("current", .bool(name == kind)),
                ]
            }
        }
    }

    /// The entries of `directory` matched in order to those of `earlier`, planned with the same
    /// config, that show the very same contact under the same name and path (their rows are the
    /// same); nil when the config differs or many entries are left without a match.
    private static func match(_ directory: Directory, _ earlier: Directory) -> OrderedMatch? {
        guard directory.config == earlier.config else { return nil }
        let (entries, old) = (directory.entries, earlier.entries)
        return OrderedMatch(count: entries.count, earlierCount: old.count) { index, place in
            entries[index].contact.isIdentical(to: old[place].contact)
                && entries[index].slug == old[place].slug
                && entries[index].displayName.hasSameBytes(as: old[place].displayName)
        }
    }

    /// The context of `index.html`: every section of contacts, and the search box.
    func indexPage() -> MustacheTable {
        var context = common(kind: "index", title: strings[.contacts], root: "")
        if paging.index.isPaged {
            // The sections with their counts, each linking to its pages; no contact rows.
            context["sections"] = [MustacheTable]()
            context["paging"] = pagedList(directory.sections, paging.index, folder: "sections/")
        } else {
            context["sections"] = sections(directory.sections, root: "")
            context["paging"] = false
        }
        context["count"] = directory.entries.count
        context["countText"] = strings.contactCount(directory.entries.count)
        context["empty"] = directory.entries.isEmpty
        context["search"] = searchBox(root: "")
        return MustacheTable(context)
    }

    /// The context of `groups.html`: every group with its member count.
    func groupsPage() -> MustacheTable {
        var context = common(kind: "groups", title: strings[.groups], root: "")
        context["groups"] = directory.groups.map { entry -> [String: Any] in
            [
                "id": entry.group.id,
                "name": entry.group.name,
                "href": "groups/\(entry.slug).html",
                "count": entry.memberCount,
                "countText": strings.memberCount(entry.memberCount),
                "notesHTML": pageNotes.html(entry.group.notes),
            ]
        }
        context["count"] = directory.groups.count
        context["empty"] = directory.groups.isEmpty
        return MustacheTable(context)
    }

    /// The context of the page of group `index`: the group and its members' sections.
    func groupPage(_ index: Int) -> MustacheTable {
        let entry = directory.groups[index]
        var context = common(kind: "group", title: entry.group.name, root: "../")
        context["group"] = [
            "id": entry.group.id,
            "name": entry.group.name,
            "count": entry.memberCount,
            "countText": strings.memberCount(entry.memberCount),
            "notesHTML": pageNotes.html(entry.group.notes),
            // Its members' vCards, beside the page; not linked for a group without members.
            "vcard": entry.memberCount == 0 ? false : entry.slug + ".vcf",
        ] as [String: Any]
        let paged = paging.groups[index]
        if paged.isPaged {
            context["sections"] = [MustacheTable]()
            context["paging"] = pagedList(entry.sections, paged, folder: entry.slug + "/", ofGroup: true)
        } else {
            context["sections"] = sections(entry.sections, root: "../")
            context["paging"] = false
        }
        context["empty"] = entry.memberCount == 0
        // A handful of people read best as one list: a heading per letter would outnumber them.
        context["flat"] = entry.memberCount <= Self.flatListLimit
        return MustacheTable(context)
    }

    /// The context of todo page `number` (0 is `todos.html`): its top-level todos, each with its
    /// subtasks, the counts of all of them, and the links to the other pages when there are several.
    func todosPage(_ number: Int = 0) -> MustacheTable {
        var context = common(kind: "todos", title: strings[.todos], root: "")
        let shown = paging.todos.pages[number]
        context["todos"] = shown.filter { directory.todos[$0].parent == nil }.map(todoView(at:))
        context["pager"] = todoPager(number)
        let done = directory.todos.filter(\.todo.done).count
        context["openCount"] = String(directory.todos.count - done)
        context["doneCount"] = String(done)
        context["empty"] = directory.todos.isEmpty
        return MustacheTable(context)
    }

    /// The context of `404.html`.
    func notFoundPage() -> MustacheTable {
        // A server shows this page for a missing URL at any depth, where links relative to the
        // page would break; with `baseURL` configured its links are absolute instead.
        let root = directory.config.baseURL ?? ""
        var context = common(kind: "notFound", title: strings[.pageNotFound], root: root)
        // The search box, so that a person who followed a stale link can look the contact up.
        context["search"] = searchBox(root: root)
        return MustacheTable(context)
    }

    /// The most members a group page lists as one list, without a heading per letter.
    static let flatListLimit = 12

    /// Sections of contact rows, as the index and the group pages show them.
    func sections(_ sections: [SectionGroup<Int>], root: String) -> [MustacheTable] {
        sections.map { section in
            MustacheTable(keys: Self.sectionKeys) { field in
                [
                    field("label", .string(section.section.label)),
                    field("anchor", .string(section.section.anchor)),
                    field("lang", .string(section.section.script.headingLanguage ?? "")),
                    field("count", .int(section.items.count)),
                    field(
                        "contacts",
                        .tables(section.items.map { ContactRow(data: rows[$0], root: root).table })),
                ]
            }
        }
    }

    /// A todo with its subtasks. Every key is set, if only to false, because a subtask's section
    /// would otherwise find its parent's value for a key it lacks. Tables, not dictionaries: a
    /// dictionary's keys are hashed again for every todo, and its values classified at each lookup.
    private func todoView(at index: Int) -> MustacheTable {
        let entry = directory.todos[index]
        let todo = entry.todo
        let subtasks = entry.subtasks.map(todoView(at:))
        var due = MustacheValue.bool(false)
        if let date = todo.due {
            var display = strings.date(date.date)
            // `description` writes a date without a year as `--03-05`; others as `htmlDate` does.
            var iso = date.date.year == nil ? date.date.description : Self.htmlDate(date.date)
            if let hour = date.hour, let minute = date.minute {
                let time = "\(hour < 10 ? "0" : "")\(hour):\(minute < 10 ? "0" : "")\(minute)"
                display += ", " + time
                iso += "T" + time
            }
            due = .table(
                MustacheTable(keys: Self.dueKeys) { field in
                    [
                        field("display", .string(display)),
                        field("iso", .string(iso)),
                        field("overdue", .bool(!todo.done && date.date < today)),
                    ]
                })
        }
        var priority = MustacheValue.bool(false)
        if let level = todo.priority {
            let key: InterfaceKey = switch level {
            case .high: .priorityHigh
            case .medium: .priorityMedium
            case .low: .priorityLow
            }
            priority = .table(
                MustacheTable(keys: Self.priorityKeys) { field in
                    [field("level", .string(level.rawValue)), field("label", .string(strings[key]))]
                })
        }
        var contact = MustacheValue.bool(false)
        if let index = entry.contact {
            // The list row has the name, its language and the page's path worked out.
            let row = rows[index]
            contact = .table(
                MustacheTable(keys: Self.todoContactKeys) { field in
                    [
                        field("name", .string(row.name)),
                        field("lang", .string(row.lang)),
                        field("href", .string(row.path)),
                    ]
                })
        }
        return MustacheTable(keys: Self.todoKeys) { field in
            [
                field("id", .string(todo.id)),
                // Position in the list: safe in HTML ids, which a user's id (with spaces) may not be.
                field("number", .int(index + 1)),
                field("title", .string(todo.title)),
                field("done", .bool(todo.done)),
                field("notesHTML", .string(pageNotes.html(todo.notes))),
                field("due", due),
                field("priority", priority),
                field("contact", contact),
                field("categories", .strings(todo.categories)),
                field("hasCategories", .bool(!todo.categories.isEmpty)),
                field("list", .string(showsTodoLists ? todo.list : "")),
                field("subtasks", .tables(subtasks)),
                field("hasSubtasks", .bool(!subtasks.isEmpty)),
            ]
        }
    }
}

extension String {
    /// "index" → "Index"; used for `page.isIndex`-style flags.
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
