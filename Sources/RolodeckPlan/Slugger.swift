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
        return made(for: ids, bases: bases)
    }

    /// Slugs and the bases they were made from, both in the order of their ids.
    struct Made: Sendable {
        /// `base` of each id.
        var bases: [String]
        /// Each id's slug.
        var slugs: [String]
        /// The positions of the ids whose hashes were lengthened, being taken already (one in
        /// about 350,000 pairs of hashed ids: a few at 100,000 contacts).
        var lengthened: [Int] = []
    }

    /// Slugs for every id, in the same order, given `base` of each (`bases`): folding an id is
    /// most of what a slug costs, and a caller that kept the bases of ids it saw before need not
    /// fold them again. With the bases, and which hashes were lengthened.
    static func made(for ids: [String], bases: [String]) -> Made {
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
        var lengthened: [Int] = []
        var added: Set<String> = []
        for indices in sets {
            let base = bases[indices[0]]
            let keeper = indices.first { ids[$0] == base && !base.isEmpty }
            for index in indices where index != keeper {
                // Lengthen the hash until it is free; a 64-bit FNV-1a hash practically never collides.
                var length = hashLength
                var candidate: String
                repeat {
                    candidate = hashed(ids[index], base: base, length: length)
                    length += 2
                } while (owner[candidate] != nil || added.contains(candidate)) && length <= 16
                if length > hashLength + 2 { lengthened.append(index) }
                added.insert(candidate)
                slugs[index] = candidate
            }
        }
        return Made(bases: bases, slugs: slugs, lengthened: lengthened)
    }

    /// How many hex digits of an id's hash a slug takes first.
    static let hashLength = 6

    /// The slug of an id of a shared (or empty) base, with `length` digits of its hash.
    private static func hashed(_ id: String, base: String, length: Int) -> String {
        let suffix = String(String(fnv1a(id), radix: 16).prefix(length))
        return base.isEmpty ? "id-" + suffix : base + "-" + suffix
    }

    /// The slugs of the ids `made` was made of, with those at the positions `changed` replaced
    /// by new ids (`id(position)` is each position's id now): what a whole run over the new ids
    /// gives, found from the ids of the bases that changed alone. A slug depends on its id, on
    /// how many ids share its base and whether one is the base itself, and on which hashes are
    /// taken already. So nil when a new hash would be taken (equal to a base, to another hash,
    /// or to a shorter hash an id's was lengthened from), or a base or hash that goes was what
    /// lengthened another's: then the caller makes every slug again.
    static func remade(_ made: Made, changed: [(position: Int, id: String)], id: (Int) -> String) -> Made? {
        // The shorter hashes the lengthened ones were made from: something else had each.
        var blocked: [String] = []
        for position in made.lengthened where !changed.contains(where: { $0.position == position }) {
            let base = made.bases[position]
            let chosen = made.slugs[position].count - (base.isEmpty ? 3 : base.count + 1)
            for length in stride(from: hashLength, to: chosen, by: 2) {
                blocked.append(hashed(id(position), base: base, length: length))
            }
        }
        var remade = made
        var affected: [String] = []
        var newBases: [String] = []
        for (position, new) in changed {
            let base = base(new)
            for shared in [made.bases[position], base] where !shared.isEmpty && !affected.contains(shared) {
                affected.append(shared)
            }
            if !base.isEmpty { newBases.append(base) }
            remade.bases[position] = base
        }
        // The positions whose slugs are made again: the changed ones, and every id of a base
        // they had or have (an empty base's ids are hashed each on its own). Every base is keyed
        // by a hash of its bytes, so that the few looked for are found among 100,000 without
        // comparing each with every one.
        var renewed: [Int] = changed.map(\.position)
        var isRenewed = Set(renewed)
        var affectedByKey: [UInt64: [Int]] = [:]
        for (number, base) in affected.enumerated() { affectedByKey[fnv1a(base), default: []].append(number) }
        var members = [[Int]](repeating: [], count: affected.count)
        var baseKeys = [UInt64](repeating: 0, count: remade.bases.count)
        for (position, base) in remade.bases.enumerated() where !base.isEmpty {
            let key = fnv1a(base)
            baseKeys[position] = key
            if let sets = affectedByKey[key],
                let set = sets.first(where: { affected[$0].hasSameBytes(as: base) })
            {
                members[set].append(position)
            }
        }
        for (number, positions) in members.enumerated() {
            let base = affected[number]
            for position in positions {
                let own = id(position)
                remade.slugs[position] =
                    positions.count == 1 || own == base ? base : hashed(own, base: base, length: hashLength)
                if isRenewed.insert(position).inserted { renewed.append(position) }
            }
        }
        for (position, _) in changed where remade.bases[position].isEmpty {
            remade.slugs[position] = hashed(id(position), base: "", length: hashLength)
        }
        // No hash may be taken: a new one is no base, no other slug and none that blocked a
        // lengthened one, and no new base is an old hash. What blocked one stays.
        let hashes = renewed.filter { remade.slugs[$0] != remade.bases[$0] }.map { remade.slugs[$0] }
        guard Set(hashes).count == hashes.count, !hashes.contains(where: blocked.contains),
            !renewed.contains(where: { blocked.contains(made.slugs[$0]) }),
            !changed.contains(where: { blocked.contains(made.bases[$0.position]) })
        else { return nil }
        // (A slug that is a new base is its own base, which is renewed: only hashes are.)
        let hashKeys = Set(hashes.map(fnv1a))
        let taken = hashes + newBases
        let takenKeys = Set(taken.map(fnv1a))
        for position in remade.bases.indices {
            let base = remade.bases[position]
            if !base.isEmpty, hashKeys.contains(baseKeys[position]),
                hashes.contains(where: { $0.hasSameBytes(as: base) })
            {
                return nil
            }
            guard !isRenewed.contains(position) else { continue }
            let slug = remade.slugs[position]
            if takenKeys.contains(fnv1a(slug)), taken.contains(where: { $0.hasSameBytes(as: slug) }) {
                return nil
            }
        }
        remade.lengthened = made.lengthened.filter { !isRenewed.contains($0) }
        return remade
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
