/// A person or an organization in the directory.
///
/// A value like any struct, but its fields live in one shared box until a copy changes: a contact
/// is copied into the planned directory, the search index and the views of every page that
/// shows it, and copying one reference is far cheaper than copying twenty.
public struct Contact: Sendable, Hashable, Identifiable {
    /// The fields themselves. The accessors are inlinable, so the stages that read and write
    /// contacts (every stage) reach the box directly instead of calling into this module; a
    /// `_modify` called across modules allocates its frame on every write.
    @usableFromInline struct Fields: Hashable {
        @usableFromInline var id: String
        @usableFromInline var salutation = ""
        @usableFromInline var givenName = ""
        @usableFromInline var familyName = ""
        @usableFromInline var additionalNames = ""
        @usableFromInline var suffix = ""
        @usableFromInline var nickname = ""
        @usableFromInline var phoneticGivenName = ""
        @usableFromInline var phoneticFamilyName = ""
        @usableFromInline var sortGivenName = ""
        @usableFromInline var sortFamilyName = ""
        @usableFromInline var organization = ""
        @usableFromInline var title = ""
        @usableFromInline var emails: [LabeledValue] = []
        @usableFromInline var phones: [LabeledValue] = []
        @usableFromInline var addresses: [PostalAddress] = []
        @usableFromInline var urls: [LabeledValue] = []
        @usableFromInline var birthday: PartialDate?
        @usableFromInline var geo: GeoCoordinate?
        @usableFromInline var age: Int?
        @usableFromInline var groupIDs: [String] = []
        @usableFromInline var notes = ""
        @usableFromInline var photo: ContactPhoto?
        @usableFromInline var classification: String?

        /// Whether every field is the same, text byte for byte (`String.hasSameBytes`): a name
        /// saved again in another Unicode normal form is `==` as a Swift string, but the pages
        /// and cards written from it are not the same bytes.
        @usableFromInline static func == (lhs: Fields, rhs: Fields) -> Bool {
            lhs.id.hasSameBytes(as: rhs.id) && lhs.salutation.hasSameBytes(as: rhs.salutation)
                && lhs.givenName.hasSameBytes(as: rhs.givenName)
                && lhs.familyName.hasSameBytes(as: rhs.familyName)
                && lhs.additionalNames.hasSameBytes(as: rhs.additionalNames)
                && lhs.suffix.hasSameBytes(as: rhs.suffix) && lhs.nickname.hasSameBytes(as: rhs.nickname)
                && lhs.phoneticGivenName.hasSameBytes(as: rhs.phoneticGivenName)
                && lhs.phoneticFamilyName.hasSameBytes(as: rhs.phoneticFamilyName)
                && lhs.sortGivenName.hasSameBytes(as: rhs.sortGivenName)
                && lhs.sortFamilyName.hasSameBytes(as: rhs.sortFamilyName)
                && lhs.organization.hasSameBytes(as: rhs.organization)
                && lhs.title.hasSameBytes(as: rhs.title) && lhs.emails == rhs.emails
                && lhs.phones == rhs.phones && lhs.addresses == rhs.addresses && lhs.urls == rhs.urls
                && lhs.birthday == rhs.birthday && lhs.geo == rhs.geo && lhs.age == rhs.age
                && lhs.groupIDs.hasSameBytes(as: rhs.groupIDs) && lhs.notes.hasSameBytes(as: rhs.notes)
                && lhs.photo == rhs.photo && lhs.classification.hasSameBytes(as: rhs.classification)
        }
    }

    /// The box the fields live in. Changed only through `fields`, which copies it first unless
    /// this contact is its only owner, so a box shared by two contacts is never written to; hence
    /// the unchecked `Sendable`.
    @usableFromInline final class Box: @unchecked Sendable {
        /// The fields; not checked for exclusive access at run time, so a field read is a plain
        /// load, not a `swift_beginAccess` call. Exclusive access holds statically all the same:
        /// the box is written only inside `Contact.fields`' `_modify`, while its only owner, the
        /// contact, is borrowed mutably, so no read of this box can overlap the write.
        @exclusivity(unchecked) @usableFromInline var fields: Fields

        /// A box holding `fields`.
        @usableFromInline init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// The box this contact's fields live in, shared with its copies until one changes.
    @usableFromInline var box: Box

