import Foundation

/// Turns text into what search compares: words (split at white space) made of parts (split at
/// punctuation), each part a run of folded letters and digits.
///
/// `Public/search.js` folds what the user types with the same rules, and the cases in
/// `Tests/RolodeckSearchTests/folding-cases.json` are checked against both. The rules:
/// compatibility decomposition (NFKD: full-width letters, ligatures, accents split off), accents
/// dropped except the kana voicing marks, lower case, ß ss, æ ae, œ oe, ł l, đ/ð d, þ th, ı i;
/// ä ö ü ø get a second, transliterated spelling (ae oe ue oe); katakana becomes hiragana;
/// Hangul is spelled in keystrokes (see `HangulKeystrokes`).
enum SearchFolding {
    /// A run of letters and digits, folded, remembering where each written character starts
    /// so that search can index what follows any of them.
    struct Part: Equatable, Sendable {
        /// The folded units: "muller" for Müller.
        var units: [UInt16] = []
        /// Where each written character starts in `units`.
        var starts: [Int] = []
        /// The transliterated spelling ("mueller") when it differs, with its character starts.
        var long: (units: [UInt16], starts: [Int])?
        /// For a part of complete Hangul syllables only, their initial consonants (ㄱㅊㅅ).
        var initials: [UInt16]?

        /// The spelling a query is written in: the transliterated one, so `müller` is "mueller".
        var queryUnits: [UInt16] { long?.units ?? units }

        static func == (lhs: Part, rhs: Part) -> Bool {
            lhs.units == rhs.units && lhs.starts == rhs.starts && lhs.long?.units == rhs.long?.units
                && lhs.long?.starts == rhs.long?.starts && lhs.initials == rhs.initials
        }
    }

