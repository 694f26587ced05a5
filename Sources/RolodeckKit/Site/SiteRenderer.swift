/// Renders a planned directory into the site's files: one page per contact and per group, the
/// index, the group list, the todo list, the 404 page and the theme's static files.
///
/// Every link is relative and ends in `.html`, so the output works from `file://` and from any
/// sub-path of a server.
public struct SiteRenderer {
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

    /// Every output path, in the order `render` emits them.
    public var pageCount: Int {
        4 + directory.entries.count + directory.groups.count + theme.assets.count + search.files.count
    }

    /// Renders everything, handing each file to `emit`.
    public func render(progress: ((Int, Int) -> Void)? = nil, emit: (String, [UInt8]) throws -> Void) throws {
        let total = pageCount
        var done = 0
        func finish(_ path: String, _ bytes: [UInt8]) throws {
            try emit(path, bytes)
            done += 1
            if done % 256 == 0 || done == total { progress?(done, total) }
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
        for index in directory.entries.indices {
            try finish("contacts/\(directory.entries[index].slug).html", try page("contact", views.contactPage(index)))
        }
        for index in directory.groups.indices {
            try finish("groups/\(directory.groups[index].slug).html", try page("group", views.groupPage(index)))
        }
    }

    private func page(_ template: String, _ context: [String: Any]) throws -> [UInt8] {
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
