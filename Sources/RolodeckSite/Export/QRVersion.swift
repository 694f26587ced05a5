/// What ISO/IEC 18004 fixes for one version of a QR code at error correction level M: its size,
/// how many data codewords it holds, how they are cut into Reed-Solomon blocks, and where its
/// alignment patterns and version information go.
struct QRVersion: Sendable {
    /// 1 to 40.
    let number: Int

    /// The smallest version, 1.
    static let first = QRVersion(number: 1)
    /// The largest version, 40.
    static let last = QRVersion(number: 40)

    /// How many modules a side has.
    var width: Int { 17 + 4 * number }

    /// Error correction codewords in each block.
    var errorCorrectionPerBlock: Int { Int(Self.levelM[number - 1].ecPerBlock) }
    /// Blocks of `shortBlockLength` data codewords; they come first.
    var shortBlocks: Int { Int(Self.levelM[number - 1].shortBlocks) }
    /// Data codewords in each of the first blocks; the blocks after them hold one more.
    var shortBlockLength: Int { Int(Self.levelM[number - 1].shortLength) }
    /// Blocks of `shortBlockLength + 1` data codewords.
    var longBlocks: Int { Int(Self.levelM[number - 1].longBlocks) }
    /// Blocks in all.
    var blocks: Int { shortBlocks + longBlocks }

    /// Data codewords the version holds at level M.
    var dataCodewords: Int { blocks * shortBlockLength + longBlocks }
    /// Data and error correction codewords together.
    var codewords: Int { dataCodewords + blocks * errorCorrectionPerBlock }

    /// Bits of the byte mode's character count: 8 up to version 9, 16 from version 10.
    var byteCountBits: Int { number <= 9 ? 8 : 16 }

    /// The rows (and columns) of the alignment patterns' centres, from 6 to `width - 7`, evenly
    /// spaced after the first; none in version 1.
    var alignmentCentres: [Int] {
        guard number > 1 else { return [] }
        let count = number / 7 + 2
        let step = number < 7 ? 0 : Int(Self.alignmentSteps[number - 7])
        // The last centre is 7 modules in from the edge and the ones before it `step` apart;
        // only the gap after 6 is whatever is left.
        return [6] + (0..<count - 1).reversed().map { width - 7 - $0 * step }
    }

    /// The 18 bits of version information (6 bits of version, 12 of BCH code), for versions 7
    /// and up; nil below.
    var versionInformation: Int? {
        number < 7 ? nil : Int(Self.versionInformationBits[number - 7])
    }

    /// The format information of every code we make: level M (00) and mask pattern 2 (010),
    /// with their BCH code and XORed with 101010000010010, as in the standard's Table C.1.
    static let formatInformation = 0x5E7C

    /// The smallest version whose data codewords hold `bits`, or version 40 when none does, as
    /// libqrencode answers: its caller then finds that the bits do not fit.
    static func smallest(holding bits: Int) -> QRVersion {
        let bytes = (bits + 7) / 8
        return QRVersion(number: (capacities.firstIndex { $0 >= bytes } ?? 39) + 1)
    }

    /// `dataCodewords` of each version, version 1 first.
    private static let capacities: [Int] = (1...40).map { QRVersion(number: $0).dataCodewords }

    /// The block structure at level M (ISO/IEC 18004:2015 Table 9), version 1 first.
    private static let levelM:
        [(ecPerBlock: UInt8, shortBlocks: UInt8, shortLength: UInt8, longBlocks: UInt8)] = [
            (10, 1, 16, 0), (16, 1, 28, 0), (26, 1, 44, 0), (18, 2, 32, 0), (24, 2, 43, 0),
            (16, 4, 27, 0), (18, 4, 31, 0), (22, 2, 38, 2), (22, 3, 36, 2), (26, 4, 43, 1),
            (30, 1, 50, 4), (22, 6, 36, 2), (22, 8, 37, 1), (24, 4, 40, 5), (24, 5, 41, 5),
            (28, 7, 45, 3), (28, 10, 46, 1), (26, 9, 43, 4), (26, 3, 44, 11), (26, 3, 41, 13),
            (26, 17, 42, 0), (28, 17, 46, 0), (28, 4, 47, 14), (28, 6, 45, 14), (28, 8, 47, 13),
            (28, 19, 46, 4), (28, 22, 45, 3), (28, 3, 45, 23), (28, 21, 45, 7), (28, 19, 47, 10),
            (28, 2, 46, 29), (28, 10, 46, 23), (28, 14, 46, 21), (28, 14, 46, 23), (28, 12, 47, 26),
            (28, 6, 47, 34), (28, 29, 46, 14), (28, 13, 46, 32), (28, 40, 47, 7), (28, 18, 47, 31),
        ]

    /// The distance between alignment centres after the first gap, versions 7 to 40 (read off
    /// ISO/IEC 18004:2015 Table E.1; versions 2 to 6 have one centre besides 6).
    private static let alignmentSteps: [UInt8] = [
        16, 18, 20, 22, 24, 26, 28, 20, 22, 24, 24, 26, 28, 28, 22, 24, 24,
        26, 26, 28, 28, 24, 24, 26, 26, 26, 28, 28, 24, 26, 26, 26, 28, 28,
    ]

    /// Version information, versions 7 to 40 (ISO/IEC 18004:2015 Table D.1).
    private static let versionInformationBits: [UInt32] = [
        0x07C94, 0x085BC, 0x09A99, 0x0A4D3, 0x0BBF6, 0x0C762, 0x0D847, 0x0E60D, 0x0F928,
        0x10B78, 0x1145D, 0x12A17, 0x13532, 0x149A6, 0x15683, 0x168C9, 0x177EC, 0x18EC4,
        0x191E1, 0x1AFAB, 0x1B08E, 0x1CC1A, 0x1D33F, 0x1ED75, 0x1F250, 0x209D5, 0x216F0,
        0x228BA, 0x2379F, 0x24B0B, 0x2542E, 0x26A64, 0x27541, 0x28C69,
    ]
}
