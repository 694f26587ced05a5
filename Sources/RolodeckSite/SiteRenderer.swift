import Mustache
import Synchronization
import RolodeckPlan
import RolodeckCore
import RolodeckSearch

/// Renders a planned directory into the site's files: one page per contact and per group, the
/// index, the group list, the todo list, the 404 page, the search index and the theme's static
/// files.
///
/// Every link is relative and ends in `.html`, so the output works from `file://` and from any
/// sub-path of a server. Contact and group pages are rendered on every core at once, each
/// handed to `emit` as soon as it is done, so memory does not grow with the number of pages.
/// The search index is built on a thread of its own meanwhile: only its own files wait for it
/// (the pages name its root, not its version).
public struct SiteRenderer: Sendable {
    /// The planned directory.
    let directory: Directory
    /// The compiled theme.
    let theme: Theme
    /// The date ages and overdue todos are computed for.
    let today: PartialDate
    /// The day the store last changed, shown in every page's footer and stamped on the
    /// calendars; nil leaves the footer's date out and stamps `today`.
    let lastUpdated: PartialDate?
    /// The search index, written under `search/`; reading its files waits until it is built.
    public let search: SearchIndex
    /// Builds every page's context.
    let views: ViewBuilder
    /// How the index, the group pages and the todos are split into pages.
    public let paging: SitePaging
    /// The files of the photos the directory's contacts show, each once, in digest order.
    let photoFiles: [SitePhotos.Files]
    /// Whether the site writes any photo's files.
    public var writesPhotos: Bool { !photoFiles.isEmpty }
    /// How many entries show each photo, by digest.
    let photoCounts: [String: Int]
    /// Every entry's card without its photo, made once when a file of cards needs them.
    let cards = EntryCards()
    /// The cards of the last rebuild, reused where a contact's card is the same; nil in a
    /// whole build.
    let cardCache: VCardCache?
    /// This renderer's place among those using `cardCache` (`VCardCache.ticket`).
    let cardTicket: Int
    /// The birthday calendar's events of the last rebuild, reused where an event is the same;
    /// nil in a whole build.
    let birthdayEventCache: BirthdayEventCache?
    /// This renderer's place among those using `birthdayEventCache` (`BirthdayEventCache.ticket`).
    let birthdayTicket: Int
    /// `birthdays.ics` as parts, once made (`birthdaysCalendarParts`), and whether it differs
    /// from the last one the cache kept.
    let birthdayCalendar = MadeCalendar()

    /// What the last save rendered, for a directory patched from its directory
    /// (`Directory.patching`): its search index is patched and its list rows taken for the
    /// entries the patch left alone.
    public struct Base: Sendable {
        /// What the last save rendered.
        let snapshot: SiteSnapshot
        /// The entries the patch changed, ascending.
        let changedEntries: [Int]

        /// A base of `snapshot`, for a directory patched from its directory with
        /// `changedEntries` changed.
        public init(snapshot: SiteSnapshot, changedEntries: [Int]) {
            self.snapshot = snapshot
            self.changedEntries = changedEntries
        }

        /// The base's paging, when it is `directory`'s (patched from the base's): the lists are
        /// the same (a patch keeps every section, group and todo), and so are the config, the
        /// day and every birthday. Nil when the lists must be paged again.
        func paging(of directory: Directory, today: PartialDate) -> SitePaging? {
            let old = snapshot.directory
            guard snapshot.today == today, old.config == directory.config,
                old.entries.count == directory.entries.count,
                changedEntries.allSatisfy({
                    old.entries[$0].contact.birthday == directory.entries[$0].contact.birthday
                })
            else { return nil }
            return snapshot.paging
        }
    }

