/// Finds where each element of a top-level JSON array starts and ends, without parsing them,
/// so that large store files can be parsed element by element on every core and each element's
/// tree freed as soon as it is decoded.
///
/// The scan only tracks strings and nesting. Anything it does not expect returns nil, and the
/// caller parses the whole document instead, which reports the mistake precisely.
///
/// The scan is on one core, before any parsing can start; `pieceStarts` instead guesses where
/// pieces of the array may start without reading what lies between, for a parser that finds
/// each element's end anyway (`JSONParser.readElements`) and checks the guess.
enum JSONArraySplitter {
    /// The byte ranges of the elements of the array that makes up the document, or nil.
    static func elements(of bytes: [UInt8]) -> [Range<Int>]? {
        bytes.withUnsafeBufferPointer { buffer -> [Range<Int>]? in
            var index = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
            func skipWhitespace() {
                while index < buffer.count, buffer[index] == 0x20 || buffer[index] == 0x0A || buffer[index] == 0x0D
                    || buffer[index] == 0x09 { index += 1 }
            }
            skipWhitespace()
            guard index < buffer.count, buffer[index] == UInt8(ascii: "[") else { return nil }
            index += 1
            skipWhitespace()
            var ranges: [Range<Int>] = []
            if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
                index += 1
                skipWhitespace()
                return index == buffer.count ? ranges : nil
            }
            while index < buffer.count {
                skipWhitespace()
                let start = index
                var depth = 0
                scan: while index < buffer.count {
                    switch buffer[index] {
                    case UInt8(ascii: "\""):
                        index = JSONStringScanner.nextSpecialByte(in: buffer, from: index + 1)
                        while index < buffer.count, buffer[index] != UInt8(ascii: "\"") {
                            // A backslash hides the byte after it; control characters are the
                            // parser's to report.
                            index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
                            index = JSONStringScanner.nextSpecialByte(in: buffer, from: index)
                        }
                        guard index < buffer.count else { return nil }
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        if depth == 0 { break scan }
                        depth -= 1
                    case UInt8(ascii: ","):
                        if depth == 0 { break scan }
                    default:
                        break
                    }
                    index += 1
                }
                guard index < buffer.count, index > start else { return nil }
                ranges.append(start..<index)
                if buffer[index] == UInt8(ascii: "]") {
                    index += 1
                    skipWhitespace()
                    return index == buffer.count ? ranges : nil
                }
                guard buffer[index] == UInt8(ascii: ",") else { return nil }
                index += 1
            }
            return nil
        }
    }

    /// Where the elements of the array that makes up the document may be cut into pieces of
    /// about `pieceLength` bytes: the first element's start, then after each further
    /// `pieceLength` bytes or so the next line that looks like an element's start. Nil when the
    /// document does not open an array whose first element starts a line of its own.
    ///
    /// A raw line break is never inside a JSON string, so a line that starts with the first
    /// element's indentation and first byte, after a line ending in a comma, starts an element
    /// in any file written one element per line or indented consistently. It is still only a
    /// guess: whoever parses the piece before one must check that it ends exactly there.
    static func pieceStarts(of bytes: [UInt8], pieceLength: Int) -> [Int]? {
        bytes.withUnsafeBufferPointer { buffer -> [Int]? in
            func isWhitespace(_ byte: UInt8) -> Bool {
                byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
            }
            let hasBOM = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
            var index = hasBOM ? 3 : 0
            while index < buffer.count, isWhitespace(buffer[index]) { index += 1 }
            guard index < buffer.count, buffer[index] == UInt8(ascii: "[") else { return nil }
            let open = index
            index += 1
            while index < buffer.count, isWhitespace(buffer[index]) { index += 1 }
            guard index < buffer.count, buffer[index] != UInt8(ascii: "]") else { return nil }
            let first = index
            // The first element's indentation: what lies between the last line break and it.
            var lineStart = first
            while lineStart > open + 1, buffer[lineStart - 1] != 0x0A { lineStart -= 1 }
            guard buffer[lineStart - 1] == 0x0A else { return nil }
            let indentation = UnsafeBufferPointer(rebasing: buffer[lineStart..<first])
            let opener = buffer[first]
            /// Whether an element seems to start on the line that starts at `start`.
            func startsElement(_ start: Int) -> Bool {
                let end = start + indentation.count
                guard end < buffer.count, buffer[end] == opener,
                    buffer[start..<end].elementsEqual(indentation)
                else { return false }
                var before = start - 1
                while before > first, isWhitespace(buffer[before]) { before -= 1 }
                return buffer[before] == UInt8(ascii: ",")
            }
            var starts = [first]
            var target = first + max(pieceLength, 1)
            while target < buffer.count {
                index = target
                while index < buffer.count, buffer[index] != 0x0A || !startsElement(index + 1) { index += 1 }
                guard index < buffer.count else { break }
                starts.append(index + 1 + indentation.count)
                target = index + 1 + max(pieceLength, 1)
            }
            return starts
        }
    }
}
