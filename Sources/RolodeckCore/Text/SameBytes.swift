#if canImport(Glibc)
    import Glibc
#endif

extension Array where Element == UInt8 {
    /// Whether `other` holds the same bytes, compared with `memcmp` rather than element by
    /// element: a store file is compared with what it was on every rebuild, and may be tens of MB.
    public func hasSameBytes(as other: [UInt8]) -> Bool {
        guard count == other.count else { return false }
        return withUnsafeBytes { buffer in
            other.withUnsafeBytes { otherBuffer in
                buffer.baseAddress == otherBuffer.baseAddress || isEmpty
                    || memcmp(buffer.baseAddress!, otherBuffer.baseAddress!, count) == 0
            }
        }
    }
}

extension String {
    /// Whether `other` has the same UTF-8 bytes. `==` does not tell canonically equivalent
    /// strings apart: it takes "ü" written as one scalar and as "u" with a combining diaeresis
    /// for the same string. A page, a card or a piece of the search index written from the one
    /// does not have the other's bytes, so whatever decides that a save may keep what the last
    /// one wrote compares text with this.
    public func hasSameBytes(as other: String) -> Bool {
        let bytes = utf8, otherBytes = other.utf8
        guard bytes.count == otherBytes.count else { return false }
        let compared = bytes.withContiguousStorageIfAvailable { buffer in
            otherBytes.withContiguousStorageIfAvailable { otherBuffer in
                buffer.isEmpty || memcmp(buffer.baseAddress!, otherBuffer.baseAddress!, buffer.count) == 0
            }
        }
        if let compared, let same = compared { return same }
        return bytes.elementsEqual(otherBytes)
    }
}

extension Optional where Wrapped == String {
    /// Whether both are nil, or both strings with the same bytes (`String.hasSameBytes`).
    public func hasSameBytes(as other: String?) -> Bool {
        switch (self, other) {
        case (nil, nil): return true
        case (let text?, let otherText?): return text.hasSameBytes(as: otherText)
        default: return false
        }
    }
}

extension Array where Element == String {
    /// Whether `other` has as many strings, each with the same bytes (`String.hasSameBytes`).
    public func hasSameBytes(as other: [String]) -> Bool {
        count == other.count && zip(self, other).allSatisfy { $0.hasSameBytes(as: $1) }
    }
}
