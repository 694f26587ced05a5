/// The run of Latin letter sections for one locale: A–Z plus any letters the
/// locale's collation sorts after Z (Swedish Å Ä Ö, Danish/Norwegian Æ Ø Å).
struct LatinAlphabet: Sendable, Equatable {
    /// One Latin section heading.
    struct Letter: Sendable, Equatable {
        /// The heading shown: "A", "Å".
        let label: String
        /// The section's ASCII anchor: "a", "a-ring".
        let anchor: String
    }

    /// A–Z followed by the locale's extra letters, in page order.
    let letters: [Letter]
    /// Letters whose section differs from plain accent folding, keyed by scalar value.
    let overrides: [UInt32: Int]
    /// Danish and Norwegian collation treats a leading "aa" as the letter Å.
    let leadingDoubleAIsAring: Bool

    /// The alphabet of a language subtag such as `sv` or `da`.
    init(language: String) {
        var letters = (UInt8(ascii: "A")...UInt8(ascii: "Z")).map { byte in
            Letter(label: String(UnicodeScalar(byte)), anchor: String(UnicodeScalar(byte + 32)))
        }
        var overrides: [UInt32: Int] = [:]
        // Each rule maps every listed character to one section; the lists follow
        // the CLDR tailorings ICU applies for these languages, so sections agree
        // with the collation order inside them.
        var rules: [(characters: String, label: String)] = []
        var extras: [Letter] = []
        switch language {
        case "sv":
            extras = [Letter(label: "Å", anchor: "a-ring"), Letter(label: "Ä", anchor: "a-umlaut"),
                      Letter(label: "Ö", anchor: "o-umlaut")]
            rules = [("Åå", "Å"), ("ÄäÆæĘę", "Ä"), ("ÖöØøŐőŒœÔô", "Ö"), ("ÜüŰű", "Y")]
        case "fi":
            extras = [Letter(label: "Å", anchor: "a-ring"), Letter(label: "Ä", anchor: "a-umlaut"),
                      Letter(label: "Ö", anchor: "o-umlaut")]
            rules = [("Åå", "Å"), ("ÄäÆæ", "Ä"), ("ÖöØøŐőÕõŒœ", "Ö"), ("ÜüŰű", "Y")]
        case "da", "nb", "nn", "no":
            extras = [Letter(label: "Æ", anchor: "ae"), Letter(label: "Ø", anchor: "o-slash"),
                      Letter(label: "Å", anchor: "a-ring")]
            rules = [("ÆæÄäĘę", "Æ"), ("ØøÖöŐőŒœ", "Ø"), ("Åå", "Å"), ("ÜüŰű", "Y")]
        default:
            break
        }
        letters += extras
        for rule in rules {
            guard let index = letters.firstIndex(where: { $0.label == rule.label }) else { continue }
            for scalar in rule.characters.unicodeScalars { overrides[scalar.value] = index }
        }
        self.letters = letters
        self.overrides = overrides
        leadingDoubleAIsAring = ["da", "nb", "nn", "no"].contains(language)
    }

    /// The index into `letters` for a name starting with `first` (then `next`),
    /// or nil when `first` is not a Latin letter.
    func letterIndex(of first: Unicode.Scalar, followedBy next: Unicode.Scalar?) -> Int? {
        if leadingDoubleAIsAring, Self.isLetterA(first), let next, Self.isLetterA(next),
           let aRing = overrides[0xC5] {
            return aRing
        }
        if let index = overrides[first.value] { return index }
        return LatinLetterFolding.baseLetterIndex(of: first)
    }

    private static func isLetterA(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "a" || scalar == "A"
    }
}
