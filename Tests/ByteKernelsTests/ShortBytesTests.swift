import Testing
@testable import ByteKernels

/// Short copies and 4-to-16-byte words: every count at every alignment of source and target,
/// with the bytes around the target checked untouched.
@Suite struct ShortBytesTests {
    @Test("Copying up to 16 bytes writes exactly those bytes", arguments: 0...16)
    func copy(_ count: Int) {
        var inputs = KernelInputs(seed: UInt64(count) + 100)
        let bytes = inputs.bytes(count)
        for sourceOffset in 0..<8 {
            for targetOffset in 0..<8 {
                let target = KernelInputs.withBytes(bytes, at: sourceOffset) { source in
                    KernelInputs.withBytes([UInt8](repeating: 0, count: 32), at: targetOffset) { target in
                        ShortBytes.copy(
                            UnsafeRawPointer(source.baseAddress!), count: count,
                            to: UnsafeMutableRawPointer(target.baseAddress!))
                        return Array(target)
                    }
                }
                #expect(
                    Array(target[..<count]) == bytes, "\(count) bytes from \(sourceOffset) to \(targetOffset)"
                )
                #expect(target[count...].allSatisfy { $0 == 0 }, "\(count) bytes wrote past their end")
            }
        }
    }

    @Test("4 to 16 bytes read as words are written back as they were", arguments: 4...16)
    func roundTrip(_ count: Int) {
        var inputs = KernelInputs(seed: UInt64(count) + 200)
        for sourceOffset in 0..<8 {
            let bytes = inputs.bytes(count)
            let short = KernelInputs.withBytes(bytes, at: sourceOffset) {
                ShortBytes(UnsafeRawPointer($0.baseAddress!), count: count)
            }
            #expect(short.count == count)
            let written = KernelInputs.withBytes([UInt8](repeating: 0, count: 24), at: (sourceOffset + 3) % 8)
            {
                short.store(to: UnsafeMutableRawPointer($0.baseAddress!))
                return Array($0)
            }
            #expect(Array(written[..<count]) == bytes, "\(count) bytes at offset \(sourceOffset)")
            #expect(written[count...].allSatisfy { $0 == 0 }, "\(count) bytes wrote past their end")
        }
    }

    @Test(
        "A marked byte is found at every position of 4 to 16 bytes, and none where none is",
        arguments: 4...16)
    func contains(_ count: Int) {
        let isQuote = { (word: UInt64) in ByteWord.bytes(equalTo: 0x22, in: word) }
        // Bytes that differ from a quote in one bit, so a test that is off by a bit is caught.
        let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x26, 0x2A, 0x32, 0x02, 0x62, 0xA2, 0x00, 0xFF]
        var inputs = KernelInputs(seed: UInt64(count) + 300)
        for _ in 0..<20 {
            let plain = inputs.bytes(count, from: neighbours)
            check(plain, marked: isQuote, expected: false)
            for position in 0..<count {
                var bytes = plain
                bytes[position] = 0x22
                check(bytes, marked: isQuote, expected: true)
            }
        }
    }

    /// Whether `contains(marked:)` says `expected` of `bytes`, and `store(to:unlessMarked:)`
    /// writes them exactly when it says false.
    private func check(_ bytes: [UInt8], marked marks: (UInt64) -> UInt64, expected: Bool) {
        let short = bytes.withUnsafeBytes { ShortBytes($0.baseAddress!, count: bytes.count) }
        #expect(short.contains(marked: marks) == expected, "\(bytes)")
        var target = [UInt8](repeating: 0, count: 24)
        let stored = target.withUnsafeMutableBytes { short.store(to: $0.baseAddress!, unlessMarked: marks) }
        #expect(stored == !expected, "\(bytes)")
        let written = stored ? bytes : [UInt8](repeating: 0, count: bytes.count)
        #expect(target == written + [UInt8](repeating: 0, count: 24 - bytes.count), "\(bytes)")
    }
}
