import Foundation
import RolodeckCore

/// Makes stable ASCII file names from record ids.
///
/// A slug depends only on its id and on which other ids fold to the same text: the id that is
/// already its own slug keeps it; every other member of a colliding set gets a short hash of its
/// id appended. So adding or removing an unrelated contact never moves another contact's page.
enum Slugger {
    /// The most ASCII characters of a slug's base; a longer base is cut back to a dash within it.
    static let maximumLength = 60

    /// Slugs for every id, in the same order.
    static func slugs(for ids: [String]) -> [String] {
        made(for: ids).slugs
    }

    /// Slugs for every id, in the same order, and the bases they were made from.
    static func made(for ids: [String]) -> Made {
        let bases = ParallelWork.map(ids.count) { base(ids[$0]) }
        return Made(bases: bases, slugs: slugs(for: ids, bases: bases))
    }

    /// Slugs and the bases they were made from, both in the order of their ids.
    struct Made: Sendable {
        /// `base` of each id.
        var bases: [String]
        /// Each id's slug.
        var slugs: [String]
    }

    /// Slugs for every id, in the same order, given `base` of each (`bases`): folding an id is
    /// most of what a slug costs, and a caller that kept the bases of ids it saw before need not
    /// fold them again.
    static func slugs(for ids: [String], bases: [String]) -> [String] {
        precondition(ids.count == bases.count, "one base for each id")
        // Most bases belong to one id; only those shared (or empty) need a hash. Each shared
        // base's ids are listed once a second id has it.
        var owner: [String: Int] = [:]
        owner.reserveCapacity(bases.count)
        var sharing: [String: [Int]] = [:]
        var empty: [Int] = []
        for (index, base) in bases.enumerated() {
            if base.isEmpty {
                empty.append(index)
            } else if let first = owner.updateValue(index, forKey: base) {
                // One hash for the common base that is new; a shared one keeps its first owner.
                owner[base] = first
                sharing[base, default: [first]].append(index)
            }
        }
        // In the order of each set's first id, so that the rare hash that is taken already is
        // lengthened the same way in every run.
        var sets = sharing.values.sorted { $0[0] < $1[0] }
        if !empty.isEmpty { sets.append(empty) }
        var slugs = bases
        var added: Set<String> = []
        for indices in sets {
            let base = bases[indices[0]]
            let keeper = indices.first { ids[$0] == base && !base.isEmpty }
            for index in indices where index != keeper {
                // Lengthen the hash until it is free; a 64-bit FNV-1a hash practically never collides.
                var length = 6
                var candidate: String
                repeat {
                    let hash = String(fnv1a(ids[index]), radix: 16)
                    let suffix = String(hash.prefix(length))
                    candidate = base.isEmpty ? "id-" + suffix : base + "-" + suffix
                    length += 2
                } while (owner[candidate] != nil || added.contains(candidate)) && length <= 16
                added.insert(candidate)
                slugs[index] = candidate
            }
        }
        return slugs
    }

    /// The folded ASCII form of a text: "Jürgen Müller" → "juergen-mueller"; "" when nothing
    /// ASCII is left (a Hangul-only id).
    static func base(_ text: String) -> String {
        if isAlreadySlug(text) { return text }
        var slug = ""
        var pendingDash = false
        for scalar in text.precomposedStringWithCompatibilityMapping.unicodeScalars {
            let folded = fold(scalar)
            for character in folded.unicodeScalars {
                if character.isASCII, character.properties.isAlphabetic || ("0"..."9").contains(character) {
                    if pendingDash, !slug.isEmpty { slug.append("-") }
                    pendingDash = false
                    slug.unicodeScalars.append(contentsOf: String(character).lowercased().unicodeScalars)
                } else {
                    pendingDash = true
                }
            }
        }
        if slug.count > maximumLength {
            let cut = slug.prefix(maximumLength)
            slug = String(cut.lastIndex(of: "-").map { cut[..<$0] } ?? cut)
        }
        return slug
    }

    /// Whether the text is already what `base` would make of it: lowercase ASCII letters and
    /// digits in dash-separated runs (most ids are), so it can be used as is.
    private static func isAlreadySlug(_ text: String) -> Bool {
        // From contiguous bytes when the string has them (native strings do): the UTF-8 view's
        // iterator costs many times as much a byte.
        text.utf8.withContiguousStorageIfAvailable(isSlug) ?? isSlug(Array(text.utf8))
    }

    /// `isAlreadySlug` of the text's bytes.
    private static func isSlug<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard !bytes.isEmpty, bytes.count <= maximumLength, bytes.first != UInt8(ascii: "-"),
              bytes.last != UInt8(ascii: "-") else { return false }
        var previousDash = false
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): previousDash = false
            case UInt8(ascii: "-"):
                if previousDash { return false }
                previousDash = true
            default: return false
            }
        }
        return true
    }

    /// German transliteration first (ü → ue, ß → ss), then accents stripped (é → e).
    private static func fold(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "ä", "Ä": return "ae"
        case "ö", "Ö", "ø", "Ø", "œ", "Œ": return "oe"
        case "ü", "Ü": return "ue"
        case "ß", "ẞ": return "ss"
        case "æ", "Æ": return "ae"
        case "ı": return "i"
        case "đ", "Đ", "ð", "Ð": return "d"
        case "ł", "Ł": return "l"
        case "þ", "Þ": return "th"
        default:
            guard !scalar.isASCII else { return String(scalar) }
            let decomposed = String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
            return String(String.UnicodeScalarView(decomposed.filter(\.isASCII)))
        }
    }

    /// 64-bit FNV-1a over the UTF-8 bytes: stable across runs and machines, unlike `hashValue`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}
