/// The settings in a site's `rolodeck.json`.
public struct SiteConfig: Sendable, Equatable {
    /// The name of the config file in a site folder.
    public static let fileName = "rolodeck.json"

    /// Which name part a contact is filed under.
    public enum SortOrder: String, Sendable, CaseIterable {
        /// File under the family name (then the given name): "Müller, Jürgen".
        case familyName
        /// File under the given name (then the family name).
        case givenName
    }

    /// How a name is displayed.
    public enum NameOrder: String, Sendable, CaseIterable {
        /// "Jürgen Müller".
        case givenFirst
        /// "Müller Jürgen"; Korean and Japanese names read this way and are joined without a space.
        case familyFirst
    }

    /// A contact field a site can leave out of every page.
    public enum Field: String, Sendable, CaseIterable {
        case salutation, nickname, organization, title, emails, phones, addresses, urls, birthday, age,
            groups, notes, photo
    }

    /// Where an address's map link goes; nothing is asked of the provider until it is clicked.
    public enum MapLinks: String, Sendable, CaseIterable {
        /// OpenStreetMap's search.
        case openstreetmap
        /// Google Maps' search.
        case google
        /// Apple Maps.
        case apple
        /// No map links.
        case none
    }

    /// The site's title, shown in the header and the page titles.
    public var title = "Contacts"
    /// The locale: collation, sections, interface language (`en`, `de`, `sv`, `ko`, `ja`, …).
    public var locale = "en"
    /// Which name part contacts are sorted and sectioned by.
    public var sortBy = SortOrder.familyName
    /// How names are displayed; nil picks by script (family first for Korean and Japanese names).
    public var nameOrder: NameOrder?
    /// The country numbers without an international prefix belong to (ISO code such as "KR").
    public var phoneRegion: String?
    /// Whether raw HTML in notes is published as is.
    public var unsafeHTML = false
    /// Whether pages ask search engines not to index them.
    public var noindex = true
    /// The store folder, relative to the site folder.
    public var store = "store"
    /// The output folder, relative to the site folder, unless `--out` says otherwise.
    public var output = "_site"
    /// Where the site is served from (`/contacts/`); only the 404 page uses it, because a
    /// server shows that page at any depth. Every other link stays relative.
    public var baseURL: String?
    /// The time zone due times are shown in (a name of the time zone database, such as
    /// "Europe/Berlin"); nil shows each time in the zone it was written in.
    public var timeZone: String?
    /// Fields left out of every page.
    public var hiddenFields: Set<Field> = []
    /// Ids of contacts left out of the site.
    public var hiddenContacts: Set<String> = []
    /// Where each of `hiddenContacts` is written in the config, so that a message about an id
    /// that names no contact can point at it.
    public var hiddenContactLocations: [String: SourceLocation] = [:]
    /// Whether contacts, groups and todos their app marks private (`CLASS` other than `PUBLIC`,
    /// or `"private": true` in the JSON store) are published; by default they are left out, as
    /// `hiddenContacts` are.
    public var publishPrivate = false
    /// Where addresses link to on a map.
    public var mapLinks = MapLinks.openstreetmap
    /// The most contacts (or todos) one page lists: a longer list is split into a page per
    /// section, and a longer section into numbered pages, so no page grows with the store.
    public var pageSize = SiteConfig.defaultPageSize

    /// `pageSize` when the config does not set it: a thousand rows is a page of about a quarter
    /// of a megabyte, which a phone opens at once and still reads as one list.
    public static let defaultPageSize = 1000

    /// The defaults.
    public init() {}

    /// Whether every setting is the same, text byte for byte (`String.hasSameBytes`): a title
    /// saved again in another Unicode normal form is `==` as a string, but not the pages' bytes.
    public static func == (lhs: SiteConfig, rhs: SiteConfig) -> Bool {
        lhs.title.hasSameBytes(as: rhs.title) && lhs.locale.hasSameBytes(as: rhs.locale)
            && lhs.sortBy == rhs.sortBy && lhs.nameOrder == rhs.nameOrder
            && lhs.phoneRegion.hasSameBytes(as: rhs.phoneRegion) && lhs.unsafeHTML == rhs.unsafeHTML
            && lhs.noindex == rhs.noindex && lhs.store.hasSameBytes(as: rhs.store)
            && lhs.output.hasSameBytes(as: rhs.output) && lhs.baseURL.hasSameBytes(as: rhs.baseURL)
            && lhs.timeZone.hasSameBytes(as: rhs.timeZone) && lhs.hiddenFields == rhs.hiddenFields
            && lhs.hiddenContacts == rhs.hiddenContacts
            && lhs.hiddenContactLocations == rhs.hiddenContactLocations && lhs.mapLinks == rhs.mapLinks
            && lhs.pageSize == rhs.pageSize && lhs.publishPrivate == rhs.publishPrivate
    }

    /// The phone region to use: the configured one, or Korea for a Korean-language site.
    public var effectivePhoneRegion: String? {
        if let phoneRegion { return phoneRegion.isEmpty ? nil : phoneRegion.uppercased() }
        return languageCode == "ko" ? "KR" : nil
    }

    /// The language part of the locale: "de" for "de-AT" or "de_AT".
    var languageCode: String {
        String(locale.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }

    /// Whether a field is shown on pages.
    @inlinable public func shows(_ field: Field) -> Bool { !hiddenFields.contains(field) }
}
