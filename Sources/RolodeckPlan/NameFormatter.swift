import RolodeckCore

/// Decides how a contact's name is shown and which text it is sorted by.
struct NameFormatter: Sendable {
    /// The configured display order; nil means each name's own convention.
    var order: SiteConfig.NameOrder?

    /// Creates a formatter.
    init(order: SiteConfig.NameOrder?) {
        self.order = order
    }

    /// The name as shown in lists and headings (without the salutation).
    ///
    /// Korean, Chinese and Japanese names are written family name first with no space (김철수,
    /// 佐藤花子) whatever the setting; other names follow the setting, given name first by
    /// default, "Family, Given" when family first. Without a given or family name the nickname,
    /// then the organization, stands in.
    func displayName(_ contact: Contact) -> String {
        let givenName = contact.givenName.trimmingWhitespace
        let additionalNames = contact.additionalNames.trimmingWhitespace
        let given = additionalNames.isEmpty ? givenName
            : givenName.isEmpty ? additionalNames : givenName + " " + additionalNames
        let family = contact.familyName.trimmingWhitespace
        if given.isEmpty || family.isEmpty {
            let single = given.isEmpty ? family : given
            if !single.isEmpty { return single }
            let nickname = contact.nickname.trimmingWhitespace
            return nickname.isEmpty ? contact.organization.trimmingWhitespace : nickname
        }
        if NameScript.isEastAsian(family) || NameScript.isEastAsian(contact.givenName) {
            return family + contact.givenName.trimmingWhitespace
        }
        switch order ?? .givenFirst {
        case .givenFirst: return given + " " + family
        case .familyFirst: return family + ", " + given
        }
    }

    /// What a contact is filed under: the phonetic form of a name part when given, else its
    /// sort form (vCard `SORT-AS`), never the salutation; a card without a family name files
    /// under its given name, one without any personal name under its nickname or organization.
    func sortKeys(_ contact: Contact, by field: SiteConfig.SortOrder)
        -> (primary: String, secondary: String, id: String) {
        let family = firstNonEmpty(contact.phoneticFamilyName,
                                   firstNonEmpty(contact.sortFamilyName, contact.familyName))
        let given = firstNonEmpty(contact.phoneticGivenName, firstNonEmpty(contact.sortGivenName, contact.givenName))
        let (first, second) = field == .familyName ? (family, given) : (given, family)
        if !first.isEmpty { return (first, second, contact.id) }
        if !second.isEmpty { return (second, "", contact.id) }
        let nickname = contact.nickname.trimmingWhitespace
        if !nickname.isEmpty { return (nickname, contact.organization.trimmingWhitespace, contact.id) }
        return (contact.organization.trimmingWhitespace, "", contact.id)
    }

    private func firstNonEmpty(_ preferred: String, _ fallback: String) -> String {
        let value = preferred.trimmingWhitespace
        return value.isEmpty ? fallback.trimmingWhitespace : value
    }
}
