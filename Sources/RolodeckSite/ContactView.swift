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
    /// The photo: `src` (relative to the page), `width`, `height` and `alt`; nil when the
    /// contact has none (the monogram stands in) or the config hides photos.
    var photo: MustacheTable?
    var phoneticName = ""
    var salutation: String?
    var nickname: String?
    var organization: String?
    var title: String?
    var phones: [MustacheTable] = []
    var emails: [MustacheTable] = []
    var addresses: [MustacheTable] = []
    var urls: [MustacheTable] = []
    /// The card's coordinates, `display` and `href` (`geo:`); nil when it has none or the
    /// config hides addresses.
    var geo: MustacheTable?
    var birthday: MustacheTable?
    /// The age the store gives, for a contact whose page shows no birthday to show it beside.
    var age: String?
    var groups: [MustacheTable]?
    /// The notes' HTML in UTF-8 bytes, as cmark wrote them.
    var notesHTML: [UInt8]?
    /// The contact's vCard, relative to the page (`<slug>.vcf`).
    var vcard = ""
    /// The QR code of its short vCard: `size` (modules, quiet zone included) and `path`.
    var qr: MustacheTable?

    /// Every key a template can ask for, as `fields` writes them.
    static let keys = MustacheTable.Keys.of(ContactView().fields)

    /// The view as the template sees it; fields that are nil are keys the table does not have.
    var table: MustacheTable {
        MustacheTable(keys: Self.keys) { fields($0) }
    }

    /// Every key a template can ask for (docs/templates.md lists them), each beside its value.
    @inline(__always)
    private func fields(_ field: TableField) -> [MustacheValue] {
        let string = MustacheValue.string
        return [
            field("id", .string(id)),
            field("name", .string(name)),
            field("lang", .string(lang)),
            field("givenName", .string(givenName)),
            field("familyName", .string(familyName)),
            field("additionalNames", .string(additionalNames)),
            field("suffix", .string(suffix)),
            field("isOrganization", .bool(isOrganization)),
            field("monogram", .string(monogram)),
            field("photo", photo.map(MustacheValue.table) ?? .absent),
            field("phoneticName", .string(phoneticName)),
            field("salutation", salutation.map(string) ?? .absent),
            field("nickname", nickname.map(string) ?? .absent),
            field("organization", organization.map(string) ?? .absent),
            field("title", title.map(string) ?? .absent),
            field("phones", .tables(phones)),
            field("hasPhones", .bool(!phones.isEmpty)),
            field("emails", .tables(emails)),
            field("hasEmails", .bool(!emails.isEmpty)),
            field("addresses", .tables(addresses)),
            field("hasAddresses", .bool(!addresses.isEmpty)),
            field("geo", geo.map(MustacheValue.table) ?? .absent),
            field("hasPlaces", .bool(!addresses.isEmpty || geo != nil)),
            field("urls", .tables(urls)),
            field("hasURLs", .bool(!urls.isEmpty)),
            field("birthday", birthday.map(MustacheValue.table) ?? .absent),
            field("age", age.map(string) ?? .absent),
            field("groups", groups.map(MustacheValue.tables) ?? .absent),
            field("hasGroups", groups.map { .bool(!$0.isEmpty) } ?? .absent),
            field("notesHTML", notesHTML.map(MustacheValue.bytes) ?? .absent),
            field("vcard", .string(vcard)),
            field("qr", qr.map(MustacheValue.table) ?? .absent),
        ]
    }
}
