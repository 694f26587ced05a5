/// Bytes written through a pointer into memory the buffer manages itself: the search index's
/// text is written a byte or two at a time, millions of times, and every `Array.append`
/// checks uniqueness and capacity. A writer reserves room for what it is about to write once,
/// then puts its bytes without checks.
struct SearchByteBuffer: ~Copyable {
    /// The start of the allocation; the first `count` bytes are written.
    private var start: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    private(set) var count = 0
    /// How many bytes fit before the allocation must grow.
    private var capacity: Int

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// Makes room for `extra` more bytes, at least doubling the allocation when it grows.
    @inline(__always)
    mutating func reserve(_ extra: Int) {
        if extra > capacity - count { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    /// Puts one byte, for which `reserve` has made room.
    @inline(__always)
    mutating func put(_ byte: UInt8) {
        assert(count < capacity, "put without reserve")
        start[count] = byte
        count += 1
    }

    /// Puts the four bytes of `word` as it is laid out in memory, for which `reserve` has made
    /// room.
    @inline(__always)
    mutating func put(bytesOf word: UInt32) {
        assert(count + 4 <= capacity, "put without reserve")
        UnsafeMutableRawPointer(start + count).storeBytes(of: word, as: UInt32.self)
        count += 4
    }

    /// Appends `bytes` as they are.
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Appends the bytes of a static string.
    mutating func append(_ string: StaticString) {
        append(UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    /// The bytes written, as an array, with `prefix` before and `suffix` after them; empties the
    /// buffer and keeps its memory for what is written next.
    mutating func take(prefix: StaticString = "", suffix: StaticString = "") -> [UInt8] {
        let prefixCount = prefix.utf8CodeUnitCount, suffixCount = suffix.utf8CodeUnitCount
        let total = prefixCount + count + suffixCount
        let bytes = [UInt8](unsafeUninitializedCapacity: total) { buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            base.initialize(from: prefix.utf8Start, count: prefixCount)
            (base + prefixCount).initialize(from: start, count: count)
            (base + prefixCount + count).initialize(from: suffix.utf8Start, count: suffixCount)
            initialized = total
        }
        count = 0
        return bytes
    }
}
