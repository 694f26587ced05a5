/// A stable digest of everything a build reads, so that a build with nothing new to do can
/// say so without rendering: two 64-bit FNV-1a hashes with different starting points over the
/// config, every store file, every site template and static file, the date ages are computed
/// for, and the generator itself (its version and binary, which carry the built-in theme).
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
        var length = UInt64(bytes.count)
        for _ in 0..<8 {
            mix(UInt8(truncatingIfNeeded: length))
            length >>= 8
        }
        bytes.withUnsafeBufferPointer { buffer in
            var first = self.first
            var second = self.second
            for byte in buffer {
                first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
                second = (second ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            self.first = first
            self.second = second
        }
    }

    private mutating func mix(_ byte: UInt8) {
        first = (first ^ UInt64(byte)) &* 0x100_0000_01b3
        second = (second ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    /// The digest as 32 hexadecimal digits.
    var hex: String {
        [first, second].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