    /// The words of a text, each a list of non-empty parts.
    static func words(_ text: String) -> [[Part]] {
        var builder = Builder(capacity: text.utf8.count)
        var text = text
        let isASCII = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 >= 0x80 }) else { return false }
            // Plain ASCII needs no decomposition and no Unicode tables.
            for byte in utf8 { builder.add(ascii: byte) }
            return true
        }
        if !isASCII {
            if Decomposition.decomposes(text) {
                Decomposition.forEachScalar(of: text) { builder.add($0) }
            } else {
                let decomposed = text.decomposedStringWithCompatibilityMapping
                for scalar in decomposed.unicodeScalars { builder.add(scalar) }
            }
        }
        builder.finishWord()
        return builder.words
    }

    /// The compatibility decomposition (NFKD) of the scripts most names are written in, scalar
    /// by scalar, as `decomposedStringWithCompatibilityMapping` gives it for the whole text,
    /// without a call into Foundation for every name.
    ///
    /// NFKD decomposes each scalar on its own and then puts runs of combining marks in canonical
    /// order. Every scalar it takes decomposes to a starter first (the marks U+3099 and U+309A
    /// themselves are not taken), so a run of marks never spans two scalars' decompositions
    /// and each decomposition is in order already: the decompositions joined are the text's.
    enum Decomposition {
        /// The decomposition of each scalar of U+00A0…U+024F (Latin letters with diacritics) and
        /// U+3000…U+30FF (CJK punctuation, kana), one range after the other; empty for one that
        /// is not taken. Each range is decomposed as one text, its scalars between line feeds
        /// (which nothing decomposes to, and which keep marks from being reordered across).
        private static let table: [[Unicode.Scalar]] = [0x00A0...0x024F, 0x3000...0x30FF].flatMap {
            (range: ClosedRange<UInt32>) -> [[Unicode.Scalar]] in
            var text = String.UnicodeScalarView()
            for value in range {
                // Every value of the two ranges is a scalar.
                text.append(Unicode.Scalar(value) ?? "\u{FFFD}")
                text.append("\n")
            }
            let decomposed = String(text).decomposedStringWithCompatibilityMapping.unicodeScalars
            return decomposed.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map {
                guard let first = $0.first, first.properties.canonicalCombiningClass == .notReordered else {
                    return []
                }
                return Array($0)
            }
        }

        /// Where a scalar's decomposition is in `table`, if its range is kept there.
        @inline(__always)
        private static func tableIndex(_ value: UInt32) -> Int? {
            switch value {
            case 0x00A0...0x024F: return Int(value - 0x00A0)
            case 0x3000...0x30FF: return 0x1B0 + Int(value - 0x3000)
            default: return nil
            }
        }

        /// Whether every scalar of `text` is one this decomposes: ASCII, CJK unified ideographs
        /// (which decompose to themselves), Hangul syllables (by the Unicode algorithm), and the
        /// scalars of `table` that decompose to a starter first.
        static func decomposes(_ text: String) -> Bool {
            text.unicodeScalars.allSatisfy { scalar in
                switch scalar.value {
                case ..<0x80, 0x4E00...0x9FFF, 0xAC00...0xD7A3: return true
                default: return tableIndex(scalar.value).map { !table[$0].isEmpty } ?? false
                }
            }
        }

        /// Calls `body` with each scalar of the decomposition of `text`, which `decomposes`.
        static func forEachScalar(of text: String, _ body: (Unicode.Scalar) -> Void) {
            for scalar in text.unicodeScalars {
                let value = scalar.value
                if let index = tableIndex(value) {
                    for part in table[index] { body(part) }
                } else if (0xAC00...0xD7A3).contains(value) {
                    // A syllable's leading consonant, vowel and, unless it has none, final consonant.
                    let syllable = value - 0xAC00
                    body(Unicode.Scalar(0x1100 + syllable / 588) ?? scalar)
                    body(Unicode.Scalar(0x1161 + syllable % 588 / 28) ?? scalar)
                    if syllable % 28 != 0 { body(Unicode.Scalar(0x11A7 + syllable % 28) ?? scalar) }
                } else {
                    body(scalar)
                }
            }
        }
    }

    /// The keys the client looks a query up by, one per word: parts joined, in the long spelling
    /// ("o'brien" → "obrien", "müller" → "mueller"). A query of only digits and phone
    /// punctuation ("+82 10-1234 5678") is one key of its digits.
    static func queryKeys(_ query: String) -> [[UInt16]] {
        let phoneCharacters = Set("0123456789+-()./ \t")
        if query.contains(where: \.isASCIIDigit), query.allSatisfy({ phoneCharacters.contains($0) }) {
            return [Array(query.filter(\.isASCIIDigit).utf16)]
        }
        return words(query).map { $0.flatMap(\.queryUnits) }.filter { !$0.isEmpty }
    }

    /// Lower-case letters that need more than dropping an accent, after lower-casing.
    private static let letterReplacements: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ı": "i",
        "ħ": "h", "ŧ": "t", "ŀ": "l", "ς": "σ",
    ]

    /// Letters with a second, transliterated spelling when written with a diaeresis.
    private static let umlautBases: Set<Unicode.Scalar> = ["a", "o", "u", "A", "O", "U"]

    /// Folds a text, a scalar or a byte at a time, into words of parts.
    private struct Builder {
        /// How many units a part is given room for when it starts: the text's length in UTF-8,
        /// enough for any part of plain ASCII, so that appending rarely has to grow the arrays.
        let capacity: Int
        /// The words finished so far.
        var words: [[Part]] = []
        /// The current word's finished parts.
        var parts: [Part] = []
        /// The part being read.
        var part = Part()
        /// The part's long spelling, kept only from its first character that has one on.
        var long: (units: [UInt16], starts: [Int])?
        /// The part's initial consonants, kept only while every character is a Hangul syllable.
        var initials: [UInt16] = []
        /// Whether every character of the part so far is a Hangul syllable.
        var allInitials = true
        /// The base of the character being read, waiting for the marks that may follow it.
        var base: Unicode.Scalar?
        /// The kana voicing marks that follow `base`.
        var voicing: [Unicode.Scalar] = []
        /// Whether a diaeresis follows a base that has a second spelling with it.
        var umlaut = false
        /// The keystrokes of the Hangul syllable being read.
        var hangul: [UInt16] = []
        /// The syllable's leading consonant, if it has one.
        var hangulInitial: UInt16?
        /// Whether the syllable has a vowel after its leading consonant (so it is a whole one).
        var hangulHasVowel = false

        /// Folds one byte of plain ASCII text. `SearchTerms.add(ascii:tier:to:)` folds such text
        /// the same way without making words; the two must stay alike.
        mutating func add(ascii byte: UInt8) {
            switch byte {
            case 0x09...0x0D, 0x20:
                finishWord()
            case 0x30...0x39, 0x61...0x7A:
                append(unit: UInt16(byte))
            case 0x41...0x5A:
                append(unit: UInt16(byte) + 0x20)
            default:
                finishPart()
            }
        }

        /// Folds one scalar of text.
        mutating func add(_ scalar: Unicode.Scalar) {
            if scalar.isASCII {
                // Letters and digits wait for marks that may follow; the rest needs no tables.
                switch scalar.value {
                case 0x09...0x0D, 0x20: finishWord()
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A:
                    finishCharacter()
                    base = scalar
                default: finishPart()
                }
                return
            }
            if SearchFolding.isKanaOrIdeograph(scalar) {
                // A letter, neither white space nor a jamo: no table needs to be asked.
                finishCharacter()
                base = scalar
                return
            }
            // No conjoining jamo is white space: they are told apart first, for Hangul is common.
            if let jamo = HangulKeystrokes.jamo(scalar) {
                switch jamo {
                case .initial(let key):
                    finishCharacter()
                    hangul = [key]
                    hangulInitial = key
                case .following(let keys):
                    if hangul.isEmpty { finishCharacter() }
                    if hangulInitial != nil, (0x314F...0x3163).contains(keys[0]) { hangulHasVowel = true }
                    hangul += keys
                }
                return
            }
            if scalar.properties.isWhitespace {
                finishWord()
                return
            }
            switch scalar.properties.generalCategory {
            case .nonspacingMark, .spacingMark, .enclosingMark:
                if scalar.value == 0x3099 || scalar.value == 0x309A, base != nil {
                    voicing.append(scalar)
                } else if scalar.value == 0x0308, let base, SearchFolding.umlautBases.contains(base) {
                    umlaut = true
                }
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                .decimalNumber, .letterNumber, .otherNumber:
                finishCharacter()
                base = scalar
            default:
                finishPart()
            }
        }

        /// Appends a character that folds to one unit and has no other spelling.
        mutating func append(unit: UInt16) {
            if part.units.isEmpty { reserveCapacity() }
            part.starts.append(part.units.count)
            part.units.append(unit)
            if long != nil {
                long!.starts.append(long!.units.count)
                long!.units.append(unit)
            }
            allInitials = false
        }

        /// Appends one written character's folded units (and its long spelling, if it has one).
        mutating func append(_ units: [UInt16], long longUnits: [UInt16]?, initial: UInt16?) {
            if part.units.isEmpty { reserveCapacity() }
            if long == nil, longUnits != nil { long = (part.units, part.starts) }
            part.starts.append(part.units.count)
            part.units += units
            if long != nil {
                long!.starts.append(long!.units.count)
                long!.units += longUnits ?? units
            }
            if let initial, allInitials { initials.append(initial) } else { allInitials = false }
        }

        /// Gives a new part room for `capacity` units.
        mutating func reserveCapacity() {
            part.units.reserveCapacity(capacity)
            part.starts.reserveCapacity(capacity)
        }

        /// Appends the character being read, folded, to the part.
        mutating func finishCharacter() {
            if !hangul.isEmpty {
                append(hangul, long: nil, initial: hangulHasVowel ? hangulInitial : nil)
                hangul = []
                hangulInitial = nil
                hangulHasVowel = false
            }
            guard let scalar = base else { return }
            base = nil
            if scalar.isASCII, voicing.isEmpty {
                // A letter or digit, lower-cased by hand; only the umlaut gives a second spelling.
                let unit = UInt16(scalar.value) + ((0x41...0x5A).contains(scalar.value) ? 0x20 : 0)
                if umlaut { append([unit], long: [unit, 0x65], initial: nil) } else { append(unit: unit) }
                umlaut = false
                return
            }
            if voicing.isEmpty, SearchFolding.foldsToItself(SearchFolding.hiragana(scalar)) {
                append(unit: UInt16(SearchFolding.hiragana(scalar).value))
                return
            }
            var text = String(Character(SearchFolding.hiragana(scalar)))
            if !voicing.isEmpty {
                text.unicodeScalars.append(contentsOf: voicing)
                text = text.precomposedStringWithCanonicalMapping
                voicing = []
            }
            var short: [UInt16] = []
            var long: [UInt16]?
            for lower in text.lowercased().unicodeScalars {
                if lower == "ø" {
                    short += "o".utf16
                    long = Array("oe".utf16)
                } else if let replacement = SearchFolding.letterReplacements[lower] {
                    short += replacement.utf16
                } else {
                    short += String(lower).utf16
                }
            }
            if umlaut {
                long = short + "e".utf16
                umlaut = false
            }
            append(short, long: long, initial: nil)
        }

        /// Ends the part being read, keeping it if it has any units.
        mutating func finishPart() {
            finishCharacter()
            if !part.units.isEmpty {
                part.long = long
                if allInitials { part.initials = initials }
                parts.append(part)
            }
            part = Part()
            long = nil
            initials = []
            allInitials = true
        }

        /// Ends the word being read, keeping it if it has any parts.
        mutating func finishWord() {
            finishPart()
            if !parts.isEmpty { words.append(parts) }
            parts = []
        }
    }

    /// Whether a scalar is a letter without case, replacement or second spelling that folds to
    /// itself, one unit: a CJK unified ideograph or a hiragana letter (a katakana letter is one
    /// once made hiragana).
    @inline(__always)
    static func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3041...0x3096: return true
        default: return false
        }
    }

    /// Whether a scalar is a CJK unified ideograph, a hiragana letter or a katakana letter.
    @inline(__always)
    static func isKanaOrIdeograph(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3041...0x3096, 0x30A1...0x30FA: return true
        default: return false
        }
    }

    /// Katakana (ア…ヶ, ヽ ヾ) as hiragana; any other scalar unchanged.
    static func hiragana(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        switch scalar.value {
        case 0x30A1...0x30F6, 0x30FD...0x30FE: return Unicode.Scalar(scalar.value - 0x60) ?? scalar
        default: return scalar
        }
    }
}

extension Character {
    /// Whether this is one of the ASCII digits 0–9.
    var isASCIIDigit: Bool { isASCII && isNumber }
}
