/// Finds where the plain run of a JSON string's text stops, eight bytes at a time.
///
/// Most of a store is string text (notes, names), and both the array splitter and the parser
/// walk it looking for the few bytes that matter there; testing a word at once instead of each
/// byte makes that walk several times cheaper.
enum JSONStringScanner {
    /// The offset of the first byte at or after `start` that is a quote, a backslash or a control
    /// character (below U+0020), or `buffer.count` (or `start`, if larger) when there is none.
    static func nextSpecialByte(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        if let base = buffer.baseAddress {
            let raw = UnsafeRawPointer(base)
            let ones: UInt64 = 0x0101_0101_0101_0101
            let highBits: UInt64 = 0x8080_8080_8080_8080
            while index + 8 <= buffer.count {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                // A byte of `x &- ones` (or `&- 0x20 * ones`) has its high bit set without `x`
                // having it where x's byte is zero (or below 0x20). Borrows can only mark bytes
                // above a real match, so the lowest mark is always exact.
                let quotes = word ^ (ones &* 0x22)
                let backslashes = word ^ (ones &* 0x5C)
                let marks =
                    ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes
                        | (word &- ones &* 0x20) & ~word) & highBits
                if marks != 0 { return index + marks.trailingZeroBitCount / 8 }
                index += 8
            }
        }
        while index < buffer.count {
            let byte = buffer[index]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return index }
            index += 1
        }
        return index
    }
}