    /// Creates a renderer, and starts building the search index, reusing what `searchCache`
    /// and `cardCache` kept of contacts that have not changed, or patching what `base` rendered.
    /// `earlier` is what the last rebuild rendered, when this directory was not patched from
    /// its directory: the list rows of the contacts that show the same are taken from it.
    public init(
        directory: Directory, theme: Theme, today: PartialDate, lastUpdated: PartialDate? = nil,
        searchCache: SearchIndexCache? = nil, base: Base? = nil, cardCache: VCardCache? = nil,
        birthdayEventCache: BirthdayEventCache? = nil, photos: SitePhotos = SitePhotos(),
        earlier: SiteSnapshot? = nil
    ) {
        self.directory = directory
        self.cardCache = cardCache
        cardTicket = cardCache?.ticket() ?? 0
        self.birthdayEventCache = birthdayEventCache
        birthdayTicket = birthdayEventCache?.ticket() ?? 0
        let (photoCounts, samePhotos) = Self.photoCounts(of: directory, base: base)
        self.photoCounts = photoCounts
        photoFiles =
            samePhotos
            ? base?.snapshot.photoFiles ?? [] : photoCounts.keys.sorted().compactMap { photos.files[$0] }
        self.theme = theme
        self.today = today
        self.lastUpdated = lastUpdated
        let listRows = SearchListRows()
        let searchBase =
            base.map {
                SearchIndex.Base(
                    index: $0.snapshot.search, directory: $0.snapshot.directory,
                    changedEntries: $0.changedEntries)
            } ?? earlier.flatMap { Self.searchBase(of: directory, earlier: $0) }
        self.search = SearchIndex.building(
            directory: directory, cache: searchCache, listRows: listRows, base: searchBase)
        let paging =
            base.flatMap { $0.paging(of: directory, today: today) } ?? SitePaging(directory, today: today)
        self.paging = paging
        // Rows follow from the entry, the config and the photos' names: an entry the patch left
        // alone has the row it had (the directory's config is the base's, or it is not patched).
        let keptRows = base.flatMap { base in
            base.snapshot.directory.config == directory.config
                ? (base.snapshot.rows, base.changedEntries) : nil
        }
        self.views = ViewBuilder(
            directory: directory, today: today, lastUpdated: lastUpdated, search: search, paging: paging,
            photos: photos, keptRows: keptRows,
            earlierRows: earlier.map { ($0.rows, $0.directory) })
        listRows.hand(views.rows)
    }

    /// The base of the search index of `directory`, planned anew, in the index of the `earlier`
    /// rebuild: its entries matched in order to the earlier ones that show the very same
    /// contact under the same name and path, in the same groups (their terms and result rows
    /// are the same), so that the index is patched for the few that moved, came or went. Nil
    /// when the config or the groups differ, or many entries are left without a match.
    private static func searchBase(of directory: Directory, earlier: SiteSnapshot) -> SearchIndex.Base? {
        let old = earlier.directory
        guard old.config == directory.config,
            old.groups.elementsEqual(directory.groups, by: { $0.group == $1.group })
        else { return nil }
        let (entries, oldEntries) = (directory.entries, old.entries)
        let match = OrderedMatch(count: entries.count, earlierCount: oldEntries.count) { index, place in
            entries[index].contact.isIdentical(to: oldEntries[place].contact)
                && entries[index].slug == oldEntries[place].slug
                && entries[index].displayName.hasSameBytes(as: oldEntries[place].displayName)
        }
        return match.map { SearchIndex.Base(index: earlier.search, directory: old, places: $0.places) }
    }

    /// How many of `directory`'s entries show each photo, by digest, and whether the photos are
    /// the same as `base`'s. With a base, only the entries the patch changed are looked at: a
    /// save went through all 100,000 (1.5 to 2 ms of it before any page was written).
    private static func photoCounts(of directory: Directory, base: Base?) -> (
        counts: [String: Int], sameAsBase: Bool
    ) {
        guard let base, base.snapshot.directory.entries.count == directory.entries.count else {
            var counts: [String: Int] = [:]
            for index in directory.entries.indices {
                if let digest = directory.entries[index].contact.photo?.digest {
                    counts[digest, default: 0] += 1
                }
            }
            return (counts, false)
        }
        var counts = base.snapshot.photoCounts
        var same = true
        let old = base.snapshot.directory
        for index in base.changedEntries {
            let before = old.entries[index].contact.photo?.digest
            let after = directory.entries[index].contact.photo?.digest
            guard before != after else { continue }
            if let before, let count = counts[before] {
                counts[before] = count > 1 ? count - 1 : nil
                if count == 1 { same = false }
            }
            if let after {
                if counts[after] == nil { same = false }
                counts[after, default: 0] += 1
            }
        }
        return (counts, same)
    }

    /// How many files `render` emits (waits for the search index).
    var pageCount: Int {
        var count = 8 + 2 * directory.entries.count + 2 * directory.groups.count
        count += theme.assets.count + search.files.count + paging.extraPageCount + 2 * photoFiles.count
        if !publishesGroups { count -= 1 }
        // The birthday pages and the calendar.
        if !publishesBirthdays { count -= paging.birthdays.count + 1 }
        return count
    }

