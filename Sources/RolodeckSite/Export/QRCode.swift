import CQRencode

/// A QR code: its modules, dark or light, encoded by libqrencode from bytes.
///
/// The one file that imports libqrencode: the symbol it returns is copied out and freed before
/// `init` returns, so no C pointer outlives it.
public struct QRCode: Sendable, Equatable {
    /// How many modules a side has (21 for version 1, 4 more for each version after it).
    public let width: Int
    /// The modules as bits, row by row from the top left, `wordsPerRow` words a row: bit
    /// `x % 64` of word `x / 64` is set when module `x` is dark. Bits, so that `svgPath` finds a
    /// row's runs of dark modules by counting zeros a word at a time, where a test of each module
    /// mispredicted a branch for about every other one (QR modules look random, on purpose).
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
        for y in 0..<width {
            for x in 0..<width {
                rows[y * words + x >> 6] |= UInt64(data[y * width + x] & 1) << (x & 63)
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

    /// The dark modules as the `d` of one SVG path, in module units with the quiet zone around
    /// them: each run of dark modules in a row is one rectangle (`M x y h n v 1 h -n z`), which
    /// keeps the path short and leaves no seams between neighbouring modules.
    ///
    /// A run starts at a dark module whose left neighbour is light and ends at one whose right
    /// neighbour is light; both are found for 64 modules at once by shifting a row's words, and
    /// taken in order by counting trailing zeros. The text goes straight into the string's
    /// storage, sized by counting the starts first. A 20,000-contact build spent a third of its
    /// time outside libqrencode interpolating these numbers into strings, then, testing module
    /// by module, still 16 % of its CPU here.
    public var svgPath: String {
        let width = width, words = wordsPerRow
        return rows.withUnsafeBufferPointer { rows in
            /// Word `k` of row `y`'s starts of runs.
            func starts(_ y: Int, _ k: Int) -> UInt64 {
                let word = rows[y * words + k]
                let before = k > 0 ? rows[y * words + k - 1] >> 63 : 0
                return word & ~(word << 1 | before)
            }
            /// Word `k` of row `y`'s ends of runs (the last dark module of each).
            func ends(_ y: Int, _ k: Int) -> UInt64 {
                let word = rows[y * words + k]
                let after = k + 1 < words ? rows[y * words + k + 1] << 63 : 0
                return word & ~(word >> 1 | after)
            }
            var runs = 0
            for y in 0..<width {
                for k in 0..<words { runs += starts(y, k).nonzeroBitCount }
            }
            // A run writes at most 20 bytes: "M", " ", "h", "v1h-", "z" and four numbers below
            // 1,000 (a side is at most 177 modules, 185 with the quiet zone) of which the last two
            // are the same.
            return String(unsafeUninitializedCapacity: runs * 20) { path in
                var count = 0
                func put(_ byte: UInt8) {
                    path[count] = byte
                    count += 1
                }
                func put(_ number: Int) {
                    if number >= 100 { put(UInt8(ascii: "0") + UInt8(number / 100)) }
                    if number >= 10 { put(UInt8(ascii: "0") + UInt8(number / 10 % 10)) }
                    put(UInt8(ascii: "0") + UInt8(number % 10))
                }
                for y in 0..<width {
                    var endWord = 0
                    var pendingEnds = ends(y, 0)
                    for k in 0..<words {
                        var pendingStarts = starts(y, k)
                        while pendingStarts != 0 {
                            let start = k << 6 + pendingStarts.trailingZeroBitCount
                            pendingStarts &= pendingStarts - 1
                            // Every start has its end at or after it, in the same order.
                            while pendingEnds == 0 {
                                endWord += 1
                                pendingEnds = ends(y, endWord)
                            }
                            let run = endWord << 6 + pendingEnds.trailingZeroBitCount + 1 - start
                            pendingEnds &= pendingEnds - 1
                            put(UInt8(ascii: "M"))
                            put(start + Self.quietZone)
                            put(UInt8(ascii: " "))
                            put(y + Self.quietZone)
                            put(UInt8(ascii: "h"))
                            put(run)
                            for byte in "v1h-".utf8 { put(byte) }
                            put(run)
                            put(UInt8(ascii: "z"))
                        }
                    }
                }
                return count
            }
        }
    }
}
