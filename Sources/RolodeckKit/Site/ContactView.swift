import Mustache

/// The `contact` key of a contact page, as a template sees it: worked out once per page, looked
/// up by a `switch` instead of hashing into a dictionary. (The `Any` values are only strings,
/// booleans and lists of `[String: Any]` tables of strings, hence the unchecked `Sendable`.)
///
/// Fields the config hides are nil and answer nothing, as keys missing from a dictionary do, so
/// a template's lookup goes on into the enclosing contexts.
struct ContactView: MustacheBoxable, @unchecked Sendable {
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
    var phones: [[String: Any]] = []
    var emails: [[String: Any]] = []
    var addresses: [[String: Any]] = []
    var urls: [[String: Any]] = []
    var birthday: [String: Any]?
    var groups: [[String: Any]]?
    var notesHTML: String?

    /// Every key a template can ask for (docs/templates.md lists them).
    static let keys = [
        "id", "name", "lang", "givenName", "familyName", "additionalNames", "suffix", "isOrganization",
        "monogram", "phoneticName", "salutation", "nickname", "organization", "title", "phones", "hasPhones",
        "emails", "hasEmails", "addresses", "hasAddresses", "urls", "hasURLs", "birthday", "groups",
        "hasGroups", "notesHTML",
    ]

    /// Bit n is set when some key has n UTF-8 bytes.
    private static let keyLengths: UInt64 = keys.reduce(0) { $0 | 1 << $1.utf8.count }

    func mustacheValue(forKey key: String) -> Any? {
        // Most lookups that reach a contact are for `t.…`, which the page has, and a switch over
        // strings compares against every case before it gives up; the length rules most out.
        let length = key.utf8.count
        guard length < 64, Self.keyLengths & 1 << length != 0 else { return nil }
        switch key {
        case "id": return id
        case "name": return name
        case "lang": return lang
        case "givenName": return givenName
        case "familyName": return familyName
        case "additionalNames": return additionalNames
        case "suffix": return suffix
        case "isOrganization": return isOrganization
        case "monogram": return monogram
        case "phoneticName": return phoneticName
        case "salutation": return salutation
        case "nickname": return nickname
        case "organization": return organization
        case "title": return title
        case "phones": return phones
        case "hasPhones": return !phones.isEmpty
        case "emails": return emails
        case "hasEmails": return !emails.isEmpty
        case "addresses": return addresses
        case "hasAddresses": return !addresses.isEmpty
        case "urls": return urls
        case "hasURLs": return !urls.isEmpty
        case "birthday": return birthday
        case "groups": return groups
        case "hasGroups": return groups.map { !$0.isEmpty }
        case "notesHTML": return notesHTML
        default: return nil
        }
    }
}
