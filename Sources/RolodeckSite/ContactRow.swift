import Mustache
import RolodeckSearch
import RolodeckCore

/// What a contact list shows of one contact, worked out once per contact: the index and every
/// group page the contact is in share it. A class, so a row on a list is one reference, not
/// nine fields copied. (The phone and email tables hold only strings, hence the unchecked
/// `Sendable`.)
final class RowData: @unchecked Sendable {
    /// The contact's id.
    let id: String
    /// The display name.
    let name: String
    /// The name's language tag when it differs from the page's, else "".
    let lang: String
    /// The page's path from the site root, `contacts/<slug>.html`.
    let path: String
    /// The salutation, "" when hidden or empty.
    let salutation: String
    /// The organization, "" when hidden, empty or the contact is one.
    let organization: String
    /// The job title, "" when hidden or empty.
    let title: String
    /// The first phone number's table, when one is shown.
    let phone: MustacheTable?
    /// The first email address's table, when one is shown.
    let email: MustacheTable?
    /// The photo's thumbnail's path from the site root (`photos/<digest>-96.webp`), "" when the
    /// contact has no photo shown.
    let thumbnail: String
    /// The name's first letter, shown in the row's avatar until a photo takes its place.
    let monogram: String
    /// Whether the contact is an organization (its avatar is square, a person's round).
    let isOrganization: Bool

    /// Creates a row's data.
    init(
        id: String, name: String, lang: String, path: String, salutation: String, organization: String,
        title: String, phone: MustacheTable?, email: MustacheTable?, thumbnail: String = "", monogram: String = "",
        isOrganization: Bool = false
    ) {
        self.thumbnail = thumbnail
        self.id = id
        self.name = name
        self.lang = lang
        self.monogram = monogram
        self.isOrganization = isOrganization
        self.path = path
        self.salutation = salutation
        self.organization = organization
        self.title = title
        self.phone = phone
        self.email = email
    }
}

extension RowData: SearchListRow {
    /// The first phone number as the row shows it.
    var firstPhoneDisplay: String? { phone?["display"] as? String }

    /// The thumbnail's name, its path without `photos/` and `-96.webp`.
    var thumbnailName: String {
        guard thumbnail.hasPrefix("photos/"), let dash = thumbnail.lastIndex(of: "-") else { return "" }
        return String(thumbnail[thumbnail.index(thumbnail.startIndex, offsetBy: 7)..<dash])
    }
}

/// Which of a row's fields the config shows, looked up once for all rows.
struct RowFields: Sendable {
    /// Whether salutations are shown.
    let salutation: Bool
    /// Whether organizations are shown.
    let organization: Bool
    /// Whether job titles are shown.
    let title: Bool
    /// Whether phone numbers are shown.
    let phones: Bool
    /// Whether email addresses are shown.
    let emails: Bool

    /// Reads which fields `config` shows.
    init(_ config: SiteConfig) {
        salutation = config.shows(.salutation)
        organization = config.shows(.organization)
        title = config.shows(.title)
        phones = config.shows(.phones)
        emails = config.shows(.emails)
    }
}

/// A contact list row as a template sees it: the shared data, with links made relative to the
/// page the list is on.
struct ContactRow {
    /// What every list showing the contact shares.
    let data: RowData
    /// The way from the list's page back to the site root ("" or "../").
    let root: String

    /// Every key a template can ask a row for, as `fields` writes them.
    static let keys = MustacheTable.Keys.of(
        ContactRow(
            data: RowData(
                id: "", name: "", lang: "", path: "", salutation: "", organization: "", title: "", phone: nil,
                email: nil),
            root: ""
        ).fields)

    /// The row as the template sees it; a contact without a phone or email has no such key.
    var table: MustacheTable {
        MustacheTable(keys: Self.keys) { fields($0) }
    }

    /// Every key a template can ask a row for (docs/templates.md lists them), each beside its value.
    @inline(__always)
    private func fields(_ field: TableField) -> [MustacheValue] {
        [
            field("id", .string(data.id)),
            field("name", .string(data.name)),
            field("lang", .string(data.lang)),
            field("href", .string(root.isEmpty ? data.path : root + data.path)),
            field("salutation", .string(data.salutation)),
            field("organization", .string(data.organization)),
            field("title", .string(data.title)),
            field("phone", data.phone.map(MustacheValue.table) ?? .absent),
            field("email", data.email.map(MustacheValue.table) ?? .absent),
            field("thumbnail", data.thumbnail.isEmpty ? .absent : .table(thumbnailTable)),
            field("monogram", .string(data.monogram)),
            field("isOrganization", .bool(data.isOrganization)),
        ]
    }

    /// The side a row's thumbnail is shown at, in CSS pixels: half the thumbnail's pixels, so it
    /// is sharp on high-density screens.
    static let thumbnailDisplaySize = SitePhotos.thumbnailSize / 2

    /// The row's thumbnail as an `<img>` shows it, its size set so the list does not move as
    /// thumbnails load.
    var thumbnailTable: MustacheTable {
        ViewBuilder.photoTable(
            src: root + data.thumbnail, width: Self.thumbnailDisplaySize, height: Self.thumbnailDisplaySize,
            alt: data.name)
    }
}

extension String {
    /// `first`, `second` and `third` one after another, made at their final size at once, where
    /// interpolation grows the string as it appends (for two parts `+` is as cheap).
    init(joining first: String, _ second: String, _ third: String) {
        var first = first, second = second, third = third
        let count = first.utf8.count + second.utf8.count + third.utf8.count
        self = first.withUTF8 { first in
            second.withUTF8 { second in
                third.withUTF8 { third in
                    String(unsafeUninitializedCapacity: count) { buffer in
                        var end = 0
                        // Each part in turn (not through an array of them, which is allocated).
                        func append(_ part: UnsafeBufferPointer<UInt8>) {
                            guard let bytes = part.baseAddress, let start = buffer.baseAddress else { return }
                            // Unchecked: the capacity is the parts' byte counts added up.
                            (start + end).update(from: bytes, count: part.count)
                            end += part.count
                        }
                        append(first)
                        append(second)
                        append(third)
                        return end
                    }
                }
            }
        }
    }
}
