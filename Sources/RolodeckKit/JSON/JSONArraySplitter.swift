/// Finds where each element of a top-level JSON array starts and ends, without parsing them,
/// so that large store files can be parsed element by element on every core and each element's
/// tree freed as soon as it is decoded.
///
/// The scan only tracks strings and nesting. Anything it does not expect returns nil, and the
/// caller parses the whole document instead, which reports the mistake precisely.
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
}
