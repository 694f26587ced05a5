import Synchronization

/// What every code of one version has in common, worked out once for the version: its function
/// patterns, the mask over its data modules, and where each bit of its codewords goes.
///
/// A code is then a copy of `rows` with its codeword bits XORed in along `runs`: the mask
/// pattern (2, dark where the column is a multiple of 3) is already on every data module, and
/// XOR with a data bit gives the masked module the standard asks for.
struct QRTemplate: Sendable {
    /// How many modules a side has.
    let width: Int
    /// The modules as `QRCode` keeps them (bit `x % 64` of word `x / 64` set when module `x` is
    /// dark): function patterns, format and version information in their colours, and every data
    /// module dark where mask pattern 2 is.
    let rows: [UInt64]
    /// Where the codeword bits go, in runs down or up a column or two.
    let runs: [Run]

    /// Bits of the interleaved codewords, all in one 64-bit word of them, that go to consecutive
    /// rows of one column or of two neighbouring columns (then the first bit of each two to the
    /// right one). Row after row, `bitsPerRow` bits are taken and the first one or two of them
    /// XORed in: a column beside a function pattern takes one bit a row; each column of a pair
    /// whose rows lie across two words of `rows` takes one of every two.
    struct Run: Sendable {
        /// The modules of a row the run sets, where the bits are after moving down by `down`.
        let mask: UInt64
        /// Where the first bit is in the codewords, from the first bit of the first.
        let bit: UInt16
        /// The word of `rows` that the first row's bits go to.
        let word: UInt16
        /// How far a row's bits move down from the top of a word to their columns.
        let down: UInt8
        /// Bits taken a row: 1 or 2.
        let bitsPerRow: UInt8
        /// How many rows.
        let count: UInt8
        /// Words of `rows` from one row to the next: the row's width up or down.
        let step: Int8
    }

    /// The template of each version made so far. Made when first needed: a site's cards take a
    /// handful of versions, and a template costs about what 35 codes do.
    private static let made = Mutex<[QRTemplate?]>(Array(repeating: nil, count: 41))

    /// The template of `version`, made the first time it is asked for.
    static func of(_ version: QRVersion) -> QRTemplate {
        if let template = made.withLock({ $0[version.number] }) { return template }
        // Made outside the lock: two threads may both make one, and the first to finish keeps it.
        let template = QRTemplate(version)
        return made.withLock { made in
            if let earlier = made[version.number] { return earlier }
            made[version.number] = template
            return template
        }
    }

    private init(_ version: QRVersion) {
        let width = version.width
        let modules = QRFunctionPatterns(version)
        let wordsPerRow = (width + 63) / 64
        var rows = [UInt64](repeating: 0, count: width * wordsPerRow)
        for y in 0..<width {
            for x in 0..<width {
                let dark = modules.isFunction(x, y) ? modules.isDark(x, y) : x % 3 == 0
                if dark { rows[y * wordsPerRow + x / 64] |= 1 << (x % 64) }
            }
        }
        self.width = width
        self.rows = rows
        self.runs = Self.runs(modules, codewordBits: 8 * version.codewords, wordsPerRow: wordsPerRow)
    }

    /// The runs that put `codewordBits` bits in the data modules in the order of the standard
    /// (section 7.7.3): up and down columns two modules wide from the bottom right, right module
    /// first, skipping the vertical timing pattern. The data modules past the last codeword
    /// (the remainder bits, 0 to 7) keep the mask's colour, which is what a 0 bit gives.
    private static func runs(_ modules: QRFunctionPatterns, codewordBits: Int, wordsPerRow: Int) -> [Run] {
        let width = modules.width
        var runs: [Run] = []
        /// A run being extended: its first bit and row, its rightmost column, modules and bits a
        /// row, rows so far, and direction.
        struct Open {
            var bit: Int, y: Int, x: Int, modules: Int, bitsPerRow: Int, count: Int, up: Bool
        }
        // One run open for each way a row of a column pair can take its bits: both modules, the
        // right one, the left one.
        var open: [Open?] = [nil, nil, nil]

        func close(_ lane: Int) {
            guard let run = open[lane] else { return }
            runs.append(
                Run(
                    mask: (1 << run.modules - 1) << (run.x % 64), bit: UInt16(run.bit),
                    word: UInt16(run.y * wordsPerRow + run.x / 64),
                    down: UInt8(64 - run.modules - run.x % 64),
                    bitsPerRow: UInt8(run.bitsPerRow), count: UInt8(run.count),
                    step: Int8(run.up ? -wordsPerRow : wordsPerRow)))
            open[lane] = nil
        }
        /// Puts bits from `bit` in `modules` modules of row `y`, the rightmost at column `x`,
        /// taking `bitsPerRow` bits a row.
        func place(_ lane: Int, bit: Int, x: Int, y: Int, modules: Int, bitsPerRow: Int, up: Bool) {
            guard bit < codewordBits else { return }
            if let run = open[lane], run.x == x, run.modules == modules, run.bitsPerRow == bitsPerRow,
                run.up == up, y == run.y + (up ? -run.count : run.count),
                bit == run.bit + run.count * bitsPerRow, run.bit / 64 == (bit + modules - 1) / 64
            {
                open[lane]!.count += 1
                return
            }
            close(lane)
            open[lane] = Open(
                bit: bit, y: y, x: x, modules: modules, bitsPerRow: bitsPerRow, count: 1, up: up)
        }

        var bit = 0
        var right = width - 1
        var up = true
        while right > 0 {
            if right == 6 { right = 5 }
            for step in 0..<width {
                let y = up ? width - 1 - step : step
                switch (!modules.isFunction(right, y), !modules.isFunction(right - 1, y)) {
                case (true, true):
                    // Two bits in one XOR when they are in one word of the codewords and their
                    // modules in one word of the row; else each column takes one of every two.
                    if (right - 1) % 64 != 63, bit % 64 != 63 {
                        place(0, bit: bit, x: right - 1, y: y, modules: 2, bitsPerRow: 2, up: up)
                    } else {
                        place(1, bit: bit, x: right, y: y, modules: 1, bitsPerRow: 2, up: up)
                        place(2, bit: bit + 1, x: right - 1, y: y, modules: 1, bitsPerRow: 2, up: up)
                    }
                    bit += 2
                case (true, false):
                    place(1, bit: bit, x: right, y: y, modules: 1, bitsPerRow: 1, up: up)
                    bit += 1
                case (false, true):
                    place(2, bit: bit, x: right - 1, y: y, modules: 1, bitsPerRow: 1, up: up)
                    bit += 1
                case (false, false):
                    break
                }
            }
            up.toggle()
            right -= 2
        }
        for lane in open.indices { close(lane) }
        return runs
    }
}

