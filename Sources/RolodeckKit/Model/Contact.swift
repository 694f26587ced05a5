/// A person or an organization in the directory.
public struct Contact: Sendable, Hashable, Identifiable {
    /// The store's unique id; the page's slug is derived from it.
    public var id: String
    /// The form of address shown before the name ("Herr", "Frau", "Dr."); never a sort key.
    public var salutation = ""
    /// The given (first) name.
    public var givenName = ""
    /// The family (last) name.
    public var familyName = ""
    /// Middle names and other additional names.
    public var additionalNames = ""
    /// What follows the name ("Jr.", "M.Sc."); shown after it, never sorted on.
    public var suffix = ""
    /// A nickname.
    public var nickname = ""
    /// How the given name is pronounced (kana for Japanese names); sorts in place of the given name.
    public var phoneticGivenName = ""
    /// How the family name is pronounced; sorts in place of the family name.
    public var phoneticFamilyName = ""
    /// What the given name sorts as when no phonetic form is given (vCard `SORT-AS`); not shown.
    public var sortGivenName = ""
    /// What the family name sorts as when no phonetic form is given ("Gogh" for "van Gogh",
    /// from vCard `SORT-AS` or `SORT-STRING`); not shown.
    public var sortFamilyName = ""
    /// The company or organization.
    public var organization = ""
    /// The job title.
    public var title = ""
    /// Email addresses, each with a label.
    public var emails: [LabeledValue] = []
    /// Phone numbers as the user wrote them, each with a label.
    public var phones: [LabeledValue] = []
    /// Postal addresses.
    public var addresses: [PostalAddress] = []
    /// Web addresses, each with a label.
    public var urls: [LabeledValue] = []
    /// The birthday; the year may be unknown.
    public var birthday: PartialDate?
    /// Ids of the groups the contact belongs to, in the order written.
    public var groupIDs: [String] = []
    /// Notes in Markdown.
    public var notes = ""

    /// Creates a contact with an id and nothing else.
    public init(id: String) {
        self.id = id
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

    /// Whether every part is empty.
    public var isEmpty: Bool {
        [street, postalCode, city, region, country].allSatisfy(\.isBlank)
    }
}
