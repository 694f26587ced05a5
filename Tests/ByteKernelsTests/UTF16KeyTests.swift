import Testing
@testable import ByteKernels

/// Key copies and comparisons against element-by-element loops: every count up to 40 units,
/// every unit alignment, and a differing unit at every position, in its low or high byte.
@Suite struct UTF16KeyTests {
    /// Calls `body` with `units` copied to `offset` units past an 8-byte boundary, followed by
    /// units of a different value.
    static func withUnits<Result>(
        _ units: [UInt16], at offset: Int, _ body: (UnsafeMutablePointer<UInt16>) -> Result
    ) -> Result {
        let padded =
            [UInt16](repeating: 0xA5A5, count: offset) + units + [UInt16](repeating: 0xA5A5, count: 8)
        let bytes = padded.withUnsafeBytes(Array.init)
        return KernelInputs.withBytes(bytes, at: 0) { memory in
            let start = UnsafeMutableRawPointer(memory.baseAddress!).assumingMemoryBound(to: UInt16.self)
            return body(start + offset)
        }
    }

    /// Units of a key: ASCII letters and digits mostly, some beyond.
    static func key(_ count: Int, _ inputs: inout KernelInputs) -> [UInt16] {
        (0..<count).map { _ in
            inputs.next(4) == 0
                ? UInt16(truncatingIfNeeded: inputs.next(0x10000)) : UInt16(0x61 + inputs.next(26))
        }
    }

    @Test("Copying writes exactly the key's units", arguments: KernelInputs.lengths)
    func copy(_ count: Int) {
        var inputs = KernelInputs(seed: UInt64(count) + 400)
        let key = Self.key(count, &inputs)
        for sourceOffset in 0..<4 {
            for targetOffset in 0..<4 {
                let copied = Self.withUnits(key, at: sourceOffset) { source in
                    Self.withUnits([UInt16](repeating: 0, count: count + 8), at: targetOffset) { target in
                        UTF16Key.copy(source, count: count, to: target)
                        return Array(UnsafeBufferPointer(start: target, count: count + 8))
                    }
                }
                #expect(
                    Array(copied[..<count]) == key, "\(count) units from \(sourceOffset) to \(targetOffset)")
                #expect(copied[count...].allSatisfy { $0 == 0 }, "\(count) units: wrote past the end")
            }
        }
    }

    /// A key, and another that differs from it in one unit (in its low or high byte), or not at
    /// all, of every count.
    static func pairs(_ count: Int) -> [(key: [UInt16], other: [UInt16], difference: Int?)] {
        var inputs = KernelInputs(seed: UInt64(count) + 500)
        let key = Self.key(count, &inputs)
        var pairs: [([UInt16], [UInt16], Int?)] = [(key, key, nil)]
        for position in 0..<count {
            for flip: UInt16 in [0x0001, 0x0100, 0x8000] {
                var other = key
                other[position] ^= flip
                pairs.append((key, other, position))
            }
        }
        return pairs
    }

    @Test("Keys are equal exactly when no unit differs", arguments: KernelInputs.lengths)
    func equal(_ count: Int) {
        for (key, other, difference) in Self.pairs(count) {
            for offset in 0..<4 {
                let found = Self.withUnits(key, at: offset) { a in
                    Self.withUnits(other, at: (offset + 1) % 4) { b in UTF16Key.equal(a, b, count: count) }
                }
                #expect(
                    found == (key == other), "\(count) units differing at \(String(describing: difference))")
                #expect((difference == nil) == (key == other))
            }
        }
    }

    @Test(
        "The common prefix ends at the first unit that differs, or at the limit",
        arguments: KernelInputs.lengths)
    func commonPrefix(_ count: Int) {
        for (key, other, _) in Self.pairs(count) {
            for limit in 0...count {
                let expected = Reference.commonPrefixCount(key, other, limit: limit)
                for offset in 0..<4 {
                    let found = Self.withUnits(key, at: offset) { a in
                        Self.withUnits(other, at: 3 - offset) { b in
                            UTF16Key.commonPrefixCount(a, b, limit: limit)
                        }
                    }
                    #expect(found == expected, "\(key) and \(other), limit \(limit)")
                }
            }
        }
    }
}
