import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The section pages of the paged index as they were rendered, cut where the search box names
/// the search index (`search/root.js?v=<version>`), kept by a watched site: a save that changes
/// the index but not what a section page shows (most saves, at one contact in 100,000) writes
/// the page by joining its parts around the new reference, instead of rendering its hundreds
/// of rows again.
///
/// A page is rendered with a stand-in for the reference: a tilde and 32 random hexadecimal
/// digits, made anew for every set of parts, which no contact's text can hold by chance or by
/// design (it is never published). The parts are what lies between the stand-ins; the page is
/// the parts joined with the reference, byte for byte what rendering it with the reference
/// gives, since the reference and the stand-in are both plain ASCII that HTML escaping leaves
/// as it is.
public final class SectionPageParts: Sendable {
    /// What stands for the reference while a page is rendered.
    let standIn: String
    private let parts = Mutex<[Int: [[UInt8]]]>([:])

    /// Empty parts, with a stand-in of their own.
    public init() {
        var generator = SystemRandomNumberGenerator()
        standIn =
            "~"
            + (0..<2).map { _ in
                let value = generator.next() as UInt64
                let digits = String(value, radix: 16)
                return String(repeating: "0", count: 16 - digits.count) + digits
            }.joined()
    }

    /// The parts of page `number`, if kept.
    func parts(of number: Int) -> [[UInt8]]? {
        parts.withLock { $0[number] }
    }

    /// Keeps the parts of page `number`, cut from `bytes` rendered with the stand-in.
    func keep(_ number: Int, rendered bytes: [UInt8]) -> [[UInt8]] {
        let cut = Self.cut(bytes, at: Array(standIn.utf8))
        parts.withLock { $0[number] = cut }
        return cut
    }

    /// Takes over the parts `other` kept of the pages `numbers`: pages that show what they
    /// showed when `other` was rendered.
    public func adopt(_ numbers: Set<Int>, from other: SectionPageParts) {
        let adopted = other.parts.withLock { kept in
            numbers.compactMap { number in kept[number].map { (number, $0) } }
        }
        parts.withLock { parts in
            for (number, cut) in adopted { parts[number] = cut }
        }
    }

    /// `bytes` cut at every occurrence of `separator`, which is not kept. Its first byte is
    /// looked for with `memchr`: a page is hundreds of kilobytes, and the stand-in starts with a
    /// byte pages seldom hold.
    static func cut(_ bytes: [UInt8], at separator: [UInt8]) -> [[UInt8]] {
        guard let first = separator.first else { return [bytes] }
        var cut: [[UInt8]] = []
        var start = 0
        bytes.withUnsafeBufferPointer { page in
            guard let base = page.baseAddress else { return }
            var index = 0
            while index + separator.count <= page.count,
                let found = memchr(base + index, Int32(first), page.count - index - separator.count + 1)
            {
                let offset = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if UnsafeBufferPointer(rebasing: page[offset..<(offset + separator.count)]).elementsEqual(
                    separator)
                {
                    cut.append(Array(page[start..<offset]))
                    start = offset + separator.count
                    index = start
                } else {
                    index = offset + 1
                }
            }
        }
        cut.append(Array(bytes[start...]))
        return cut
    }

    /// The parts joined with `reference` between each two.
    static func joined(_ parts: [[UInt8]], with reference: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.count } + reference.count * (parts.count - 1))
        for (number, part) in parts.enumerated() {
            if number > 0 { bytes += reference }
            bytes += part
        }
        return bytes
    }
}
