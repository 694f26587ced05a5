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
        let size = size, words = wordsPerRow
        let rowBytes = (size + 7) / 8
        // Each row: filter type 0 (none), then the pixels, eight to a byte, leftmost the highest
        // bit, 1 for white.
        var pixels = [UInt8](repeating: 0, count: size * (rowBytes + 1))
        rows.withUnsafeBufferPointer { rows in
            /// Modules `first` to `first + 7` of row `y` (the quiet zone and beyond light), bit
            /// `i` set when module `first + i` is dark.
            func dark(_ y: Int, _ first: Int) -> UInt64 {
                guard y >= 0, y < width else { return 0 }
                let row = y * words
                if first < 0 { return rows[row] << UInt64(-first) & 0xFF }
                let word = first >> 6, shift = first & 63
                guard word < words else { return 0 }
                var bits = rows[row + word] >> UInt64(shift)
                if shift > 56, word + 1 < words { bits |= rows[row + word + 1] << UInt64(64 - shift) }
                return bits & 0xFF
            }
            for y in 0..<size {
                let start = y * (rowBytes + 1)
                for byte in 0..<rowBytes {
                    let bits = UInt8(dark(y - Self.quietZone, byte * 8 - Self.quietZone))
                    pixels[start + 1 + byte] = ~Self.reversed(bits)
                }
            }
        }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(pixels.count + pixels.count / 65_535 * 5 + 64)
        var header: [UInt8] = []
        PNGChunk.appendBigEndian(UInt32(size), to: &header)
        PNGChunk.appendBigEndian(UInt32(size), to: &header)
        // Bit depth 1, greyscale, deflate, adaptive filtering (each row says its own), no interlace.
        header += [1, 0, 0, 0, 0]
        PNGChunk.append("IHDR", header, to: &png)
        PNGChunk.append("IDAT", PNGChunk.storedZlib(pixels), to: &png)
        PNGChunk.append("IEND", [], to: &png)
        return png
    }

    /// `byte` with its bits in the opposite order.
    private static func reversed(_ byte: UInt8) -> UInt8 {
        var byte = byte
        byte = (byte & 0xF0) >> 4 | (byte & 0x0F) << 4
        byte = (byte & 0xCC) >> 2 | (byte & 0x33) << 2
        return (byte & 0xAA) >> 1 | (byte & 0x55) << 1
    }
}

/// The pieces of a PNG file (RFC 2083, and the zlib format of RFC 1950 that holds its pixels).
enum PNGChunk {
    /// Appends a chunk: its length, its type, `data` and the CRC-32 of type and data.
    static func append(_ type: String, _ data: [UInt8], to png: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &png)
        let start = png.count
        png += type.utf8
        png += data
        appendBigEndian(crc32(png[start...]), to: &png)
    }

    /// `data` as a zlib stream of stored (uncompressed) deflate blocks, with its Adler-32.
    static func storedZlib(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78 (deflate, 32 KB window), FLG 0x01 (no dictionary, fastest; 0x7801 % 31 == 0).
        var stream: [UInt8] = [0x78, 0x01]
        stream.reserveCapacity(data.count + data.count / 65_535 * 5 + 11)
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let isLast = start + count == data.count
            stream.append(isLast ? 1 : 0)
            stream += [UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8(~count >> 8 & 0xFF)]
            stream += data[start..<start + count]
            start += count
        } while start < data.count
        appendBigEndian(adler32(data), to: &stream)
        return stream
    }

    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// The CRC-32 (ISO 3309, reflected, polynomial 0xEDB88320) of `bytes`.
    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ crc >> 8 }
        return ~crc
    }

    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index)
        for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ crc >> 1 : crc >> 1 }
        return crc
    }

    /// The Adler-32 of `bytes`: its two sums modulo 65,521, taken every 5,552 bytes (the most
    /// that cannot overflow 32 bits).
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 5_552)
            for byte in bytes[start..<end] {
                a &+= UInt32(byte)
                b &+= a
            }
            a %= 65_521
            b %= 65_521
            start = end
        }
        return b << 16 | a
    }
}
