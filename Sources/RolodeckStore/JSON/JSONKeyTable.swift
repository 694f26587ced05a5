#if canImport(Glibc)
    import Glibc
#endif

/// Object keys a parser expects to meet again and again, each made into a `String` once.
///
/// A store of 100,000 contacts has millions of keys but only a few dozen different ones, and
/// making a string validates and copies its bytes every time. A key written without escapes
/// whose bytes are one of the table's takes the table's string instead; any other key is made
/// from its bytes, so the parse yields equal strings either way.
///
/// A lookup is on every key of a parse, so the table keeps its parts in memory of its own,
/// which reading retains nothing; it never changes after `init`, which makes it safe to share.
final class JSONKeyTable: @unchecked Sendable {
    /// The keys, grouped by UTF-8 length (shortest first).
    private let keys: UnsafeMutableBufferPointer<String>
    /// The first eight bytes of each key (fewer, zero-padded, for a shorter one) as an integer.
    private let prefixes: UnsafeMutableBufferPointer<UInt64>
    /// Where each key's bytes start in `pool`.
    private let starts: UnsafeMutableBufferPointer<Int>
    /// Where the keys of each length start; one more element than the longest length.
    private let firstByLength: UnsafeMutableBufferPointer<Int>
    /// Every key's bytes, one after another.
    private let pool: UnsafeMutableBufferPointer<UInt8>

    /// A table of `keys` (repeats and the empty key are ignored).
    init(_ keys: some Sequence<String>) {
        var unique: [String] = []
        for key in keys where !key.isEmpty && !unique.contains(key) { unique.append(key) }
        unique.sort { $0.utf8.count < $1.utf8.count }
        let longest = unique.last?.utf8.count ?? 0
        var firstByLength: [Int] = []
        var bytes: [UInt8] = []
        var starts: [Int] = []
        var position = 0
        for length in 0...(longest + 1) {
            firstByLength.append(position)
            while position < unique.count, unique[position].utf8.count == length {
                starts.append(bytes.count)
                bytes += unique[position].utf8
                position += 1
            }
        }
        self.keys = .allocate(capacity: unique.count)
        _ = self.keys.initialize(from: unique)
        self.starts = .allocate(capacity: starts.count)
        _ = self.starts.initialize(from: starts)
        self.firstByLength = .allocate(capacity: firstByLength.count)
        _ = self.firstByLength.initialize(from: firstByLength)
        self.pool = .allocate(capacity: max(bytes.count, 1))
        _ = self.pool.initialize(from: bytes)
        let prefixes = bytes.withUnsafeBufferPointer { bytes in
            unique.indices.map { index in
                let start = starts[index]
                let end = start + unique[index].utf8.count
                return Self.prefix(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
        }
        self.prefixes = .allocate(capacity: prefixes.count)
        _ = self.prefixes.initialize(from: prefixes)
    }

    deinit {
        keys.deinitialize().deallocate()
        prefixes.deallocate()
        starts.deallocate()
        firstByLength.deallocate()
        pool.deallocate()
    }

    /// How many different keys the table has; their positions are `0..<count`.
    var count: Int { keys.count }

    /// The key at a position.
    subscript(position: Int) -> String { keys[position] }

    /// The position of the key whose UTF-8 bytes are exactly `bytes`, or nil when the table has none.
    func position(matching bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let length = bytes.count
        guard length + 1 < firstByLength.count, let base = bytes.baseAddress, let pool = pool.baseAddress
        else { return nil }
        let prefix = Self.prefix(bytes)
        for index in firstByLength[length]..<firstByLength[length + 1] where prefixes[index] == prefix {
            // The first eight bytes are equal; compare the rest, up to sixteen bytes as the last
            // eight (which overlap the first eight for a key shorter than sixteen).
            if length <= 8 { return index }
            if length <= 16 {
                let last = UnsafeRawPointer(base + length - 8)
                let keyLast = UnsafeRawPointer(pool + starts[index] + length - 8)
                if last.loadUnaligned(as: UInt64.self) == keyLast.loadUnaligned(as: UInt64.self) {
                    return index
                }
            } else if memcmp(base + 8, pool + starts[index] + 8, length - 8) == 0 {
                return index
            }
        }
        return nil
    }

    /// The first eight bytes (fewer, zero-padded, for a shorter key) as one integer, read in as
    /// few loads as their length allows.
    private static func prefix(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        if bytes.count >= 8 { return raw.loadUnaligned(as: UInt64.self) }
        var prefix: UInt64 = 0
        var offset = 0
        if bytes.count & 4 != 0 {
            prefix = UInt64(raw.loadUnaligned(as: UInt32.self))
            offset = 4
        }
        if bytes.count & 2 != 0 {
            let pair = raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
            prefix |= UInt64(pair) << (8 * UInt64(offset))
            offset += 2
        }
        if bytes.count & 1 != 0 {
            prefix |= UInt64(base[offset]) << (8 * UInt64(offset))
        }
        return prefix
    }
}
