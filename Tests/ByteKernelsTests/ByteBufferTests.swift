import Testing
@testable import ByteKernels

/// The growable buffer against an array doing the same appends.
@Suite struct ByteBufferTests {
    @Test(
        "Appending keeps every byte, at every length, source alignment and fill",
        arguments: KernelInputs.lengths)
    func appendsEveryLength(_ length: Int) {
        var inputs = KernelInputs(seed: UInt64(length) + 1)
        let bytes = inputs.bytes(length)
        for sourceOffset in 0..<8 {
            // 0 to 7 bytes already written, so the copy lands at every alignment too.
            for filled in 0..<8 {
                let before = inputs.bytes(filled)
                let written = KernelInputs.withBytes(bytes, at: sourceOffset) { source in
                    var buffer = ByteBuffer(capacity: 16)
                    buffer.append(before)
                    buffer.append(UnsafeBufferPointer(source))
                    buffer.append(0x7E)
                    return buffer.withBytes(Array.init)
                }
                #expect(
                    written == before + bytes + [0x7E],
                    "length \(length), offset \(sourceOffset), after \(filled)")
            }
        }
    }

    @Test("A long run of random appends and puts agrees with an array, across many growths")
    func randomOperations() {
        var inputs = KernelInputs()
        var buffer = ByteBuffer(capacity: 1)
        var expected: [UInt8] = []
        for step in 0..<20_000 {
            switch inputs.next(8) {
            case 0:
                let byte = UInt8(truncatingIfNeeded: inputs.next(256))
                buffer.append(byte)
                expected.append(byte)
            case 1:
                let bytes = inputs.bytes(inputs.next(41))
                bytes.withUnsafeBufferPointer { buffer.append($0) }
                expected += bytes
            case 2:
                let bytes = inputs.bytes(inputs.next(100))
                buffer.append(bytes)
                expected += bytes
            case 3:
                let count = inputs.next(6)
                buffer.reserve(count)
                for _ in 0..<count {
                    let byte = UInt8(truncatingIfNeeded: inputs.next(256))
                    buffer.put(byte)
                    expected.append(byte)
                }
            case 4:
                let word = UInt32(truncatingIfNeeded: inputs.word())
                buffer.reserve(4)
                buffer.put(bytesOf: word)
                expected += withUnsafeBytes(of: word, Array.init)
            case 5:
                let bytes = inputs.bytes(4 + inputs.next(13))
                buffer.reserve(bytes.count)
                bytes.withUnsafeBytes { buffer.put(ShortBytes($0.baseAddress!, count: bytes.count)) }
                expected += bytes
            case 6:
                // Bytes from a few, so that some runs have a zero byte and some not.
                let bytes = inputs.bytes(
                    4 + inputs.next(13), from: [0, 1, 0x41, 0x80, 0xFF, 0x7F, 0x20, 0x61])
                buffer.reserve(bytes.count)
                let put = bytes.withUnsafeBytes {
                    buffer.put(
                        ShortBytes($0.baseAddress!, count: bytes.count), unlessMarked: ByteWord.zeroBytes)
                }
                #expect(put == !bytes.contains(0), "\(bytes)")
                if put { expected += bytes }
            default:
                let bytes = inputs.bytes(inputs.next(12))
                buffer.reserve(bytes.count)
                buffer.put(count: bytes.count) { target in
                    // Last first, as digits are written.
                    for index in bytes.indices.reversed() { target[index] = bytes[index] }
                }
                expected += bytes
            }
            if step % 997 == 0 {
                #expect(buffer.withBytes(Array.init) == expected, "step \(step)")
            }
        }
        #expect(buffer.count == expected.count)
        #expect(buffer.last == expected.last)
        #expect(buffer.withBytes(Array.init) == expected)
    }

    @Test("Static strings are appended as their UTF-8 bytes")
    func staticStrings() {
        var buffer = ByteBuffer()
        buffer.append("")
        buffer.append("&amp;")
        buffer.append("Zoë, 李, and a text run longer than sixteen bytes")
        #expect(
            buffer.withBytes { String(decoding: $0, as: UTF8.self) }
                == "&amp;Zoë, 李, and a text run longer than sixteen bytes")
    }

    @Test("Taking the bytes adds the prefix and suffix, empties the buffer and lets it go on")
    func take() {
        var buffer = ByteBuffer(capacity: 2)
        buffer.append(Array("[1,2]".utf8))
        #expect(buffer.take(prefix: "a=", suffix: ";") == Array("a=[1,2];".utf8))
        #expect(buffer.count == 0)
        #expect(buffer.take() == [])
        buffer.append("x")
        #expect(buffer.take(suffix: "\n") == Array("x\n".utf8))
    }
}
