import ByteKernels
import RolodeckCore

/// The well-formed UTF-8 of a value's text, and what reading its syntax byte by byte needs to
/// know about it.
///
/// Escapes, separators and line breaks are ASCII, and a multi-byte sequence never contains an
/// ASCII byte, so they can be found in the bytes. Reading them by bytes gives what reading them
/// by `Character` gives as long as each ASCII byte is a Character of its own; in text that is
/// not ASCII that fails only where a combining mark or joiner follows one, or a prepended
/// concatenation mark (Arabic number signs) comes before one, and such text is read by
/// Character instead (`TextValue.ByCharacter`).
struct TextBytes {
    /// The bytes, well-formed UTF-8.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Whether every byte is ASCII.
    let isASCII: Bool
    /// Whether every ASCII byte is a Character of its own, CR LF aside (CR and LF are one
    /// Character, and a line break joins nothing else).
    let asciiStandsAlone: Bool

    /// The text of well-formed UTF-8 bytes, of which `isASCII` says whether they are all ASCII.
    init(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) {
        self.bytes = bytes
        self.isASCII = isASCII
        asciiStandsAlone = isASCII || TextBytes.asciiStandsAlone(in: bytes)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool, asciiStandsAlone: Bool) {
        self.bytes = bytes
        self.isASCII = isASCII
        self.asciiStandsAlone = asciiStandsAlone
    }

    /// Calls `body` with the bytes of a string.
    static func reading<Result>(_ text: String, _ body: (TextBytes) -> Result) -> Result {
        var text = text
        return text.withUTF8 { bytes in
            body(TextBytes(bytes, isASCII: ASCIIBytes.isASCII(bytes)))
        }
    }

    /// The bytes in `range`, which starts and ends next to ASCII bytes (or at the ends): they are
    /// well-formed, and what holds for the whole text holds for them.
    @inline(__always)
    func slice(_ range: Range<Int>) -> TextBytes {
        TextBytes(
            bytes: UnsafeBufferPointer(rebasing: bytes[range]), isASCII: isASCII,
            asciiStandsAlone: asciiStandsAlone)
    }

    /// The text as a string.
    var string: String { TextBytes.string(bytes, isASCII: isASCII) }

    /// A string of well-formed UTF-8 bytes, of which `isASCII` says whether they are all ASCII.
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        guard !bytes.isEmpty else { return "" }
        // The bytes are checked already; the standard library's check of them would cost as much
        // again outside ASCII.
        let span = unsafe UTF8Span(unchecked: Span(_unsafeElements: bytes), isKnownASCII: isASCII)
        return String(copying: span)
    }

    // MARK: - Whether ASCII bytes stand alone

    /// Whether no ASCII byte of well-formed `bytes` shares a Character with a scalar next to it.
    /// Only the scalars at the edges of runs that are not ASCII are looked at, and only by their
    /// first bytes.
    private static func asciiStandsAlone(in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        var index = 0
        while true {
            let nonASCII = ByteWord.firstIndex(in: bytes, from: index, marked: ByteWord.nonASCIIBytes)
            guard nonASCII < count else { return true }
            if nonASCII > 0, mayJoinTheScalarBefore(bytes, at: nonASCII) { return false }
            let ascii = ByteWord.firstIndex(in: bytes, from: nonASCII) { ~$0 & ByteWord.highBits }
            guard ascii < count else { return true }
            var lead = ascii - 1
            while bytes[lead] & 0xC0 == 0x80 { lead -= 1 }
            if mayJoinTheScalarAfter(bytes, at: lead) { return false }
            index = ascii
        }
    }

    /// Whether the scalar at `index` may be a combining mark, a spacing mark or a joiner, which
    /// share a Character with the scalar before them. It is false for the letters of most scripts
    /// and for punctuation and emoji (but not emoji modifiers); a test checks, for every scalar
    /// for which it is false, that it stands after an ASCII character as a Character of its own.
    static func mayJoinTheScalarBefore(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let lead = bytes[index]
        // The marks by first byte and, where a range holds marks and letters, the second.
        switch lead {
        case ..<0xCC, 0xCE...0xD1, 0xD3...0xD5, 0xDA, 0xE4...0xE9, 0xEB...0xEE:
            return false
        case 0xCD: return bytes[index + 1] < 0xB0  // U+0340–036F
        case 0xD6: return bytes[index + 1] >= 0x91  // Hebrew points, U+0591–05BF
        case 0xD7: return bytes[index + 1] <= 0x87  // U+05C0–05C7
        case 0xD8: return bytes[index + 1] >= 0x90 && bytes[index + 1] <= 0x9C  // Arabic, U+0610–061C
        case 0xD9:
            let second = bytes[index + 1]
            return (second >= 0x8B && second <= 0x9F) || second == 0xB0  // U+064B–065F, U+0670
        case 0xDB: return bytes[index + 1] >= 0x96 && bytes[index + 1] <= 0xAD  // U+06D6–06ED
        case 0xE1: return bytes[index + 1] < 0xB8  // below Latin Extended Additional, U+1E00
        case 0xE2:
            // U+200C–200D (joiners), U+20D0–20FF (marks for symbols), U+2CEF–2DFF (Coptic,
            // Tifinagh and Cyrillic marks).
            let second = bytes[index + 1]
            let joiner = second == 0x80 && (bytes[index + 2] == 0x8C || bytes[index + 2] == 0x8D)
            return joiner || second == 0x83 || second == 0xB3 || second == 0xB5 || second == 0xB7
        case 0xE3:
            // U+302A–302F (tone marks) and U+3099–309A (kana sound marks).
            let second = bytes[index + 1], third = bytes[index + 2]
            return (second == 0x80 && third >= 0xAA && third <= 0xAF)
                || (second == 0x82 && (third == 0x99 || third == 0x9A))
        case 0xEA:
            // Below U+AC00, where the Hangul syllables start.
            return bytes[index + 1] < 0xB0
        case 0xEF:
            // U+FB00–FB3F (Hebrew points), U+FE00–FE3F (variation selectors, half marks),
            // U+FF80–FFBF (half-width kana sound marks).
            let second = bytes[index + 1]
            return second == 0xAC || second == 0xB8 || second == 0xBE
        case 0xF0:
            // Emoji and their modifiers (U+1F3FB–1F3FF) are from U+1F000; the ideographs of
            // U+20000–3FFFF have no marks.
            let second = bytes[index + 1]
            if second == 0x9F { return bytes[index + 2] == 0x8F && bytes[index + 3] >= 0xBB }
            return second < 0xA0
        default:
            return true
        }
    }

    /// Whether the scalar at `index` may be a prepended concatenation mark, which shares a
    /// Character with the scalar after it: U+0600–0605, U+06DD, U+070F, U+0890–08E2 and U+0D4E,
    /// and some from U+11000 (a test checks every scalar for which it is false).
    static func mayJoinTheScalarAfter(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let second = index + 1 < bytes.count ? bytes[index + 1] : 0
        switch bytes[index] {
        case 0xD8: return second <= 0x85
        case 0xDB: return second == 0x9D
        case 0xDC: return second == 0x8F
        case 0xE0: return second == 0xA2 || second == 0xA3 || second == 0xB5
        case 0xF0: return second == 0x91
        case 0xF1...0xF4: return true
        default: return false
        }
    }
}
