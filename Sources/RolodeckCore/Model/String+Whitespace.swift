extension String {
    /// Whether the string is empty or only whitespace.
    public var isBlank: Bool {
        // A visible ASCII character settles it without Unicode property lookups, and so does a
        // first scalar that is not whitespace (the first Character's is).
        if utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return false }
        if let first = unicodeScalars.first, !first.isWhitespaceWithoutTables { return false }
        return allSatisfy(\.isWhitespace)
    }

    /// The string without leading and trailing whitespace, as `Character.isWhitespace` tells it
    /// (Swift's own notion of whitespace; no Foundation).
    public var trimmingWhitespace: String {
        // Most text is empty or already starts and ends with a visible ASCII character.
        if isEmpty { return self }
        // Read where the bytes are (every native string has them contiguous), not through
        // `utf8.last` or `unicodeScalars.last`, which cost many times as much: planning trims
        // every name part of every contact.
        if let kept = utf8.withContiguousStorageIfAvailable(Self.endsAreKept) {
            if kept { return self }
        } else if let first = unicodeScalars.first, let last = unicodeScalars.last,
            !first.isWhitespaceWithoutTables, last.isLetterWithoutWhitespaceBefore {
            return self
        }
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }

    /// Whether trimming leaves the text with these UTF-8 bytes as it is: it starts and ends with
    /// a visible ASCII character (most text), or, as `unicodeScalars` would tell, its first
    /// scalar is no whitespace and its last a letter no whitespace shares a Character with. (A
    /// Character is whitespace when its first scalar is. The first Character's first scalar is
    /// the text's; one that starts with whitespace goes on only with marks and joiners, or CR
    /// LF, so the last Character does not when the last scalar is such a letter.)
    private static func endsAreKept(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return true }
        if first > 0x20, first < 0x7F, last > 0x20, last < 0x7F { return true }
        // The last scalar starts at the last byte that is not a continuation byte (10xxxxxx).
        var lastStart = bytes.count - 1
        while lastStart > 0, bytes[lastStart] & 0xC0 == 0x80 { lastStart -= 1 }
        guard let firstScalar = scalar(in: bytes, at: 0), let lastScalar = scalar(in: bytes, at: lastStart)
        else { return false }
        return !firstScalar.isWhitespaceWithoutTables && lastScalar.isLetterWithoutWhitespaceBefore
    }

    /// The scalar whose UTF-8 form starts at `start` in valid UTF-8 `bytes`.
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Unicode.Scalar? {
        let lead = UInt32(bytes[start])
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard start + length <= bytes.count else { return nil }
        var value = length == 1 ? lead : lead & (0x7F >> length)
        for offset in 1..<length {
            value = value << 6 | UInt32(bytes[start + offset] & 0x3F)
        }
        return Unicode.Scalar(value)
    }
}

extension Unicode.Scalar {
    /// `properties.isWhitespace` without the property tables: Unicode's White_Space set, which
    /// has not changed since Unicode 6.3.
    public var isWhitespaceWithoutTables: Bool {
        switch value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000:
            return true
        default:
            return false
        }
    }

    /// Whether this is a letter no whitespace shares a Character with: visible ASCII, Latin
    /// letters with accents, kana (without the combining sound marks), Han ideographs or Hangul
    /// syllables. (Only marks, joiners and the LF of CR LF follow a whitespace scalar in one
    /// Character.)
    var isLetterWithoutWhitespaceBefore: Bool {
        switch value {
        case 0x21...0x7E, 0xC0...0x24F, 0x3041...0x3096, 0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xAC00...0xD7A3:
            return true
        default:
            return false
        }
    }
}
