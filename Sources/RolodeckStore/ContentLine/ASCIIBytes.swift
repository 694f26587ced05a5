import ByteKernels

/// What the content-line readers do with ASCII bytes: names, parameters and keywords are ASCII
/// in all but odd files, and are read from the bytes without making strings first.
enum ASCIIBytes {
    /// Whether every byte is ASCII.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        ByteWord.firstIndex(in: bytes, from: 0, marked: ByteWord.nonASCIIBytes) == bytes.count
    }

    /// A string of ASCII bytes, each passed through `transform` (one of `upper`, `lower`, `same`).
    @inline(__always)
    static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ transform: (UInt8) -> UInt8 = same) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { buffer in
            for index in 0..<bytes.count { buffer[index] = transform(bytes[index]) }
            return TextBytes.string(UnsafeBufferPointer(buffer), isASCII: true)
        }
    }

    /// The byte itself.
    @inline(__always)
    static func same(_ byte: UInt8) -> UInt8 { byte }

    /// An ASCII letter in upper case; any other byte as it is.
    @inline(__always)
    static func upper(_ byte: UInt8) -> UInt8 {
        byte &- 0x61 < 26 ? byte &- 0x20 : byte
    }

    /// An ASCII letter in lower case; any other byte as it is.
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        byte &- 0x41 < 26 ? byte &+ 0x20 : byte
    }

    /// Whether `bytes` start with `prefix` (upper case ASCII), ignoring the case of letters.
    @inline(__always)
    static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        let start = prefix.utf8Start
        for index in 0..<count where upper(bytes[index]) != start[index] { return false }
        return true
    }

    /// Whether `bytes` are `word` (upper case ASCII), ignoring the case of letters.
    @inline(__always)
    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ word: StaticString) -> Bool {
        bytes.count == word.utf8CodeUnitCount && hasPrefix(bytes, word)
    }

    /// The range without the spaces and tabs at its ends.
    @inline(__always)
    static func trimmingBlanks(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        trimming(bytes, range) { $0 == 0x20 || $0 == 0x09 }
    }

    /// The range without the whitespace at its ends, as `Character.isWhitespace` tells it for
    /// ASCII: tab, line feed, vertical tab, form feed, carriage return and space.
    @inline(__always)
    static func trimmingWhitespace(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        trimming(bytes, range) { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }
    }

    @inline(__always)
    private static func trimming(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ isTrimmed: (UInt8) -> Bool
    ) -> Range<Int> {
        var start = range.lowerBound, end = range.upperBound
        while start < end, isTrimmed(bytes[start]) { start += 1 }
        while end > start, isTrimmed(bytes[end - 1]) { end -= 1 }
        return start..<end
    }
}
