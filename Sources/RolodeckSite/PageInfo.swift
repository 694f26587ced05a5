import Mustache

/// The `page` key every page receives: its kind, its title and the flag for its kind
/// (`page.isContact`). One per kind of page, which hashes the keys once for all its pages.
struct PageInfo: Sendable {
    /// `index`, `contact`, `groups`, `group`, `todos` or `notFound`.
    let kind: String
    /// `kind`, `title` and the flag: `is` and the kind capitalized, `isContact`.
    let keys: MustacheTable.Keys

    /// The `page` keys of pages of `kind`.
    init(kind: String) {
        self.kind = kind
        keys = MustacheTable.Keys(["kind", "title", "is\(kind.capitalizedFirst)"])
    }

    /// The `page` table of one page, titled `title`.
    func table(title: String) -> MustacheTable {
        MustacheTable(keys: keys, values: [.string(kind), .string(title), .bool(true)])
    }
}
