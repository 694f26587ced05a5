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
