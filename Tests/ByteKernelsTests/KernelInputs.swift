/// The generated inputs the kernel tests share: a fixed pseudo-random walk, bytes that sit
/// next to the ones the kernels look for, and memory at every alignment.
struct KernelInputs {
    private var state: UInt64

    /// A walk that gives the same numbers on every run.
    init(seed: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        state = seed
    }

    /// A number in `0..<bound` (a linear congruential step, high bits).
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    /// A random 64-bit word.
    mutating func word() -> UInt64 {
        UInt64(next(1 << 30)) << 34 ^ UInt64(next(1 << 30)) << 17 ^ UInt64(next(1 << 30))
    }

    /// `count` bytes, drawn from `pool`.
    mutating func bytes(_ count: Int, from pool: [UInt8]) -> [UInt8] {
        (0..<count).map { _ in pool[next(pool.count)] }
    }

    /// `count` bytes of any value.
    mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8(truncatingIfNeeded: next(256)) }
    }

    /// Every byte value.
    static let allBytes = (0...255).map(UInt8.init)

    /// The longest input the tests make, and the lengths they try: every one up to it.
    static let lengths = 0...40

    /// Calls `body` with `bytes` copied to `offset` bytes past an 8-byte boundary (0 to 7), with
    /// different bytes on both sides, so a kernel that reads or writes outside them is caught.
    static func withBytes<Result>(
        _ bytes: [UInt8], at offset: Int, _ body: (UnsafeMutableBufferPointer<UInt8>) -> Result
    ) -> Result {
        let guardCount = 24
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: offset + bytes.count + guardCount + 8, alignment: 8)
        defer { memory.deallocate() }
        memory.initializeMemory(as: UInt8.self, repeating: 0xA5, count: offset + bytes.count + guardCount + 8)
        let start = (memory + offset).assumingMemoryBound(to: UInt8.self)
        start.update(from: bytes, count: bytes.count)
        return body(UnsafeMutableBufferPointer(start: start, count: bytes.count))
    }
}

/// Plain loops: what each kernel must agree with.
enum Reference {
    /// The first index at or after `start` where `matches` holds, or `max(start, count)`.
    static func firstIndex(_ bytes: [UInt8], from start: Int, where matches: (UInt8) -> Bool) -> Int {
        var index = start
        while index < bytes.count, !matches(bytes[index]) { index += 1 }
        return Swift.max(index, start)
    }

    /// How many elements `a` and `b` have in common from the start, among their first `limit`.
    static func commonPrefixCount(_ a: [UInt16], _ b: [UInt16], limit: Int) -> Int {
        var shared = 0
        while shared < limit, a[shared] == b[shared] { shared += 1 }
        return shared
    }
}
