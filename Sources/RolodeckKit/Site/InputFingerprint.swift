/// A stable digest of everything a build reads, so that a build with nothing new to do can
/// say so without rendering: two 64-bit hashes with different multipliers over the config,
/// every store file, every site template and static file, the date ages are computed for, and
/// the generator itself (its version and binary, which carry the built-in theme).
///
/// The bytes are taken 8 at a time, each word multiplied in and its high bits folded down:
/// a million contacts are 700 MB of store, which byte-at-a-time FNV-1a took most of a second to
/// read, on every build, changed or not. It is a check for change, not a defence against
/// someone crafting a collision.
public struct InputFingerprint {
    private var first: UInt64 = 0xcbf2_9ce4_8422_2325
    private var second: UInt64 = 0x8422_2325_cbf2_9ce4

    /// The fingerprint of a site's input.
    public static func of(_ input: SiteInput, today: PartialDate, generator: [UInt8]) -> String {
        var hasher = InputFingerprint()
        hasher.add(generator)
        hasher.add(Array(today.description.utf8))
        hasher.add(input.configBytes)
        for file in input.storeFiles {
            hasher.add(Array(file.source.path.utf8))
            hasher.add(file.source.bytes)
        }
        for name in input.templates.keys.sorted() {
            hasher.add(Array(name.utf8))
            hasher.add(input.templates[name]!.bytes)
        }
        for path in input.assets.keys.sorted() {
            hasher.add(Array(path.utf8))
            hasher.add(input.assets[path]!)
        }
        return hasher.hex
    }

    /// Adds one part; its length goes in first, so that parts cannot run into each other.
    mutating func add(_ bytes: [UInt8]) {
        mix(UInt64(bytes.count))
        bytes.withUnsafeBytes { raw in
            var first = self.first
            var second = self.second
            let words = raw.count / 8
            for index in 0..<words {
                let word = raw.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)
                first = Self.step(first, word, by: Self.firstMultiplier)
                second = Self.step(second, word, by: Self.secondMultiplier)
            }
            // The last few bytes as one more word; the length above tells its zeros from data.
            var tail: UInt64 = 0
            for (position, byte) in raw[(words * 8)...].enumerated() {
                tail |= UInt64(byte) << (8 * position)
            }
            self.first = Self.step(first, tail, by: Self.firstMultiplier)
            self.second = Self.step(second, tail, by: Self.secondMultiplier)
        }
    }

    private static let firstMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let secondMultiplier: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// One word into a hash: multiplied in, then the high bits folded down, so that a change
    /// in any bit reaches every bit of the next steps.
    @inline(__always)
    private static func step(_ hash: UInt64, _ word: UInt64, by multiplier: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* multiplier
        return mixed ^ (mixed >> 29)
    }

    private mutating func mix(_ word: UInt64) {
        first = Self.step(first, word, by: Self.firstMultiplier)
        second = Self.step(second, word, by: Self.secondMultiplier)
    }

    /// The digest as 32 hexadecimal digits.
    var hex: String {
        [first, second].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
