// The pointer and byte kernels of the hottest loops of a build, in one place: the buffer pages
// and the search index are written into, short copies, word-at-a-time byte tests, and the
// copy, equality and common prefix of search keys (UTF-16 units). Everything is `@inlinable`:
// the kernels sit inside other modules' loops, and a call per byte or per key would cost more
// than the work. The figures in the doc comments come from `Benchmarks/kernel-bench`
// (docs/performance.md, "Byte kernels"): the kernel's time against its plain Swift alternative
// on the sizes a build sees (medians, release build, 2-core x86-64 host), and its instructions
// against the alternative's (callgrind); both include the loop around each operation.

/// Bytes written through a pointer into memory the buffer manages itself.
///
/// A page is a few hundred small appends, and the search index's text millions of one or two
/// bytes; `Array.append` checks its buffer's uniqueness and capacity every time and copies
/// through a generic loop. Here an append is a capacity check and a copy, and a writer that
/// knows how much it is about to write reserves room once and then puts bytes without checks.
/// Appending text runs of 2–16 bytes takes 0.49× the time of `Array.append(contentsOf:)` (0.36×
/// the instructions); putting 1–6 bytes after one `reserve`, 0.83× the time of as many
/// `Array.append` (0.72× the instructions).
public struct ByteBuffer: ~Copyable {
    /// The start of the allocation; the first `written` bytes are written.
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    @usableFromInline var written = 0
    /// How many bytes fit before the allocation must grow.
    @usableFromInline var capacity: Int

    /// An empty buffer with room for `capacity` bytes before it grows.
    @inlinable
    public init(capacity: Int = 4096) {
        self.capacity = Swift.max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// How many bytes are written.
    @inlinable
    public var count: Int { written }

    /// The last byte written; the buffer must not be empty.
    @inlinable
    public var last: UInt8 { start[written - 1] }

    /// Calls `body` with the bytes written so far.
    @inlinable
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: written))
    }

    /// Makes room for `extra` more bytes, at least doubling the allocation when it grows.
    @inlinable @inline(__always)
    public mutating func reserve(_ extra: Int) {
        if extra > capacity - written { grow(to: written + extra) }
    }

    @usableFromInline @inline(never)
    mutating func grow(to needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: written)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    /// Puts one byte, for which `reserve` has made room.
    @inlinable @inline(__always)
    public mutating func put(_ byte: UInt8) {
        assert(written < capacity, "put without reserve")
        start[written] = byte
        written += 1
    }

    /// Puts the four bytes of `word` as it is laid out in memory, for which `reserve` has made
    /// room.
    @inlinable @inline(__always)
    public mutating func put(bytesOf word: UInt32) {
        assert(written + 4 <= capacity, "put without reserve")
        UnsafeMutableRawPointer(start + written).storeBytes(of: word, as: UInt32.self)
        written += 4
    }

    /// Puts 4 to 16 bytes held as words, for which `reserve` has made room.
    @inlinable @inline(__always)
    public mutating func put(_ bytes: ShortBytes) {
        assert(written + bytes.count <= capacity, "put without reserve")
        bytes.store(to: UnsafeMutableRawPointer(start + written))
        written += bytes.count
    }

    /// Puts 4 to 16 bytes held as words, for which `reserve` has made room, unless `marks` marks
    /// one of them; returns whether it put them.
    @inlinable @inline(__always)
    public mutating func put(_ bytes: ShortBytes, unlessMarked marks: (UInt64) -> UInt64) -> Bool {
        assert(written + bytes.count <= capacity, "put without reserve")
        guard bytes.store(to: UnsafeMutableRawPointer(start + written), unlessMarked: marks) else {
            return false
        }
        written += bytes.count
        return true
    }

    /// Puts `count` bytes, for which `reserve` has made room, that `body` writes from the
    /// address it is given (in any order: digits are written from the last).
    @inlinable @inline(__always)
    public mutating func put(count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        assert(written + count <= capacity, "put without reserve")
        body(start + written)
        written += count
    }

    /// Appends one byte.
    @inlinable
    public mutating func append(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    /// Appends `bytes` as they are; up to 16 of them without a call (`ShortBytes.copy`).
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        if bytes.count <= 16 {
            ShortBytes.copy(
                UnsafeRawPointer(source), count: bytes.count, to: UnsafeMutableRawPointer(start + written))
        } else {
            (start + written).update(from: source, count: bytes.count)
        }
        written += bytes.count
    }

    /// Appends the bytes of an array as they are.
    @inlinable
    public mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the bytes of a static string.
    @inlinable
    public mutating func append(_ string: StaticString) {
        append(UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    /// The bytes written, as an array, with `prefix` before and `suffix` after them; empties the
    /// buffer and keeps its memory for what is written next.
    @inlinable
    public mutating func take(prefix: StaticString = "", suffix: StaticString = "") -> [UInt8] {
        let prefixCount = prefix.utf8CodeUnitCount, suffixCount = suffix.utf8CodeUnitCount
        let total = prefixCount + written + suffixCount
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            base.initialize(from: prefix.utf8Start, count: prefixCount)
            (base + prefixCount).initialize(from: start, count: written)
            (base + prefixCount + written).initialize(from: suffix.utf8Start, count: suffixCount)
            initialized = total
        }
        written = 0
        return bytes
    }
}