    /// The fields, for writing: copied into a box of this contact's own first, if it shares one.
    @usableFromInline var fields: Fields {
        @inlinable get { box.fields }
        @inlinable _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// The store's unique id; the page's slug is derived from it.
    @inlinable public var id: String {
        get { box.fields.id }
        _modify { yield &fields.id }
    }
    /// The form of address shown before the name ("Herr", "Frau", "Dr."); never a sort key.
    @inlinable public var salutation: String {
        get { box.fields.salutation }
        _modify { yield &fields.salutation }
    }
    /// The given (first) name.
    @inlinable public var givenName: String {
        get { box.fields.givenName }
        _modify { yield &fields.givenName }
    }
    /// The family (last) name.
    @inlinable public var familyName: String {
        get { box.fields.familyName }
        _modify { yield &fields.familyName }
    }
    /// Middle names and other additional names.
    @inlinable public var additionalNames: String {
        get { box.fields.additionalNames }
        _modify { yield &fields.additionalNames }
    }
    /// What follows the name ("Jr.", "M.Sc."); shown after it, never sorted on.
    @inlinable public var suffix: String {
        get { box.fields.suffix }
        _modify { yield &fields.suffix }
    }
    /// A nickname.
    @inlinable public var nickname: String {
        get { box.fields.nickname }
        _modify { yield &fields.nickname }
    }
    /// How the given name is pronounced (kana for Japanese names); sorts in place of the given name.
    @inlinable public var phoneticGivenName: String {
        get { box.fields.phoneticGivenName }
        _modify { yield &fields.phoneticGivenName }
    }
    /// How the family name is pronounced; sorts in place of the family name.
    @inlinable public var phoneticFamilyName: String {
        get { box.fields.phoneticFamilyName }
        _modify { yield &fields.phoneticFamilyName }
    }
    /// What the given name sorts as when no phonetic form is given (vCard `SORT-AS`); not shown.
    @inlinable public var sortGivenName: String {
        get { box.fields.sortGivenName }
        _modify { yield &fields.sortGivenName }
    }
    /// What the family name sorts as when no phonetic form is given ("Gogh" for "van Gogh",
    /// from vCard `SORT-AS` or `SORT-STRING`); not shown.
    @inlinable public var sortFamilyName: String {
        get { box.fields.sortFamilyName }
        _modify { yield &fields.sortFamilyName }
    }
    /// The company or organization.
    @inlinable public var organization: String {
        get { box.fields.organization }
        _modify { yield &fields.organization }
    }
    /// The job title.
    @inlinable public var title: String {
        get { box.fields.title }
        _modify { yield &fields.title }
    }
    /// Email addresses, each with a label.
    @inlinable public var emails: [LabeledValue] {
        get { box.fields.emails }
        _modify { yield &fields.emails }
    }
    /// Phone numbers as the user wrote them, each with a label.
    @inlinable public var phones: [LabeledValue] {
        get { box.fields.phones }
        _modify { yield &fields.phones }
    }
    /// Postal addresses.
    @inlinable public var addresses: [PostalAddress] {
        get { box.fields.addresses }
        _modify { yield &fields.addresses }
    }
    /// Web addresses, each with a label.
    @inlinable public var urls: [LabeledValue] {
        get { box.fields.urls }
        _modify { yield &fields.urls }
    }
    /// The birthday; the year may be unknown.
    @inlinable public var birthday: PartialDate? {
        get { box.fields.birthday }
        _modify { yield &fields.birthday }
    }
    /// Where the contact is, when a card gives coordinates (vCard `GEO`).
    @inlinable public var geo: GeoCoordinate? {
        get { box.fields.geo }
        _modify { yield &fields.geo }
    }
    /// The age as the store gives it, for a contact whose birthday has no year to compute it
    /// from (or who has no birthday); shown as given, since nothing says when it was right.
    @inlinable public var age: Int? {
        get { box.fields.age }
        _modify { yield &fields.age }
    }
    /// Ids of the groups the contact belongs to, in the order written.
    @inlinable public var groupIDs: [String] {
        get { box.fields.groupIDs }
        _modify { yield &fields.groupIDs }
    }
    /// Notes in Markdown.
    @inlinable public var notes: String {
        get { box.fields.notes }
        _modify { yield &fields.notes }
    }

    /// The photo, when the store gives one that can be shown.
    @inlinable public var photo: ContactPhoto? {
        get { box.fields.photo }
        _modify { yield &fields.photo }
    }

    /// The access classification its card gives (vCard `CLASS`), in capitals; nil when it
    /// gives none. `AccessClass.isPrivate` says whether the site leaves the contact out.
    @inlinable public var classification: String? {
        get { box.fields.classification }
        _modify { yield &fields.classification }
    }

    /// Creates a contact with an id and nothing else.
    public init(id: String) {
        box = Box(Fields(id: id))
    }

    /// Whether two contacts have the same fields, text byte for byte; copies that share a box
    /// are equal at once.
    public static func == (lhs: Contact, rhs: Contact) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    /// Whether this is a copy of `other` that neither has changed since: they share their
    /// fields' box. Cheaper than `==`, which reads the fields of contacts that differ.
    @inlinable public func isIdentical(to other: Contact) -> Bool {
        box === other.box
    }

    /// Hashes the fields, as `==` compares them.
    public func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }

