/// Decides how a contact's name is shown and which text it is sorted by.
public struct NameFormatter: Sendable {
    /// The configured display order; nil means each name's own convention.
    public var order: SiteConfig.NameOrder?

    /// Creates a formatter.
    public init(order: SiteConfig.NameOrder?) {
        self.order = order
    }

    /// The name as shown in lists and headings (without the salutation).
    ///
    /// Korean, Chinese and Japanese names are written family name first with no space (김철수,
    /// 佐藤花子) whatever the setting; other names follow the setting, given name first by
    /// default, "Family, Given" when family first. Without a given or family name the nickname,
    /// then the organization, stands in.
    public func displayName(_ contact: Contact) -> String {
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
        if NameFormatter.isEastAsian(family) || NameFormatter.isEastAsian(contact.givenName) {
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
    public func sortKeys(_ contact: Contact, by field: SiteConfig.SortOrder)
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

    /// The language a contact's name is written in, when its script says so: Hangul is Korean,
    /// kana Japanese; Han characters are Japanese only with a kana reading (they could be
    /// Chinese otherwise); nil for everything else.
    public static func languageTag(of contact: Contact) -> String? {
        // The parts in turn, as if written one after the other, without joining them.
        var hasHan = false
        if let tag = scriptTag(of: contact.familyName, hasHan: &hasHan)
            ?? scriptTag(of: contact.givenName, hasHan: &hasHan)
            ?? scriptTag(of: contact.nickname, hasHan: &hasHan)
            ?? (contact.hasPersonalName ? nil : scriptTag(of: contact.organization, hasHan: &hasHan)) {
            return tag
        }
        guard hasHan else { return nil }
        let reading = contact.phoneticFamilyName + contact.phoneticGivenName
        if reading.unicodeScalars.contains(where: { (0x3040...0x30FF).contains($0.value) }) { return "ja" }
        return nil
    }

    /// "ko" or "ja" at the first Hangul or kana scalar of `text`; notes Han characters before it.
    private static func scriptTag(of text: String, hasHan: inout Bool) -> String? {
        // ASCII text has none of these scripts; its bytes say so from contiguous storage (the
        // UTF-8 view's iterator costs about 25 instructions a byte).
        let isASCII = text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy { $0 < 0x80 } }
        if isASCII ?? text.utf8.allSatisfy({ $0 < 0x80 }) { return nil }
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return "ko"
            case 0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F: return "ja"
            case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F: hasHan = true
            default: continue
            }
        }
        return nil
    }

    /// Whether a name is written in Hangul, kana or Han characters.
    static func isEastAsian(_ text: String) -> Bool {
        guard let scalar = text.unicodeScalars.first(where: { !$0.isWhitespaceWithoutTables }) else {
            return false
        }
        switch scalar.value {
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF,  // Hangul
             0x3040...0x30FF, 0x31F0...0x31FF, 0xFF66...0xFF9F,  // kana
             0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3134F:  // Han
            return true
        default:
            return false
        }
    }
}
