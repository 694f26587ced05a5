import Testing
@testable import RolodeckCore

@Suite struct UTF8ValidatorTests {
    /// Bytes at the edges of Unicode Table 3-7: ASCII, continuation bytes at the limits the lead
    /// bytes E0, ED, F0 and F4 allow, every kind of lead byte, and bytes that never occur.
    static let edgeBytes: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
        0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]

    /// Sequences of edge bytes after 0 to 9 ASCII bytes (so that they start at every place in an
    /// 8-byte word), from a fixed pseudo-random walk.
    static func sequences(count: Int) -> [[UInt8]] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in
            let ascii = [UInt8](repeating: UInt8(ascii: "a"), count: next(10))
            let tail = (0..<next(9)).map { _ in edgeBytes[next(edgeBytes.count)] }
            return ascii + tail + [UInt8](repeating: UInt8(ascii: "z"), count: next(3) * 4)
        }
    }

    @Test func agreesWithTheStandardLibrary() {
        var wellFormed = 0
        for bytes in Self.sequences(count: 60_000) {
            let expected = String(validating: bytes, as: UTF8.self) != nil
            let found = bytes.withUnsafeBufferPointer(UTF8Validator.check)
            #expect(found.isWellFormed == expected, "\(bytes)")
            if found.isWellFormed {
                wellFormed += 1
                #expect(found.isASCII == bytes.allSatisfy { $0 < 0x80 }, "\(bytes)")
            }
        }
        // Both kinds must be common for the comparison to mean something.
        #expect(wellFormed > 5_000 && wellFormed < 55_000)
    }

    @Test func agreesWithTheOffsetsItFinds() {
        for bytes in Self.sequences(count: 5_000) {
            let found = bytes.withUnsafeBufferPointer(UTF8Validator.check)
            #expect(found.isWellFormed == UTF8Validator.invalidOffsets(in: bytes).isEmpty, "\(bytes)")
        }
    }

    @Test(arguments: [
        ("", true, true), ("plain ASCII, longer than a word", true, true),
        ("木村けんじ", true, false), ("ascii then 김서연 then ascii again", true, false),
    ])
    func saysWhetherTextIsASCII(_ text: String, _ isWellFormed: Bool, _ isASCII: Bool) {
        let found = Array(text.utf8).withUnsafeBufferPointer(UTF8Validator.check)
        #expect(found.isWellFormed == isWellFormed && found.isASCII == isASCII)
    }
}
