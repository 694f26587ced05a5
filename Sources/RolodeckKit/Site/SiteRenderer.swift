import Synchronization

/// Renders a planned directory into the site's files: one page per contact and per group, the
/// index, the group list, the todo list, the 404 page and the theme's static files.
///
/// Every link is relative and ends in `.html`, so the output works from `file://` and from any
/// sub-path of a server. Contact and group pages are rendered on every core at once, each
/// handed to `emit` as soon as it is done, so memory does not grow with the number of pages.
public struct SiteRenderer: Sendable {
    /// The planned directory.
    public let directory: Directory
    /// The compiled theme.
    public let theme: Theme
    /// The date ages and overdue todos are computed for.
    public let today: PartialDate
    /// The search index, written under `search/`.
    public let search: SearchIndex
    let views: ViewBuilder

    /// Creates a renderer.
    public init(directory: Directory, theme: Theme, today: PartialDate) {
        self.directory = directory
        self.theme = theme
        self.today = today
        self.search = SearchIndex(directory: directory)
        self.views = ViewBuilder(directory: directory, today: today, search: search)
    }

    /// How many files `render` emits.
    public var pageCount: Int {
        4 + directory.entries.count + directory.groups.count + theme.assets.count + search.files.count
    }

    /// Renders everything, handing each file to `emit`, which may be called from several
    /// threads at once; `progress` hears how many files are done (from one thread at a time).
    public func render(progress: (@Sendable (Int, Int) -> Void)? = nil,
                       emit: @Sendable (String, [UInt8]) throws -> Void) throws {
        let total = pageCount
        let done = Mutex(0)
        let report = Mutex(progress)
        @Sendable func finish(_ path: String, _ bytes: [UInt8]) throws {
            try emit(path, bytes)
            let count = done.withLock { count in
                count += 1
                return count
            }
            if count % 256 == 0 || count == total {
                report.withLock { $0?(count, total) }
            }
        }
        for path in theme.assets.keys.sorted() {
            try finish(path, theme.assets[path]!)
        }
        for file in search.files {
            try finish(file.path, file.bytes)
        }
        try finish("index.html", try page("index", views.indexPage()))
        try finish("groups.html", try page("groups", views.groupsPage()))
        try finish("todos.html", try page("todos", views.todosPage()))
        try finish("404.html", try page("not-found", views.notFoundPage()))
        try ParallelWork.forEach(directory.entries.count) { index in
            try finish("contacts/\(directory.entries[index].slug).html", try page("contact", views.contactPage(index)))
        }
        try ParallelWork.forEach(directory.groups.count, batch: 4) { index in
            try finish("groups/\(directory.groups[index].slug).html", try page("group", views.groupPage(index)))
        }
    }

    func page(_ template: String, _ context: [String: Any]) throws -> [UInt8] {
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
