import Foundation

/// Weight keys that reproduce Foundation's locale order for a small
/// repertoire, so most names sort without calling into ICU: ASCII letters and
/// digits, space, `-` `,` `.` `'`, and precomposed Hangul syllables. (`’`
/// is left to Foundation: it ties with `'` on the first level.)
///
/// With no options Foundation decides letters first (space and punctuation
/// are not ignorable and sort before digits, digits before letters), then
/// accents, then case with lowercase first. Hangul syllables sort in code
/// point order (ICU compares their jamo L < V < T), before Latin in `ko` and
/// after it elsewhere. For this repertoire that is: one primary weight per
/// character, then the case of each character. The key is the primary
/// weights, a 0 terminator, then one case weight per character, so a plain
/// element-wise comparison gives Foundation's answer. `FastCollationKeyTests`
/// checks this against Foundation on random strings for every enabled language.
struct FastCollationKey: Sendable {
    /// Languages whose collation leaves this repertoire untailored. Others
    /// (e.g. Danish "aa" and upper-case-first, Czech "ch", Turkish "I")
    /// always use Foundation.
    static let enabledLanguages: Set<String> = ["en", "de", "fr", "es", "it", "pt", "nl", "sv", "fi", "ko", "ja"]

    private static let hangulFirst: UInt32 = 0xAC00
    private static let hangulLast: UInt32 = 0xD7A3

    /// Primary weight of each ASCII byte when Latin letters sort before Hangul; 0 = not handled.
    private static let asciiWeights: [UInt16] = {
        var weights = [UInt16](repeating: 0, count: 128)
        for (offset, byte) in " -,.'".utf8.enumerated() { weights[Int(byte)] = UInt16(1 + offset) }
        for digit in 0..<10 { weights[0x30 + digit] = UInt16(10 + digit) }
        for letter in 0..<26 {
            weights[0x41 + letter] = UInt16(20 + letter)
            weights[0x61 + letter] = UInt16(20 + letter)
        }
        return weights
    }()

    private static let latinBase: UInt16 = 20
    private static let lateBlockBase: UInt16 = 100
    private static let koreanLatinBase: UInt16 = 12_000

    /// Whether Hangul sorts before Latin (the `ko` reordering).
    let hangulBeforeLatin: Bool

    /// Creates the key maker for a locale, or nil when fast keys are not safe there.
    init?(profile: LocaleProfile) {
        guard Self.enabledLanguages.contains(profile.language), !profile.hasCollationKeywords else { return nil }
        hangulBeforeLatin = profile.language == "ko"
    }

    /// The key for already-normalized text, or nil when the text falls outside
    /// the repertoire and must be compared by Foundation.
    func weights(for text: String) -> [UInt16]? {
        var primaries: [UInt16] = []
        var cases: [UInt16] = []
        primaries.reserveCapacity(text.utf8.count * 2 + 1)
        var sawLatin = false, sawHangul = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            var weight: UInt16
            if value < 0x80 {
                weight = Self.asciiWeights[Int(value)]
                if weight == 0 { return nil }
                if weight >= Self.latinBase {
                    sawLatin = true
                    if hangulBeforeLatin { weight += Self.koreanLatinBase - Self.latinBase }
                }
            } else if value >= Self.hangulFirst && value <= Self.hangulLast {
                sawHangul = true
                let offset = UInt16(value - Self.hangulFirst)
                weight = (hangulBeforeLatin ? Self.latinBase : Self.lateBlockBase) + offset
            } else {
                return nil
            }
            // In `ko` a letter after a syllable without a final consonant is
            // compared against the other name's final jamo, which per-character
            // weights cannot express; leave such mixed names to Foundation.
            if hangulBeforeLatin && sawLatin && sawHangul { return nil }
            primaries.append(weight)
            cases.append(value >= 0x41 && value <= 0x5A ? 1 : 0)
        }
        primaries.append(0)
        primaries.append(contentsOf: cases)
        return primaries
    }

    /// Three-way element-wise comparison of two keys.
    static func compare(_ lhs: [UInt16], _ rhs: [UInt16]) -> ComparisonResult {
        lhs.withUnsafeBufferPointer { left in
            rhs.withUnsafeBufferPointer { right in
                let count = min(left.count, right.count)
                var index = 0
                while index < count {
                    let l = left[index], r = right[index]
                    if l != r { return l < r ? .orderedAscending : .orderedDescending }
                    index += 1
                }
                if left.count == right.count { return .orderedSame }
                return left.count < right.count ? .orderedAscending : .orderedDescending
            }
        }
    }
}
