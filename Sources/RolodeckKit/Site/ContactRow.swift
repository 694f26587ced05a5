import Mustache

/// What a contact list shows of one contact, worked out once per contact: the index and every
/// group page the contact is in share it. (The `Any` in the phone and email tables is only ever
/// a `String`, hence the unchecked `Sendable`.)
struct RowData: @unchecked Sendable {
    var id: String
    var name: String
    var lang: String
    /// The page's path from the site root, `contacts/<slug>.html`.
    var path: String
    var salutation: String
    var organization: String
    var title: String
    var phone: [String: Any]?
    var email: [String: Any]?
}

/// A contact list row as a template sees it: the shared data, with links made relative to the
/// page the list is on.
struct ContactRow: MustacheBoxable {
    let data: RowData
    /// The way from the list's page back to the site root ("" or "../").
    let root: String

    /// Every key a template can ask a row for (docs/templates.md lists them).
    static let keys = ["id", "name", "lang", "href", "salutation", "organization", "title", "phone", "email"]

    func mustacheValue(forKey key: String) -> Any? {
        switch key {
        case "id": return data.id
        case "name": return data.name
        case "lang": return data.lang
        case "href": return root + data.path
        case "salutation": return data.salutation
        case "organization": return data.organization
        case "title": return data.title
        case "phone": return data.phone
        case "email": return data.email
        default: return nil
        }
    }
}
