/// A QR code: its modules, dark or light, encoded from bytes by `QREncoder`.
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

    /// Encodes `bytes` in byte mode with medium error correction (a code that survives a glare
    /// or a smudge on the screen, at fewer modules than the higher levels); nil when they do not
    /// fit in the largest code (or there are none).
    ///
    /// Bytes beyond ASCII are marked as UTF-8 (ECI 26): byte mode has no charset of its own,
    /// and a reader left to guess takes "Müller" or "田中" for Shift_JIS or Latin-1 (zbarimg
    /// does). ASCII is left unmarked, which every reader reads alike.
    public init?(encoding bytes: [UInt8]) {
        let marked = QREncoder.containsNonASCII(bytes)
        guard let code = QREncoder.encode(bytes, markedUTF8: marked) else { return nil }
        self.width = code.width
        self.rows = code.rows
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