/// 4 to 16 bytes held as two 64-bit words that overlap where there are fewer than 16 (below 8
/// bytes, two 4-byte halves, widened): read, tested and written with no loop over the bytes and
/// no call. Most interpolated values and template text runs are this short.
public struct ShortBytes {
    /// The first eight bytes, or the first four widened.
    public var head: UInt64
    /// The last eight bytes, or the last four widened.
    public var tail: UInt64
    /// How many bytes, 4 to 16.
    public var count: Int

    /// The `count` bytes at `source`, 4 to 16 of them.
    @inlinable @inline(__always)
    public init(_ source: UnsafeRawPointer, count: Int) {
        assert(count >= 4 && count <= 16, "ShortBytes holds 4 to 16 bytes")
        self.count = count
        if count >= 8 {
            head = source.loadUnaligned(as: UInt64.self)
            tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        } else {
            head = UInt64(source.loadUnaligned(as: UInt32.self))
            tail = UInt64(source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        }
    }

    /// Writes the bytes at `destination`.
    @inlinable @inline(__always)
    public func store(to destination: UnsafeMutableRawPointer) {
        if count >= 8 {
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else {
            destination.storeBytes(of: UInt32(truncatingIfNeeded: head), as: UInt32.self)
            destination.storeBytes(
                of: UInt32(truncatingIfNeeded: tail), toByteOffset: count - 4, as: UInt32.self)
        }
    }

    /// Writes the bytes at `destination` unless `marks` (one of `ByteWord`'s tests) marks one
    /// of them; returns whether it wrote them. The test and the write share one branch on the
    /// count, where `contains(marked:)` and `store(to:)` one after the other take two.
    @inlinable @inline(__always)
    public func store(
        to destination: UnsafeMutableRawPointer, unlessMarked marks: (UInt64) -> UInt64
    ) -> Bool {
        if count >= 8 {
            guard marks(head) | marks(tail) == 0 else { return false }
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else {
            guard marks(head | tail << 32) == 0 else { return false }
            destination.storeBytes(of: UInt32(truncatingIfNeeded: head), as: UInt32.self)
            destination.storeBytes(
                of: UInt32(truncatingIfNeeded: tail), toByteOffset: count - 4, as: UInt32.self)
        }
        return true
    }

    /// Whether `marks` (one of `ByteWord`'s tests) marks any of the bytes.
    @inlinable @inline(__always)
    public func contains(marked marks: (UInt64) -> UInt64) -> Bool {
        // Below eight bytes the two halves are tested as one word: all its bytes are real.
        count >= 8 ? marks(head) | marks(tail) != 0 : marks(head | tail << 32) != 0
    }

    /// Copies `count` bytes, at most 16, as two loads and two stores that overlap where `count`
    /// is not a power of two, instead of calling `memmove`: for 2–16 bytes this takes 0.65× the
    /// time of `copyMemory` (a call to `memmove`; 0.73× the instructions).
    @inlinable @inline(__always)
    public static func copy(_ source: UnsafeRawPointer, count: Int, to destination: UnsafeMutableRawPointer) {
        if count >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            // The first, middle and last byte: all of one, two or three.
            destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            destination.storeBytes(
                of: source.load(fromByteOffset: count / 2, as: UInt8.self), toByteOffset: count / 2,
                as: UInt8.self)
            destination.storeBytes(
                of: source.load(fromByteOffset: count - 1, as: UInt8.self), toByteOffset: count - 1,
                as: UInt8.self)
        }
    }
}

/// Tests of the eight bytes of a 64-bit word at once. Each returns marks: the high bit of a
/// byte is set where that byte passes. The lowest mark is always exact; marks above it may be
/// false (a borrow from a byte that passed), so a scan takes the lowest mark and goes on after
/// it, and a test whether any byte passes compares the marks with zero.
public enum ByteWord {
    /// 0x01 in every byte.
    @inlinable
    public static var ones: UInt64 { 0x0101_0101_0101_0101 }
    /// The high bit of every byte.
    @inlinable
    public static var highBits: UInt64 { 0x8080_8080_8080_8080 }

    /// The eight bytes from `offset` on, as a word whose lowest byte is the first of them.
    @inlinable @inline(__always)
    public static func load(_ source: UnsafeRawPointer, at offset: Int) -> UInt64 {
        UInt64(littleEndian: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    }

    /// Marks the bytes that are zero: `x - 1` sets a byte's high bit when `x` is 0 (or at
    /// least 0x81), and `~x` clears it again for the latter.
    @inlinable @inline(__always)
    public static func zeroBytes(in word: UInt64) -> UInt64 {
        (word &- ones) & ~word & highBits
    }

    /// Marks the bytes equal to `byte`: those that `word ^ byte…byte` makes zero. A test for
    /// several bytes is the `|` of these.
    @inlinable @inline(__always)
    public static func bytes(equalTo byte: UInt8, in word: UInt64) -> UInt64 {
        zeroBytes(in: word ^ ones &* UInt64(byte))
    }

    /// Marks the bytes below `limit`, which is at most 0x80.
    @inlinable @inline(__always)
    public static func bytes(below limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highBits
    }

    /// Marks the bytes that are not ASCII (exactly: no borrows).
    @inlinable @inline(__always)
    public static func nonASCIIBytes(in word: UInt64) -> UInt64 {
        word & highBits
    }

    /// The position in its word of the first byte `marks` marks (they must not be zero), for a
    /// word read by `load(_:at:)`.
    @inlinable @inline(__always)
    public static func firstMarked(_ marks: UInt64) -> Int {
        marks.trailingZeroBitCount / 8
    }

    /// The first 1 to 8 bytes at `source`, as a word whose lowest byte is the first of them
    /// and whose bytes past `count` are zero; read as two loads that overlap, without a loop.
    @inlinable @inline(__always)
    public static func load(_ source: UnsafeRawPointer, count: Int) -> UInt64 {
        if count >= 4 {
            let head = UInt64(UInt32(littleEndian: source.loadUnaligned(as: UInt32.self)))
            let tail = UInt64(
                UInt32(littleEndian: source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return head | tail &<< (8 &* (count &- 4))
        }
        if count >= 2 {
            let head = UInt64(UInt16(littleEndian: source.loadUnaligned(as: UInt16.self)))
            let tail = UInt64(
                UInt16(littleEndian: source.loadUnaligned(fromByteOffset: count - 2, as: UInt16.self)))
            return head | tail &<< (8 &* (count &- 2))
        }
        return UInt64(source.load(as: UInt8.self))
    }

    /// The first index at or after `start` of a byte that `marks` marks, or `buffer.count` (or
    /// `start`, if larger) when there is none: eight bytes at a time, and the last fewer than
    /// eight as one word too, so there is no loop over bytes. Scanning values of 4–40 bytes for
    /// HTML's five special bytes takes 0.22× the time of a byte-by-byte loop (0.67× the
    /// instructions: the loop's time goes in mispredicted branches); for the end of a JSON
    /// string's plain run, 0.49× (0.40× the instructions).
    @inlinable @inline(__always)
    public static func firstIndex(
        in buffer: UnsafeBufferPointer<UInt8>, from start: Int, marked marks: (UInt64) -> UInt64
    ) -> Int {
        guard let base = buffer.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= buffer.count {
            let found = marks(load(raw, at: index))
            if found != 0 { return index + firstMarked(found) }
            index += 8
        }
        guard index < buffer.count else { return index }
        let left = buffer.count - index
        // The fewer than eight bytes left as one word, zero bytes above them: when the test
        // marks a zero byte, the lowest such mark is the first byte past the end, which is the
        // end, the answer when none of the bytes left is marked. The shift is by 8 to 56 bits:
        // `&>>` leaves out the checks for larger ones.
        let rest: UInt64
        if buffer.count >= 8 {
            // The buffer's last eight bytes, which overlap bytes already looked at: commonly
            // none is marked, and then none of those left is either.
            let last = load(raw, at: buffer.count - 8)
            if marks(last) == 0 { return buffer.count }
            rest = last &>> (8 &* (8 &- left))
        } else {
            rest = load(raw + index, count: left)
        }
        let found = marks(rest)
        return found == 0 ? buffer.count : index + firstMarked(found)
    }
}

/// Search keys as UTF-16 units, copied and compared four units (one 64-bit word) at a time,
/// the last word overlapping the one before where the count is not a multiple of four, so a
/// key of 2 to 30 units takes at most a few steps and no call.
public enum UTF16Key {
    /// Copies `count` units from `source` to `target` (which do not overlap). For keys of 2–30
    /// units this takes 0.83× the time of `copyMemory` (a call to `memmove`; 0.95× the
    /// instructions).
    @inlinable @inline(__always)
    public static func copy(
        _ source: UnsafePointer<UInt16>, count: Int, to target: UnsafeMutablePointer<UInt16>
    ) {
        let from = UnsafeRawPointer(source), to = UnsafeMutableRawPointer(target)
        let bytes = 2 * count
        if bytes >= 8 {
            var byte = 0
            while byte + 8 < bytes {
                to.storeBytes(
                    of: from.loadUnaligned(fromByteOffset: byte, as: UInt64.self), toByteOffset: byte,
                    as: UInt64.self)
                byte += 8
            }
            let last = bytes - 8
            to.storeBytes(
                of: from.loadUnaligned(fromByteOffset: last, as: UInt64.self), toByteOffset: last,
                as: UInt64.self)
        } else if bytes >= 4 {
            let head = from.loadUnaligned(as: UInt32.self)
            let tail = from.loadUnaligned(fromByteOffset: bytes - 4, as: UInt32.self)
            to.storeBytes(of: head, as: UInt32.self)
            to.storeBytes(of: tail, toByteOffset: bytes - 4, as: UInt32.self)
        } else if bytes == 2 {
            target.pointee = source.pointee
        }
    }

    /// Whether the `count` units at `a` and at `b` are the same. For keys of 2–30 units, one pair
    /// in ten different, this takes 0.58× the time of `==` on two arrays (0.58× the
    /// instructions).
    @inlinable @inline(__always)
    public static func equal(_ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, count: Int) -> Bool {
        let left = UnsafeRawPointer(a), right = UnsafeRawPointer(b)
        let bytes = 2 * count
        if bytes >= 8 {
            var byte = 0
            while byte + 8 < bytes {
                guard
                    left.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
                        == right.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
                else { return false }
                byte += 8
            }
            let last = bytes - 8
            return left.loadUnaligned(fromByteOffset: last, as: UInt64.self)
                == right.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        }
        if bytes >= 4 {
            return left.loadUnaligned(as: UInt32.self) == right.loadUnaligned(as: UInt32.self)
                && left.loadUnaligned(fromByteOffset: bytes - 4, as: UInt32.self)
                    == right.loadUnaligned(fromByteOffset: bytes - 4, as: UInt32.self)
        }
        return bytes == 0 || a.pointee == b.pointee
    }

    /// How many units `a` and `b` have in common from the start, among their first `limit`.
    /// For sorted keys of 2–30 units, each against the one before, this takes 0.81× the time of
    /// a unit-by-unit loop (0.82× the instructions).
    @inlinable @inline(__always)
    public static func commonPrefixCount(
        _ a: UnsafePointer<UInt16>, _ b: UnsafePointer<UInt16>, limit: Int
    ) -> Int {
        // The first unit that differs is the lowest one of the XOR in little-endian order.
        @inline(__always)
        func difference(at unit: Int) -> UInt64 {
            UInt64(littleEndian: UnsafeRawPointer(a + unit).loadUnaligned(as: UInt64.self))
                ^ UInt64(littleEndian: UnsafeRawPointer(b + unit).loadUnaligned(as: UInt64.self))
        }
        guard limit >= 4 else {
            var shared = 0
            while shared < limit, a[shared] == b[shared] { shared += 1 }
            return shared
        }
        var shared = 0
        while shared + 4 < limit {
            let found = difference(at: shared)
            if found != 0 { return shared + found.trailingZeroBitCount / 16 }
            shared += 4
        }
        // The last four units, overlapping those already found equal.
        let found = difference(at: limit - 4)
        return found == 0 ? limit : limit - 4 + found.trailingZeroBitCount / 16
    }
}
