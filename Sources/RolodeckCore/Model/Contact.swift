/// A person or an organization in the directory.
///
/// A value like any struct, but its fields live in one shared box until a copy changes: a contact
/// is copied into the planned directory, the search index and the views of every page that
/// shows it, and copying one reference is far cheaper than copying twenty.
package struct Contact: Sendable, Hashable, Identifiable {
    /// The fields themselves.
    private struct Fields: Hashable {
        var id: String
        var salutation = ""
        var givenName = ""
        var familyName = ""
        var additionalNames = ""
        var suffix = ""
        var nickname = ""
        var phoneticGivenName = ""
        var phoneticFamilyName = ""
        var sortGivenName = ""
        var sortFamilyName = ""
        var organization = ""
        var title = ""
        var emails: [LabeledValue] = []
        var phones: [LabeledValue] = []
        var addresses: [PostalAddress] = []
        var urls: [LabeledValue] = []
        var birthday: PartialDate?
        var groupIDs: [String] = []
        var notes = ""
    }

    /// The box the fields live in. Changed only through `fields`, which copies it first unless
    /// this contact is its only owner, so a box shared by two contacts is never written to; hence
    /// the unchecked `Sendable`.
    private final class Box: @unchecked Sendable {
        /// Unchecked at run time: every field read was a `swift_beginAccess` call (about 76
        /// instructions). Exclusive access holds statically all the same: the box is written only
        /// inside `Contact.fields`' `_modify`, while its only owner, the contact, is borrowed
        /// mutably, so no read of this box can overlap the write.
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var box: Box

    /// The fields, for writing: copied into a box of this contact's own first, if it shares one.
    private var fields: Fields {
        get { box.fields }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.fields) }
            yield &box.fields
        }
    }

    /// The store's unique id; the page's slug is derived from it.
    package var id: String {
        get { box.fields.id }
        _modify { yield &fields.id }
    }
    /// The form of address shown before the name ("Herr", "Frau", "Dr."); never a sort key.
    package var salutation: String {
        get { box.fields.salutation }
        _modify { yield &fields.salutation }
    }
    /// The given (first) name.
    package var givenName: String {
        get { box.fields.givenName }
        _modify { yield &fields.givenName }
    }
    /// The family (last) name.
    package var familyName: String {
        get { box.fields.familyName }
        _modify { yield &fields.familyName }
    }
    /// Middle names and other additional names.
    package var additionalNames: String {
        get { box.fields.additionalNames }
        _modify { yield &fields.additionalNames }
    }
    /// What follows the name ("Jr.", "M.Sc."); shown after it, never sorted on.
    package var suffix: String {
        get { box.fields.suffix }
        _modify { yield &fields.suffix }
    }
    /// A nickname.
    package var nickname: String {
        get { box.fields.nickname }
        _modify { yield &fields.nickname }
    }
    /// How the given name is pronounced (kana for Japanese names); sorts in place of the given name.
    package var phoneticGivenName: String {
        get { box.fields.phoneticGivenName }
        _modify { yield &fields.phoneticGivenName }
    }
    /// How the family name is pronounced; sorts in place of the family name.
    package var phoneticFamilyName: String {
        get { box.fields.phoneticFamilyName }
        _modify { yield &fields.phoneticFamilyName }
    }
    /// What the given name sorts as when no phonetic form is given (vCard `SORT-AS`); not shown.
    package var sortGivenName: String {
        get { box.fields.sortGivenName }
        _modify { yield &fields.sortGivenName }
    }
    /// What the family name sorts as when no phonetic form is given ("Gogh" for "van Gogh",
    /// from vCard `SORT-AS` or `SORT-STRING`); not shown.
    package var sortFamilyName: String {
        get { box.fields.sortFamilyName }
        _modify { yield &fields.sortFamilyName }
    }
    /// The company or organization.
    package var organization: String {
        get { box.fields.organization }
        _modify { yield &fields.organization }
    }
    /// The job title.
    package var title: String {
        get { box.fields.title }
        _modify { yield &fields.title }
    }
    /// Email addresses, each with a label.
    package var emails: [LabeledValue] {
        get { box.fields.emails }
        _modify { yield &fields.emails }
    }
    /// Phone numbers as the user wrote them, each with a label.
    package var phones: [LabeledValue] {
        get { box.fields.phones }
        _modify { yield &fields.phones }
    }
    /// Postal addresses.
    package var addresses: [PostalAddress] {
        get { box.fields.addresses }
        _modify { yield &fields.addresses }
    }
    /// Web addresses, each with a label.
    package var urls: [LabeledValue] {
        get { box.fields.urls }
        _modify { yield &fields.urls }
    }
    /// The birthday; the year may be unknown.
    package var birthday: PartialDate? {
        get { box.fields.birthday }
        _modify { yield &fields.birthday }
    }
    /// Ids of the groups the contact belongs to, in the order written.
    package var groupIDs: [String] {
        get { box.fields.groupIDs }
        _modify { yield &fields.groupIDs }
    }
    /// Notes in Markdown.
    package var notes: String {
        get { box.fields.notes }
        _modify { yield &fields.notes }
    }

    /// Creates a contact with an id and nothing else.
    package init(id: String) {
        box = Box(Fields(id: id))
    }

    package static func == (lhs: Contact, rhs: Contact) -> Bool {
        lhs.box === rhs.box || lhs.box.fields == rhs.box.fields
    }

    package func hash(into hasher: inout Hasher) {
        box.fields.hash(into: &hasher)
    }

    /// Whether the contact has anything to be called by: a name, a nickname or an organization.
    package var hasName: Bool {
        !givenName.isBlank || !familyName.isBlank || !nickname.isBlank || !organization.isBlank
    }

    /// Whether the contact has a given, family or nickname of its own.
    package var hasPersonalName: Bool {
        !givenName.isBlank || !familyName.isBlank || !nickname.isBlank
    }

    /// Whether the card stands for an organization rather than a person.
    package var isOrganizationOnly: Bool {
        givenName.isBlank && familyName.isBlank && !organization.isBlank
    }
}

