import Mustache

/// The `contact` key of a contact page: worked out once per page, and handed to the template as
/// a table whose keys are hashed once for all pages.
///
/// Fields the config hides are nil and are keys the table does not have (`absent`), as keys
/// missing from a dictionary, so a template's lookup goes on into the enclosing contexts.
struct ContactView {
    var id = ""
    var name = ""
    var lang = ""
    var givenName = ""
    var familyName = ""
    var additionalNames = ""
    var suffix = ""
    var isOrganization = false
    var monogram = ""
    var phoneticName = ""
    var salutation: String?
    var nickname: String?
    var organization: String?
    var title: String?
    var phones: [MustacheTable] = []
    var emails: [MustacheTable] = []
    var addresses: [MustacheTable] = []
    var urls: [MustacheTable] = []
    var birthday: MustacheTable?
    var groups: [MustacheTable]?
    /// The notes' HTML in UTF-8 bytes, as cmark wrote them.
    var notesHTML: [UInt8]?

    /// Every key a template can ask for (docs/templates.md lists them), in `table`'s order.
    static let keys = MustacheTable.Keys([
        "id", "name", "lang", "givenName", "familyName", "additionalNames", "suffix", "isOrganization",
        "monogram", "phoneticName", "salutation", "nickname", "organization", "title", "phones", "hasPhones",
        "emails", "hasEmails", "addresses", "hasAddresses", "urls", "hasURLs", "birthday", "groups",
        "hasGroups", "notesHTML",
    ])

    /// The view as the template sees it; fields that are nil are keys the table does not have.
    var table: MustacheTable {
        let string = MustacheValue.string
        return MustacheTable(keys: Self.keys, values: [
            .string(id), .string(name), .string(lang), .string(givenName), .string(familyName),
            .string(additionalNames), .string(suffix), .bool(isOrganization), .string(monogram),
            .string(phoneticName), salutation.map(string) ?? .absent, nickname.map(string) ?? .absent,
            organization.map(string) ?? .absent, title.map(string) ?? .absent, .tables(phones),
            .bool(!phones.isEmpty), .tables(emails), .bool(!emails.isEmpty), .tables(addresses),
            .bool(!addresses.isEmpty), .tables(urls), .bool(!urls.isEmpty),
            birthday.map(MustacheValue.table) ?? .absent, groups.map(MustacheValue.tables) ?? .absent,
            groups.map { .bool(!$0.isEmpty) } ?? .absent, notesHTML.map(MustacheValue.bytes) ?? .absent,
        ])
    }
}
