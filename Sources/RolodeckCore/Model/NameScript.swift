/// What the script of a name tells about it: whether it is written the East Asian way (family
/// name first, no space) and which language a page should tag it with. Read by the store
/// readers, the plan, search and the views alike.
public enum NameScript {
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
        // ASCII text has none of these scripts. Its bytes are read in place, as a native string's
        // UTF-8 is contiguous: the UTF-8 view's iterator costs many times as much a byte.
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
    public static func isEastAsian(_ text: String) -> Bool {
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
