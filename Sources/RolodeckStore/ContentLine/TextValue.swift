import ByteKernels

/// The text forms of vCard and iCalendar values: backslash escapes, `;`-separated components and
/// `,`-separated lists.
///
/// Escapes are decoded after the charset, because a backslash byte can be half of a Shift_JIS
/// character. `\n` and `\N` are line breaks; `\,`, `\;` and `\\` the character itself. Writers
/// escape more than the RFCs ask (Gmail writes `http\://` and `\"`), so a backslash before any
/// other punctuation is dropped too; before a letter or digit it stays (`C:\Users`). CR LF and
/// CR become LF, as quoted-printable text (`=0D=0A`) often has them.
///
/// These are rules about Characters, and `ByCharacter` states them so; they are read from the
/// UTF-8 bytes here, which gives the same wherever the ASCII bytes are Characters of their own
/// (`TextBytes`), and text where they are not is read by `ByCharacter`.
enum TextValue {
    /// The text with its escapes decoded.
    static func unescaped(_ text: String) -> String {
        TextBytes.reading(text, unescaped)
    }

    /// The text split at every `separator` (ASCII) that is not escaped, each piece unescaped.
    static func split(_ text: String, at separator: Character) -> [String] {
        TextBytes.reading(text) { split($0, at: separator.asciiValue!) }
    }

    /// A structured value's components (`N`, `ADR`, `ORG`), each a list of values. In vCard 2.1
    /// a comma is just a comma, so components are not split into lists.
    static func components(_ text: String, lists: Bool) -> TextComponents {
        TextBytes.reading(text) { components($0, lists: lists) }
    }

    /// The text with its escapes decoded.
    static func unescaped(_ text: TextBytes) -> String {
        let bytes = text.bytes
        guard ByteWord.firstIndex(in: bytes, from: 0, marked: backslashesAndCRs) < bytes.count else {
            return text.string
        }
        guard text.asciiStandsAlone else { return ByCharacter.unescaped(text.string) }
        // Unescaping never lengthens the text, nor does joining line breaks.
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
            guard let out = buffer.baseAddress, let source = bytes.baseAddress else { return "" }
            var written = 0
            var index = 0
            while true {
                let backslash = ByteWord.firstIndex(in: bytes, from: index, marked: backslashes)
                (out + written).update(from: source + index, count: backslash - index)
                written += backslash - index
                guard backslash < bytes.count else { break }
                let escaped = backslash + 1 < bytes.count ? bytes[backslash + 1] : 0
                if escaped == UInt8(ascii: "n") || escaped == UInt8(ascii: "N") {
                    out[written] = 0x0A
                    index = backslash + 2
                } else if isPunctuationOrSymbol(escaped) {
                    out[written] = escaped
                    index = backslash + 2
                } else {
                    // The backslash stays, and what follows it is read as it is.
                    out[written] = UInt8(ascii: "\\")
                    index = backslash + 1
                }
                written += 1
            }
            let unescaped = UnsafeMutableBufferPointer(start: out, count: written)
            if ByteWord.firstIndex(in: UnsafeBufferPointer(unescaped), from: 0, marked: crs) < written {
                written = joinLineBreaks(in: unescaped)
            }
            return TextBytes.string(UnsafeBufferPointer(start: out, count: written), isASCII: text.isASCII)
        }
    }

    /// The text split at every `separator` (ASCII) that is not escaped, each piece unescaped.
    static func split(_ text: TextBytes, at separator: UInt8) -> [String] {
        guard text.asciiStandsAlone else {
            return ByCharacter.split(text.string, at: Character(Unicode.Scalar(separator)))
        }
        var pieces: [String] = []
        pieces.reserveCapacity(separatorCount(text, separator) + 1)
        forEachPiece(of: text, at: separator) { pieces.append(unescaped($0)) }
        return pieces
    }

    /// A structured value's components (`N`, `ADR`, `ORG`), each a list of values. In vCard 2.1
    /// a comma is just a comma, so components are not split into lists.
    static func components(_ text: TextBytes, lists: Bool) -> TextComponents {
        guard text.asciiStandsAlone else {
            return TextComponents(ByCharacter.components(text.string, lists: lists))
        }
        let separators =
            separatorCount(text, UInt8(ascii: ";")) + (lists ? separatorCount(text, UInt8(ascii: ",")) : 0)
        var components = TextComponents(capacity: separators + 1)
        forEachPiece(of: text, at: UInt8(ascii: ";")) { piece in
            // A piece of text whose ASCII bytes stand alone has them stand alone too.
            if lists {
                forEachPiece(of: piece, at: UInt8(ascii: ",")) { components.append(unescaped($0)) }
            } else {
                components.append(unescaped(piece))
            }
            components.endComponent()
        }
        return components
    }

    /// Calls `body` with each piece of the text between `separator`s that are not escaped,
    /// escapes still in place.
    @inline(__always)
    private static func forEachPiece(of text: TextBytes, at separator: UInt8, _ body: (TextBytes) -> Void) {
        let bytes = text.bytes
        var start = 0
        var index = 0
        while true {
            index = ByteWord.firstIndex(in: bytes, from: index) { word in
                ByteWord.bytes(equalTo: separator, in: word) | backslashes(word)
            }
            guard index < bytes.count else { break }
            if bytes[index] == UInt8(ascii: "\\") {
                // The escaped byte is no separator; past the end, the piece ends with the backslash.
                index += 2
                continue
            }
            body(text.slice(start..<index))
            index += 1
            start = index
        }
        body(text.slice(start..<bytes.count))
    }

    /// How many `separator`s the text has, escaped or not: room for the pieces, at least.
    private static func separatorCount(_ text: TextBytes, _ separator: UInt8) -> Int {
        var count = 0
        for byte in text.bytes where byte == separator { count += 1 }
        return count
    }

    /// Joins CR LF into LF and turns a lone CR into LF, in place; returns the new count.
    private static func joinLineBreaks(in bytes: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var written = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == 0x0D {
                bytes[written] = 0x0A
                if index < bytes.count, bytes[index] == 0x0A { index += 1 }
            } else {
                bytes[written] = byte
            }
            written += 1
        }
        return written
    }

    /// Whether an ASCII byte is punctuation or a symbol: every visible one but letters and digits.
    @inline(__always)
    private static func isPunctuationOrSymbol(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: return true
        default: return false
        }
    }

    @inline(__always)
    private static func backslashes(_ word: UInt64) -> UInt64 {
        ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word)
    }

    @inline(__always)
    private static func crs(_ word: UInt64) -> UInt64 {
        ByteWord.bytes(equalTo: 0x0D, in: word)
    }

    @inline(__always)
    private static func backslashesAndCRs(_ word: UInt64) -> UInt64 {
        backslashes(word) | crs(word)
    }
}