/// The function patterns of one version, module by module (ISO/IEC 18004 section 6.3): finder
/// patterns and their separators, timing patterns, alignment patterns, the format information
/// (level M, mask 2), the dark module and the version information.
private struct QRFunctionPatterns {
    let width: Int
    /// 0 for a data module, 2 for a light function module, 3 for a dark one.
    private var kinds: [UInt8]

    init(_ version: QRVersion) {
        let width = version.width
        self.width = width
        kinds = Array(repeating: 0, count: width * width)

        // Finder patterns in three corners, each with its light separator: rings at distance 0
        // to 4 from the centre, dark but for the rings at 2 and 4.
        for (left, top) in [(0, 0), (width - 7, 0), (0, width - 7)] {
            for y in top - 1...top + 7 where 0 <= y && y < width {
                for x in left - 1...left + 7 where 0 <= x && x < width {
                    let ring = max(abs(x - left - 3), abs(y - top - 3))
                    set(x, y, dark: ring != 2 && ring != 4)
                }
            }
        }
        // Timing patterns along row 6 and column 6, dark on even modules.
        for index in 8..<width - 8 {
            set(index, 6, dark: index % 2 == 0)
            set(6, index, dark: index % 2 == 0)
        }
        // Alignment patterns at every pair of centres but the three the finders take.
        let centres = version.alignmentCentres
        let first = centres.first ?? 0, last = centres.last ?? 0
        for cy in centres {
            for cx in centres {
                if (cx == first && cy == first) || (cx == first && cy == last) || (cx == last && cy == first)
                {
                    continue
                }
                for y in cy - 2...cy + 2 {
                    for x in cx - 2...cx + 2 { set(x, y, dark: max(abs(x - cx), abs(y - cy)) != 1) }
                }
            }
        }
        // Format information, twice: bits 0 to 7 along row 8 from the right edge and down column
        // 8 from the top (past the timing pattern), bits 8 to 14 up column 8 from 7 above the
        // bottom and along row 8 leftwards from column 7 (past the timing pattern).
        let format = QRVersion.formatInformation
        for index in 0..<15 {
            let dark = format >> index & 1 == 1
            if index < 8 {
                set(width - 1 - index, 8, dark: dark)
                set(8, index < 6 ? index : index + 1, dark: dark)
            } else {
                set(8, width - 15 + index, dark: dark)
                set(index == 8 ? 7 : 14 - index, 8, dark: dark)
            }
        }
        set(8, width - 8, dark: true)
        // Version information, twice: 6 × 3 blocks above the bottom-left finder and left of
        // the top-right one, bit i at column i / 3 and row i % 3 of its block (and transposed).
        if let information = version.versionInformation {
            for index in 0..<18 {
                let dark = information >> index & 1 == 1
                set(index / 3, width - 11 + index % 3, dark: dark)
                set(width - 11 + index % 3, index / 3, dark: dark)
            }
        }
    }

    private mutating func set(_ x: Int, _ y: Int, dark: Bool) {
        kinds[y * width + x] = dark ? 3 : 2
    }

    /// Whether module (`x`, `y`) belongs to a function pattern.
    func isFunction(_ x: Int, _ y: Int) -> Bool { kinds[y * width + x] != 0 }

    /// Whether function module (`x`, `y`) is dark.
    func isDark(_ x: Int, _ y: Int) -> Bool { kinds[y * width + x] == 3 }
}
