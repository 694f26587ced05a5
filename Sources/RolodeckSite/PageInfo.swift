import Mustache

/// The `page` key every page receives: its kind, its title and the flag for its kind
/// (`page.isContact`). One per kind of page, which hashes the keys once for all its pages.
struct PageInfo: Sendable {
    /// `index`, `contact`, `groups`, `group`, `todos` or `notFound`.
    let kind: String
    /// The flag: `is` and the kind capitalized, `isContact`.
    private let flag: String
    /// `kind`, `title` and the flag, as `fields` writes them.
    let keys: MustacheTable.Keys

    /// The `page` keys of pages of `kind`.
    init(kind: String) {
        let flag = "is\(kind.capitalizedFirst)"
        self.kind = kind
        self.flag = flag
        keys = MustacheTable.Keys.of { Self.fields(kind: kind, flag: flag, title: "", $0) }
    }

    /// The `page` table of one page, titled `title`.
    func table(title: String) -> MustacheTable {
        MustacheTable(keys: keys) { Self.fields(kind: kind, flag: flag, title: title, $0) }
    }

    /// The keys of a page of `kind`, each beside its value.
    @inline(__always)
    private static func fields(kind: String, flag: String, title: String, _ field: TableField)
        -> [MustacheValue]
    {
        [field("kind", .string(kind)), field("title", .string(title)), field(flag, .bool(true))]
    }
}
