import CQRencode
import Testing

@testable import RolodeckSite

/// Our QR encoder against libqrencode, which made the site's codes before it: the same modules
/// for every input the site can pass (so pages and their snapshots keep their bytes), and the
/// same refusals.
@Suite struct QREncoderTests {
    /// The code libqrencode 4.1 makes for `bytes` as the site used it (smallest version, level M,
    /// ECI 26 before bytes beyond ASCII, byte mode, mask pattern 2): its width and modules row by
    /// row, or nil when libqrencode fails. The only Swift file that imports libqrencode.
    static func libqrencode(_ bytes: [UInt8]) -> (width: Int, modules: [Bool])? {
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { return nil }
        defer { QRinput_free(input) }
        if bytes.contains(where: { $0 >= 0x80 }) {
            guard QRinput_appendECIheader(input, 26) == 0 else { return nil }
        }
        let appended = bytes.withUnsafeBufferPointer {
            QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress)
        }
        guard appended == 0, let symbol = QRcode_encodeMask(input, 2) else { return nil }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what libqrencode put there.
        let modules = (0..<width * width).map { symbol.pointee.data[$0] & 1 == 1 }
        return (width, modules)
    }

    /// One input for both encoders.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let bytes: [UInt8]
        var testDescription: String { "\(label): \(bytes.count) bytes" }
    }

    /// Bytes that look random, the same on every run: printable ASCII with line breaks, or any
    /// byte at all (then at least one beyond ASCII, so the ECI header goes first).
    static func bytes(count: Int, seed: UInt64, ascii: Bool) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        var bytes = (0..<count).map { _ -> UInt8 in
            // xorshift64*
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            let random = (state &* 0x2545_F491_4F6C_DD1D) >> 32
            if !ascii { return UInt8(truncatingIfNeeded: random) }
            return random % 20 == 0 ? 0x0A : UInt8(0x20 + random % 95)
        }
        if !ascii, !bytes.contains(where: { $0 >= 0x80 }) { bytes[count / 2] = 0xC3 }
        return bytes
    }

    /// Every length from 1 to 400 bytes, ASCII and not.
    static let lengths: [Case] = (1...400).flatMap { count in
        [
            Case(label: "ASCII", bytes: bytes(count: count, seed: UInt64(count), ascii: true)),
            Case(
                label: "beyond ASCII", bytes: bytes(count: count, seed: UInt64(count) + 1_000, ascii: false)),
        ]
    }

    /// Around every version's capacity at level M, ASCII and not: the most bytes the version's
    /// data codewords hold, two fewer to one more (libqrencode moves marked bytes within two of
    /// the capacity up a version), and one more than the largest version holds.
    static let capacities: [Case] = (1...40).flatMap { number -> [Case] in
        let version = QRVersion(number: number)
        return [true, false].flatMap { ascii -> [Case] in
            let header = (ascii ? 4 : 16) + version.byteCountBits
            let most = (8 * version.dataCodewords - header) / 8
            return (most - 2...most + 1).map { count in
                Case(
                    label: "version \(number) \(ascii ? "ASCII" : "beyond ASCII")",
                    bytes: bytes(count: count, seed: UInt64(count) + 7, ascii: ascii))
            }
        }
    }

    /// Every input gets the code libqrencode gave it, module for module, or nil where it gave none.
    @Test(arguments: lengths + capacities)
    func theModulesAreLibqrencodes(_ input: Case) {
        let ours = QRCode(encoding: input.bytes)
        let theirs = Self.libqrencode(input.bytes)
        #expect(ours?.width == theirs?.width)
        if let ours, let theirs, ours.width == theirs.width {
            let modules = ours.modules
            let differing = (0..<modules.count).filter { modules[$0] != theirs.modules[$0] }
            #expect(
                differing.isEmpty,
                "\(differing.count) modules differ, the first at \(differing.first.map { ($0 % ours.width, $0 / ours.width) } ?? (0, 0))"
            )
        }
    }

    /// The largest code holds 2,334 data codewords: 2,331 bytes, or 2,330 with the ECI header,
    /// and one byte more fits in no code.
    @Test func theLargestCodeIsVersion40() throws {
        for (ascii, most) in [(true, 2_331), (false, 2_330)] {
            let largest = Self.bytes(count: most, seed: 40, ascii: ascii)
            #expect(try #require(QRCode(encoding: largest)).width == 177)
            let tooMany = Self.bytes(count: most + 1, seed: 41, ascii: ascii)
            #expect(QRCode(encoding: tooMany) == nil)
            #expect(Self.libqrencode(tooMany) == nil)
        }
    }

    /// libqrencode's version choice, which is not always the smallest: 14 bytes fill version 1's
    /// 16 data codewords; 13 with the ECI header do too, but libqrencode's estimate counts that
    /// header two bytes long and moves them to version 2, and 11 stay in version 1.
    @Test func theVersionIsLibqrencodes() {
        #expect(QREncoder.version(byteCount: 14, markedUTF8: false)?.number == 1)
        #expect(QREncoder.version(byteCount: 15, markedUTF8: false)?.number == 2)
        #expect(QREncoder.version(byteCount: 13, markedUTF8: true)?.number == 2)
        #expect(QREncoder.version(byteCount: 11, markedUTF8: true)?.number == 1)
        #expect(QREncoder.version(byteCount: 2_331, markedUTF8: false)?.number == 40)
        #expect(QREncoder.version(byteCount: 2_332, markedUTF8: false) == nil)
    }

    /// A byte beyond ASCII is found wherever it is: in the words read eight bytes at a time or in
    /// the bytes after them.
    @Test func aByteBeyondASCIIIsFoundAnywhere() {
        let ascii = Array("BEGIN:VCARD\r\nFN:Ann Lee".utf8)
        #expect(!QREncoder.containsNonASCII(ascii))
        #expect(!QREncoder.containsNonASCII([]))
        for index in ascii.indices {
            var bytes = ascii
            bytes[index] = 0x80
            #expect(QREncoder.containsNonASCII(bytes), "byte \(index)")
        }
    }

    /// The error correction codewords of the standard's worked example as thonky.com's QR
    /// tutorial gives it: "HELLO WORLD" in alphanumeric mode at version 1-M.
    @Test func theErrorCorrectionCodewordsMatchAWorkedExample() {
        let data: [UInt8] = [
            0x20, 0x5B, 0x0B, 0x78, 0xD1, 0x72, 0xDC, 0x4D, 0x43, 0x40, 0xEC, 0x11, 0xEC, 0x11, 0xEC, 0x11,
        ]
        var output = [UInt8](repeating: 0, count: 10)
        data.withUnsafeBufferPointer { data in
            output.withUnsafeMutableBufferPointer {
                ReedSolomon.encode(data, count: 10, into: $0.baseAddress!, stride: 1)
            }
        }
        #expect(output == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }
}