    /// Renders everything, handing each file to `emit`, which may be called from several
    /// threads at once; `progress` hears how many files are done (from one thread at a time)
    /// from when the search index is built and the total is known. A file made of many parts
    /// (`contacts.vcf`, every contact's card) goes to `emitParts` as they are, when there is
    /// one, so that it is never whole in memory beside them; else its parts are joined for `emit`.
    public func render(
        progress: (@Sendable (Int, Int) -> Void)? = nil,
        emit: @Sendable (String, [UInt8]) throws -> Void,
        emitParts: (@Sendable (String, [[UInt8]]) throws -> Void)? = nil
    ) throws {
        // Counters, not locks: every page passes here, from every core.
        let done = Atomic(0)
        // The number of files, once known; -1 before.
        let total = Atomic(-1)
        let report = Mutex(progress)
        let failure = Mutex<(any Error)?>(nil)
        let stop = Atomic<Bool>(false)
        @Sendable func finish(_ path: String, _ bytes: [UInt8]) throws {
            try finish(path) { try emit(path, bytes) }
        }
        @Sendable func finish(_ path: String, parts: [[UInt8]]) throws {
            try finish(path) {
                if let emitParts {
                    try emitParts(path, parts)
                } else {
                    try emit(path, Self.joined(parts))
                }
            }
        }
        @Sendable func finish(_ path: String, emitting: () throws -> Void) throws {
            if stop.load(ordering: .relaxed) { throw Stopped() }
            try emitting()
            let count = done.add(1, ordering: .relaxed).newValue
            let total = total.load(ordering: .relaxed)
            guard total >= 0 else { return }
            if count % 256 == 0 || count == total {
                report.withLock { $0?(count, total) }
            }
        }
        @Sendable func fail(_ error: any Error) {
            guard !(error is Stopped) else { return }
            failure.withLock { if $0 == nil { $0 = error } }
            stop.store(true, ordering: .relaxed)
        }
        // The search index's files are emitted by a thread of their own as soon as it is built,
        // the pages meanwhile by this one on every core.
        ParallelWork.alongside {
            do {
                let files = search.files
                total.store(pageCount, ordering: .relaxed)
                for file in files {
                    try finish(file.path, file.bytes)
                }
            } catch {
                fail(error)
            }
        } _: {
            do {
                try renderPagesWithoutSearch(finish, finish)
            } catch {
                fail(error)
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Every page but the search index's files, in `pages` order; a file of many parts goes to
    /// `finishParts`.
    private func renderPagesWithoutSearch(
        _ finish: @Sendable (String, [UInt8]) throws -> Void,
        _ finishParts: @Sendable (String, [[UInt8]]) throws -> Void
    ) throws {
        for path in theme.assets.keys.sorted() {
            try finish(path, theme.assets[path]!)
        }
        if publishesGroups { try finish("groups.html", try page("groups", views.groupsPage())) }
        try finish("todos.html", try page("todos", views.todosPage()))
        for number in paging.todos.pages.indices.dropFirst() {
            try finish(TodoPaging.path(ofPage: number), try page("todos", views.todosPage(number)))
        }
        try finish("404.html", try page("not-found", views.notFoundPage()))
        if publishesBirthdays {
            try finish("birthdays.html", try page("birthdays", views.birthdaysPage()))
            for number in paging.birthdays.indices.dropFirst() {
                let path = SitePaging.birthdaysPath(ofPage: number)
                try finish(path, try page("birthdays", views.birthdaysPage(number)))
            }
            try finish("birthdays.ics", birthdaysCalendar())
        }
        try finish("todos.ics", todosCalendar())
        try ParallelWork.forEach(directory.entries.count) { index in
            // The list row holds the page's path, `contacts/<slug>.html` as `path(of:)` makes it.
            try finish(views.rows[index].path, try page("contact", views.contactPage(index)))
        }
        try ParallelWork.forEach(directory.groups.count, batch: 4) { index in
            try finish(
                "groups/\(directory.groups[index].slug).html", try page("group", views.groupPage(index)))
        }
        let groupSections = paging.groupSectionPages
        try ParallelWork.forEach(groupSections.count, batch: 4) { number in
            let page = groupSections[number]
            try finish(path(of: page), try render(page))
        }
        try renderCards(finish, finishParts)
        for files in photoFiles {
            try finish(files.path, files.bytes)
            try finish(files.thumbnailPath, files.thumbnailBytes)
        }
        try ParallelWork.forEach(paging.index.pages.count, batch: 1) { number in
            try finish(path(of: .section(number)), try page("section", views.sectionPage(number)))
        }
        try finish("index.html", try page("index", views.indexPage()))
    }

    /// Thrown by `emit` calls after another part of `render` failed, to end the rest early.
    private struct Stopped: Error {}

    /// Renders `template` with `context`; a template mistake becomes a diagnostic.
    func page(_ template: String, _ context: MustacheTable) throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8192)
        do {
            try theme.templates.render(template, context, into: &bytes)
        } catch {
            throw DiagnosticError([theme.diagnostic(for: error)])
        }
        return bytes
    }
}
