import Mustache

/// The `page` key every page receives: its kind, its title and the flag for its kind
/// (`page.isContact`); the flag's name is made once per kind, not once per page.
struct PageInfo: MustacheBoxable, Sendable {
    /// `index`, `contact`, `groups`, `group`, `todos` or `notFound`.
    let kind: String
    /// The page's title.
    let title: String
    /// `is` and the kind capitalized: `isContact`.
    let flag: String

    /// The keys of a page of `kind`.
    static func keys(kind: String) -> [String] {
        ["kind", "title", flag(kind: kind)]
    }

    /// The flag's key for pages of `kind`.
    static func flag(kind: String) -> String {
        "is\(kind.capitalizedFirst)"
    }

    func mustacheValue(forKey key: String) -> Any? {
        switch key {
        case "kind": return kind
        case "title": return title
        case flag: return true
        default: return nil
        }
    }
}
