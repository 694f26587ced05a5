import Testing
@testable import RolodeckStore

@Suite struct JSONStringScannerTests {
    /// Bytes the scanner must pass over: neighbours of the special ones, and UTF-8 lead and
    /// continuation bytes.
    static let plainBytes: [UInt8] = [
        0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xBF, 0xC3, 0xDC, 0xE2, 0xFF,
    ]

    @Test(arguments: [UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x00, 0x0A, 0x1F])
    func findsTheFirstSpecialByteWhereverItIs(_ special: UInt8) {
        // Every position in and around the eight-byte words, with a second special byte later
        // (a false mark above a real one must not win) and plain bytes all around.
        for position in 0..<40 {
            var bytes = (0..<40).map { Self.plainBytes[$0 % Self.plainBytes.count] }
            bytes[position] = special
            if position + 3 < bytes.count { bytes[position + 3] = UInt8(ascii: "\"") }
            for start in [0, 1, 7, 8, 9] where start <= position {
                let found = bytes.withUnsafeBufferPointer {
                    JSONStringScanner.nextSpecialByte(in: $0, from: start)
                }
                #expect(found == position, "special byte \(special) at \(position), scan from \(start)")
            }
        }
    }

    @Test func withoutASpecialByteTheScanEndsAtTheEnd() {
        for count in 0..<20 {
            let bytes = (0..<count).map { Self.plainBytes[$0 % Self.plainBytes.count] }
            let found = bytes.withUnsafeBufferPointer { JSONStringScanner.nextSpecialByte(in: $0, from: 0) }
            #expect(found == count)
        }
        let bytes: [UInt8] = Array("abc".utf8)
        #expect(bytes.withUnsafeBufferPointer { JSONStringScanner.nextSpecialByte(in: $0, from: 5) } == 5)
    }
}
