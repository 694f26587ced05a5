import ByteKernels

/// Finds where the plain run of a JSON string's text stops, eight bytes at a time.
///
/// Most of a store is string text (notes, names), and both the array splitter and the parser
/// walk it looking for the few bytes that matter there; testing a word at once instead of each
/// byte makes that walk several times cheaper.
enum JSONStringScanner {
    /// The offset of the first byte at or after `start` that is a quote, a backslash or a control
    /// character (below U+0020), or `buffer.count` (or `start`, if larger) when there is none.
    @inline(__always)
    static func nextSpecialByte(in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteWord.firstIndex(in: buffer, from: start) { word in
            ByteWord.bytes(equalTo: UInt8(ascii: "\""), in: word)
                | ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word)
                | ByteWord.bytes(below: 0x20, in: word)
        }
    }
}
