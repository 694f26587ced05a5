import Testing
@testable import RolodeckStore

@Suite struct InputFingerprintTests {
    private func digest(_ parts: [[UInt8]]) -> String {
        var hasher = InputFingerprint()
        for part in parts { hasher.add(part) }
        return hasher.hex
    }

    @Test func everyFlippedBitChangesTheDigest() {
        // Lengths around the 8-byte words and the 32-byte blocks, so the flipped bit lands in
        // every lane of a block, in whole words after the blocks and in tails.
        for length in Array(1...19) + [31, 32, 33, 40, 63, 64, 65, 100] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let original = digest([bytes])
            var seen: Set<String> = [original]
            for position in 0..<length {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[position] ^= 1 << bit
                    seen.insert(digest([changed]))
                }
            }
            #expect(seen.count == 1 + length * 8, "length \(length)")
        }
    }

    @Test func partsCannotRunIntoEachOther() {
        let digests = [
            digest([[1, 2, 3], [4]]), digest([[1, 2], [3, 4]]), digest([[1, 2, 3, 4]]), digest([[1, 2, 3, 4], []]),
            digest([[1, 2, 3, 4, 0]]), digest([[]]), digest([]),
        ]
        #expect(Set(digests).count == digests.count)
    }

    @Test func theDigestIsTheSameEveryTime() {
        let parts: [[UInt8]] = [Array("config".utf8), Array(repeating: 7, count: 1000)]
        #expect(digest(parts) == digest(parts))
        #expect(digest(parts).count == 32 && digest(parts).allSatisfy(\.isHexDigit))
    }
}
