/// The inputs the benchmarks run over, made once from a fixed seed: byte runs and keys of the
/// lengths a build of the demo-like stores sees, in one pool so that reading them is not what
/// is measured.
struct Inputs {
    /// Text bytes: letters, digits, spaces and punctuation, a few multi-byte characters.
    let text: [UInt8]
    /// Offsets and lengths of runs in `text`, 2 to 16 bytes (template text between tags).
    let shortRuns: [(offset: Int, count: Int)]
    /// Offsets and lengths of runs in `text`, 4 to 40 bytes (interpolated values, JSON strings).
    let valueRuns: [(offset: Int, count: Int)]
    /// Search keys, 2 to 30 UTF-16 units, one after another in `units`.
    let units: [UInt16]
    /// Where each key starts in `units`, and its length.
    let keys: [(offset: Int, count: Int)]
    /// The same keys sorted, as arrays: neighbours share prefixes as in an encoded piece.
    let sortedKeys: [[UInt16]]

    private struct Walk {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    init(runs: Int) {
        var walk = Walk(state: 0x9E37_79B9_7F4A_7C15)
        // Most values have no byte to escape; about one in forty bytes is punctuation.
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789      .,-@".utf8)
        let rare = Array("&<>\"'\\ëé".utf8)
        text = (0..<(1 << 20)).map { _ in
            walk.next(40) == 0 ? rare[walk.next(rare.count)] : alphabet[walk.next(alphabet.count)]
        }
        func run(_ lowest: Int, _ highest: Int) -> (offset: Int, count: Int) {
            let count = lowest + walk.next(highest - lowest + 1)
            return (walk.next((1 << 20) - count), count)
        }
        shortRuns = (0..<runs).map { _ in run(2, 16) }
        valueRuns = (0..<runs).map { _ in run(4, 40) }
        var units: [UInt16] = []
        var keys: [(offset: Int, count: Int)] = []
        // Keys from a small vocabulary of stems, so that many share a prefix.
        let stems = (0..<200).map { _ in (0..<(1 + walk.next(6))).map { _ in UInt16(0x61 + walk.next(26)) } }
        for _ in 0..<runs {
            var key = stems[walk.next(stems.count)]
            while key.count < 2 + walk.next(29) { key.append(UInt16(0x61 + walk.next(26))) }
            key = Array(key.prefix(30))
            keys.append((units.count, key.count))
            units += key
        }
        self.units = units
        self.keys = keys
        sortedKeys = keys.map { Array(units[$0.offset..<$0.offset + $0.count]) }.sorted {
            $0.lexicographicallyPrecedes($1)
        }
    }
}