/// A value with a label, such as a phone number labelled "mobile".
package struct LabeledValue: Sendable, Hashable {
    /// The label as written: a known kind (home, work, mobile, fax, …) or the user's own word.
    package var label: String
    /// The value as written.
    package var value: String

    /// Creates a labelled value.
    package init(label: String, value: String) {
        self.label = label
        self.value = value
    }

    /// The inner text of Apple's "_$!<Label>!$_" wrapper, or nil when `rawLabel` is not wrapped.
    package static func innerAppleLabel(_ rawLabel: String) -> String? {
        let trimmed = rawLabel.trimmingWhitespace
        guard trimmed.hasPrefix("_$!<"), trimmed.hasSuffix(">!$_"), trimmed.count > 8 else { return nil }
        return String(trimmed.dropFirst(4).dropLast(4))
    }
}

/// A postal address.
package struct PostalAddress: Sendable, Hashable {
    /// The label: home, work or the user's own.
    package var label = ""
    /// Street and number, possibly several lines.
    package var street = ""
    /// The postal code (ZIP).
    package var postalCode = ""
    /// The city.
    package var city = ""
    /// State, province or region.
    package var region = ""
    /// The country.
    package var country = ""

    /// Creates an address.
    package init(label: String = "", street: String = "", postalCode: String = "", city: String = "",
                region: String = "", country: String = "") {
        self.label = label
        self.street = street
        self.postalCode = postalCode
        self.city = city
        self.region = region
        self.country = country
    }

    /// Whether every part is empty.
    package var isEmpty: Bool {
        // Not an array of the parts: every decoded address asks, and the array is an allocation.
        street.isBlank && postalCode.isBlank && city.isBlank && region.isBlank && country.isBlank
    }
}
