import CQRencode

/// A QR code: its modules, dark or light, encoded by libqrencode from bytes.
///
/// The one file that imports libqrencode: the symbol it returns is copied out and freed before
/// `init` returns, so no C pointer outlives it.
public struct QRCode: Sendable, Equatable {
    /// How many modules a side has (21 for version 1, 4 more for each version after it).
    public let width: Int
    /// The modules as bits, row by row from the top left, `wordsPerRow` words a row: bit
    /// `x % 64` of word `x / 64` is set when module `x` is dark. Bits, so that `png` takes eight
    /// modules at a time, where a test of each module mispredicted a branch for about every other
    /// one (QR modules look random, on purpose).
    private let rows: [UInt64]

    /// The light modules around the code that readers need to find it: four, as the standard asks.
    public static let quietZone = 4

    /// The ECI number that says the bytes are UTF-8.
    private static let utf8ECI: UInt32 = 26

    /// The mask pattern every code uses. Choosing the best of the eight by the standard's penalty
    /// score, as libqrencode does by default, took 13 times as long as the rest of the encoding
    /// (0.36 ms against 0.027 ms for a 250-byte card) and made a 20,000-contact build take twelve
    /// times the CPU; any mask gives a valid code, and the penalty only steers away from patterns
    /// that make some readers slower. Pattern 2 (every third column) is as good as any other:
    /// zbarimg reads every code of the demo with it (Tests/Export/check_exports.py).
    private static let mask: Int32 = 2

    /// Encodes `bytes` in byte mode with medium error correction (a code that survives a glare
    /// or a smudge on the screen, at fewer modules than the higher levels); nil when they do not
    /// fit in the largest code, or libqrencode fails.
    ///
    /// Bytes beyond ASCII are marked as UTF-8 (ECI 26): byte mode has no charset of its own,
    /// and a reader left to guess takes "Müller" or "田中" for Shift_JIS or Latin-1 (zbarimg
    /// does). ASCII is left unmarked, which every reader reads alike.
    public init?(encoding bytes: [UInt8]) {
        guard !bytes.isEmpty else { return nil }
        // Version 0: the smallest version the data fits in.
        guard let input = QRinput_new2(0, QR_ECLEVEL_M) else { return nil }
        defer { QRinput_free(input) }
        if bytes.contains(where: { $0 >= 0x80 }) {
            guard QRinput_appendECIheader(input, Self.utf8ECI) == 0 else { return nil }
        }
        let appended = bytes.withUnsafeBufferPointer {
            QRinput_append(input, QR_MODE_8, Int32($0.count), $0.baseAddress)
        }
        guard appended == 0, let symbol = QRcode_encodeMask(input, Self.mask) else { return nil }
        defer { QRcode_free(symbol) }
        let width = Int(symbol.pointee.width)
        guard width > 0, let data = symbol.pointee.data else { return nil }
        // Bit 0 of each byte is the module's colour; the other bits say what libqrencode put there.
        let words = (width + 63) / 64
        var rows = [UInt64](repeating: 0, count: width * words)
        let raw = UnsafeRawPointer(data)
        for y in 0..<width {
            var x = 0
            // Eight modules at a time: their bytes' low bits gathered into the top byte of one
            // product (bit 8i moved up by 56 - 7i), in little-endian byte order.
            while x + 8 <= width {
                let eight = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: y * width + x, as: UInt64.self))
                let bits = ((eight & 0x0101_0101_0101_0101) &* 0x0102_0408_1020_4080) >> 56
                rows[y * words + x >> 6] |= bits << (x & 63)
                x += 8
            }
            while x < width {
                rows[y * words + x >> 6] |= UInt64(data[y * width + x] & 1) << (x & 63)
                x += 1
            }
        }
        self.rows = rows
        self.width = width
    }

    /// How many words of `rows` hold a row.
    private var wordsPerRow: Int { (width + 63) / 64 }

    /// Whether the module at column `x` and row `y` is dark.
    public func isDark(x: Int, y: Int) -> Bool {
        rows[y * wordsPerRow + x >> 6] >> (x & 63) & 1 == 1
    }

    /// Whether each module is dark, row by row from the top left.
    public var modules: [Bool] {
        (0..<width * width).map { isDark(x: $0 % width, y: $0 / width) }
    }

    /// The side of the drawing in modules, quiet zone included.
    public var size: Int { width + 2 * Self.quietZone }

    /// The code as a PNG image of one pixel a module, the quiet zone included (`size` pixels a
    /// side): 1-bit greyscale, dark modules black, for an `<img>` the page scales up with
    /// `image-rendering: pixelated`.
    ///
    /// A PNG, not an SVG path: the path of one rectangle a run of dark modules was 9 to 13 KB,
    /// four fifths of a contact page and of the whole site's bytes. The image's pixels are
    /// 10 to 24 bytes a row and kept in stored (uncompressed) deflate blocks: deflating saves
    /// only about a sixth of a code's bytes, which are random by design, and zlib took three
    /// times as long as the rest of the encoding for it (about 27 µs a code).
    public var png: [UInt8] {
        let size = size, width = width, words = wordsPerRow
        return rows.withUnsafeBufferPointer { rows in
            PNGChunk.greyscaleImage(side: size) { y, pixels in
                // Row y of the image is module row y - 4; light above and below the code.
                let row = y - Self.quietZone
                guard row >= 0, row < width else {
                    pixels.update(repeating: 0xFF)
                    return
                }
                let first = row * words
                /// Modules `column` to `column + 7` of the row (the quiet zone and beyond light),
                /// bit `i` set when module `column + i` is dark.
                func dark(_ column: Int) -> UInt64 {
                    if column < 0 { return rows[first] << UInt64(-column) & 0xFF }
                    let word = column >> 6, shift = column & 63
                    guard word < words else { return 0 }
                    var bits = rows[first + word] >> UInt64(shift)
                    if shift > 56, word + 1 < words { bits |= rows[first + word + 1] << UInt64(64 - shift) }
                    return bits & 0xFF
                }
                for byte in pixels.indices {
                    pixels[byte] = ~Self.reversed(UInt8(dark(byte * 8 - Self.quietZone)))
                }
            }
        }
    }

    /// `byte` with its bits in the opposite order.
    private static func reversed(_ byte: UInt8) -> UInt8 {
        var byte = byte
        byte = (byte & 0xF0) >> 4 | (byte & 0x0F) << 4
        byte = (byte & 0xCC) >> 2 | (byte & 0x33) << 2
        return (byte & 0xAA) >> 1 | (byte & 0x55) << 1
    }
}