    /// Whether the contact has anything to be called by: a name, a nickname or an organization.
    public var hasName: Bool {
        !givenName.isBlank || !familyName.isBlank || !nickname.isBlank || !organization.isBlank
    }

    /// Whether the contact has a given, family or nickname of its own.
    public var hasPersonalName: Bool {
        !givenName.isBlank || !familyName.isBlank || !nickname.isBlank
    }

    /// Whether the card stands for an organization rather than a person.
    public var isOrganizationOnly: Bool {
        givenName.isBlank && familyName.isBlank && !organization.isBlank
    }
}

/// A value with a label, such as a phone number labelled "mobile".
public struct LabeledValue: Sendable, Hashable {
    /// The label as written: a known kind (home, work, mobile, fax, …) or the user's own word.
    public var label: String
    /// The value as written.
    public var value: String

    /// Creates a labelled value.
    public init(label: String, value: String) {
        self.label = label
        self.value = value
    }

    /// Whether label and value have the same bytes (`String.hasSameBytes`).
    public static func == (lhs: LabeledValue, rhs: LabeledValue) -> Bool {
        lhs.label.hasSameBytes(as: rhs.label) && lhs.value.hasSameBytes(as: rhs.value)
    }

    /// The inner text of Apple's "_$!<Label>!$_" wrapper, or nil when `rawLabel` is not wrapped.
    public static func innerAppleLabel(_ rawLabel: String) -> String? {
        let trimmed = rawLabel.trimmingWhitespace
        guard trimmed.hasPrefix("_$!<"), trimmed.hasSuffix(">!$_"), trimmed.count > 8 else { return nil }
        return String(trimmed.dropFirst(4).dropLast(4))
    }
}

/// A postal address.
public struct PostalAddress: Sendable, Hashable {
    /// The label: home, work or the user's own.
    public var label = ""
    /// Street and number, possibly several lines.
    public var street = ""
    /// The postal code (ZIP).
    public var postalCode = ""
    /// The city.
    public var city = ""
    /// State, province or region.
    public var region = ""
    /// The country.
    public var country = ""

    /// Creates an address.
    public init(label: String = "", street: String = "", postalCode: String = "", city: String = "",
                region: String = "", country: String = "") {
        self.label = label
        self.street = street
        self.postalCode = postalCode
        self.city = city
        self.region = region
        self.country = country
    }

    /// Whether every part has the same bytes (`String.hasSameBytes`).
    public static func == (lhs: PostalAddress, rhs: PostalAddress) -> Bool {
        lhs.label.hasSameBytes(as: rhs.label) && lhs.street.hasSameBytes(as: rhs.street)
            && lhs.postalCode.hasSameBytes(as: rhs.postalCode) && lhs.city.hasSameBytes(as: rhs.city)
            && lhs.region.hasSameBytes(as: rhs.region) && lhs.country.hasSameBytes(as: rhs.country)
    }

    /// Whether every part is empty.
    public var isEmpty: Bool {
        // Not an array of the parts: every decoded address asks, and the array is an allocation.
        street.isBlank && postalCode.isBlank && city.isBlank && region.isBlank && country.isBlank
    }
}
