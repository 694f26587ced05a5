/// Finds the places where bytes are not well-formed UTF-8.
public enum UTF8Validator {
    /// Byte offsets of the first byte of each ill-formed sequence, at most `limit` of them.
    public static func invalidOffsets(in bytes: [UInt8], limit: Int = 20) -> [Int] {
        var offsets: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            var index = 0
            let count = buffer.count
            while index < count, offsets.count < limit {
                let lead = buffer[index]
                if lead < 0x80 {
                    index += 1
                    continue
                }
                let length = sequenceLength(buffer, at: index)
                if length == 0 {
                    offsets.append(index)
                    index += 1
                } else {
                    index += length
                }
            }
        }
        return offsets
    }

    /// The length of the well-formed sequence starting at `index`, or 0 if there is none
    /// (Unicode Table 3-7: no overlongs, no surrogates, nothing above U+10FFFF).
    private static func sequenceLength(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let lead = buffer[index]
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            index + offset < buffer.count && range.contains(buffer[index + offset])
        }
        switch lead {
        case 0xC2...0xDF:
            return continuation(1) ? 2 : 0
        case 0xE0:
            return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }
}
