import Foundation

/// Compares names in the order of the site locale, as a total order.
///
/// Levels, in turn:
/// 1. Foundation's `compare(_:options:range:locale:)` with no options on the
///    NFKC text without leading whitespace/punctuation. With no options
///    Foundation (CoreFoundation + ICU) decides letters first, then accents,
///    then case (lowercase first), and already ignores width (Ａ = A) and
///    hiragana/katakana (か = カ). Options are deliberately not used:
///    `.caseInsensitive` switches CoreFoundation to a character-folding path
///    that is not consistent with ICU (it puts "ßa" after "ssb"). The shorter
///    string is always the receiver: with the longer one first, Foundation on
///    Linux can answer "greater" both ways round (Hangul, Swedish å).
///    Names in a small verified repertoire (ASCII letters, digits, space and
///    `- , . '`, Hangul syllables) use precomputed weights instead of ICU.
/// 2. The Unicode scalars of the NFC form of the original string, so strings
///    that level 1 finds equal ("'Ali"/"Ali", "か"/"カ") still have a fixed order.
/// 3. The Unicode scalars of the original string (NFC vs NFD spellings).
///
/// Two different strings therefore never compare equal.
struct NameCollator: Sendable {
    /// A string prepared once for repeated comparisons.
    struct Key: Sendable {
        /// The string the key was made from.
        let string: String
        /// The normalized text Foundation compares (`NormalizedSortString.text`).
        let text: String
        /// The length of `text` in UTF-16 units, which picks the receiver of Foundation's compare.
        let textLength: Int
        /// The precomputed weights of `text`, when it is in the fast repertoire.
        let fastWeights: [UInt16]?
    }

    /// The locale identifier handed to Foundation (`en` when blank).
    let localeIdentifier: String
    private let locale: Locale
    private let fastKeys: FastCollationKey?

    /// Creates a collator for a locale identifier such as `en`, `sv`, `ko` or `ja`.
    init(localeIdentifier: String) {
        self.init(profile: LocaleProfile(localeIdentifier: localeIdentifier))
    }

    /// Creates a collator for a profile; `allowFastKeys` false compares every name through
    /// Foundation (tests check the two agree).
    init(profile: LocaleProfile, allowFastKeys: Bool = true) {
        localeIdentifier = profile.identifier
        locale = Locale(identifier: profile.identifier)
        fastKeys = allowFastKeys ? FastCollationKey(profile: profile) : nil
    }

    /// Compares two strings; never returns `.orderedSame` for different strings.
    func compare(_ lhs: String, _ rhs: String) -> ComparisonResult {
        compare(key(for: lhs), key(for: rhs))
    }

    /// Prepares a string for repeated comparisons.
    func key(for string: String) -> Key {
        key(for: string, normalized: NormalizedSortString(string))
    }

    /// Prepares a string whose normalized form is already made.
    func key(for string: String, normalized: NormalizedSortString) -> Key {
        Key(string: string, text: normalized.text, textLength: normalized.text.utf16.count,
            fastWeights: fastKeys?.weights(for: normalized.text))
    }

    /// Compares two prepared strings; never `.orderedSame` for different strings.
    func compare(_ lhs: Key, _ rhs: Key) -> ComparisonResult {
        let primary: ComparisonResult
        if let left = lhs.fastWeights, let right = rhs.fastWeights {
            primary = FastCollationKey.compare(left, right)
        } else if lhs.textLength > rhs.textLength {
            // Foundation can answer "greater" both ways round when the receiver
            // is the longer string (seen with Hangul and Swedish å), so the
            // shorter string is always the receiver.
            primary = Self.reversed(rhs.text.compare(lhs.text, options: [], range: nil, locale: locale))
        } else {
            primary = lhs.text.compare(rhs.text, options: [], range: nil, locale: locale)
        }
        if primary != .orderedSame { return primary }
        // Ties are rare, so NFC is computed only here.
        let canonical = Self.compareScalars(lhs.string.precomposedStringWithCanonicalMapping,
                                            rhs.string.precomposedStringWithCanonicalMapping)
        if canonical != .orderedSame { return canonical }
        return Self.compareScalars(lhs.string, rhs.string)
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// Compares by Unicode scalar values (UTF-8 byte order is scalar order).
    static func compareScalars(_ lhs: String, _ rhs: String) -> ComparisonResult {
        let contiguous = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in compareBytes(left, right) }
        }
        if let result = contiguous ?? nil { return result }
        return compareBytes(Array(lhs.utf8), Array(rhs.utf8))
    }

    private static func compareBytes<Bytes: RandomAccessCollection<UInt8>>(
        _ left: Bytes, _ right: Bytes
    ) -> ComparisonResult where Bytes.Index == Int {
        let count = Swift.min(left.count, right.count)
        var index = 0
        while index < count {
            let l = left[left.startIndex + index], r = right[right.startIndex + index]
            if l != r { return l < r ? .orderedAscending : .orderedDescending }
            index += 1
        }
        if left.count == right.count { return .orderedSame }
        return left.count < right.count ? .orderedAscending : .orderedDescending
    }
}
