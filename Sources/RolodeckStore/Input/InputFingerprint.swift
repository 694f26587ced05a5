import Synchronization
import RolodeckCore

/// A stable digest of everything a build reads, so that a build with nothing new to do can
/// say so without rendering: two 64-bit hashes with different multipliers over the config,
/// every store file, every site template and static file, the date ages are computed for, and
/// the generator itself (its version and binary, which carry the built-in theme).
///
/// The bytes are taken 8 at a time, each word multiplied in and its high bits folded down: every
/// build hashes the whole store, changed or not, before it can say there is nothing to do. It
/// is a check for change, not a defence against someone crafting a collision.
public struct InputFingerprint {
    private var first: UInt64 = 0xcbf2_9ce4_8422_2325
    private var second: UInt64 = 0x8422_2325_cbf2_9ce4

    /// The fingerprint of a site's input. Each store file goes in as its own digest (of its
    /// path and its bytes), made on every core, or taken from `storeDigests` (watch keeps one between
    /// rebuilds) for a file taken over unread: a save then hashes the files it read, not the
    /// 70 MB of a store of 100,000 contacts.
    public static func of(
        _ input: SiteInput, today: PartialDate, lastUpdated: PartialDate? = nil, generator: [UInt8],
        storeDigests: StoreDigests? = nil
    ) -> String {
        var hasher = InputFingerprint()
        hasher.add(generator)
        hasher.add(Array(today.description.utf8))
        // The pages' footer shows it: a store touched without a change of bytes renders anew.
        if let lastUpdated { hasher.add(Array(("updated " + lastUpdated.description).utf8)) }
        hasher.add(input.configBytes)
        let digests =
            storeDigests?.digests(of: input.storeFiles) ?? StoreDigests.digests(of: input.storeFiles)
        hasher.mix(UInt64(digests.count))
        for digest in digests {
            hasher.mix(digest.0)
            hasher.mix(digest.1)
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

    /// The digest of one run of bytes, such as the generator's.
    public static func digest(_ bytes: [UInt8]) -> String {
        var hasher = InputFingerprint()
        hasher.add(bytes)
        return hasher.hex
    }

    /// Adds one part; its length goes in first, so that parts cannot run into each other.
    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// Adds one part from memory, as `add` adds an array of the same bytes.
    mutating func add(_ raw: UnsafeRawBufferPointer) {
        mix(UInt64(raw.count))
        do {
            var first = self.first
            var second = self.second
            var offset = 0
            // Blocks of 32 bytes go into four lanes per hash: each step waits for the multiply
            // before it, so four independent chains keep the multiplier busy where one would
            // leave it idle. The lanes are folded in after the blocks.
            if raw.count >= 32 {
                var firstLanes = Lanes(first, by: Self.firstMultiplier)
                var secondLanes = Lanes(second, by: Self.secondMultiplier)
                while offset + 32 <= raw.count {
                    let words = (
                        raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self),
                        raw.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)
                    )
                    firstLanes.step(words, by: Self.firstMultiplier)
                    secondLanes.step(words, by: Self.secondMultiplier)
                    offset += 32
                }
                first = firstLanes.folded(into: first, by: Self.firstMultiplier)
                second = secondLanes.folded(into: second, by: Self.secondMultiplier)
            }
            while offset + 8 <= raw.count {
                let word = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                first = Self.step(first, word, by: Self.firstMultiplier)
                second = Self.step(second, word, by: Self.secondMultiplier)
                offset += 8
            }
            // The last few bytes as one more word; the length above tells its zeros from data.
            var tail: UInt64 = 0
            for (position, byte) in raw[offset...].enumerated() {
                tail |= UInt64(byte) << (8 * position)
            }
            self.first = Self.step(first, tail, by: Self.firstMultiplier)
            self.second = Self.step(second, tail, by: Self.secondMultiplier)
        }
    }

    /// Four hashes run side by side over the words of 32-byte blocks, started apart from one
    /// state and folded back into one.
    private struct Lanes {
        var lanes: (UInt64, UInt64, UInt64, UInt64)

        init(_ hash: UInt64, by multiplier: UInt64) {
            func start(_ lane: UInt64) -> UInt64 { InputFingerprint.step(hash, lane, by: multiplier) }
            lanes = (start(1), start(2), start(3), start(4))
        }

        @inline(__always)
        mutating func step(_ words: (UInt64, UInt64, UInt64, UInt64), by multiplier: UInt64) {
            lanes = (
                InputFingerprint.step(lanes.0, words.0, by: multiplier),
                InputFingerprint.step(lanes.1, words.1, by: multiplier),
                InputFingerprint.step(lanes.2, words.2, by: multiplier),
                InputFingerprint.step(lanes.3, words.3, by: multiplier)
            )
        }

        /// The lanes stepped into `hash` one after the other. (Stepping one lane into another
        /// would depend on their bitwise difference only, and flipping the top bit of any word
        /// changes its lane by the same constant: two such flips in one block would cancel.)
        func folded(into hash: UInt64, by multiplier: UInt64) -> UInt64 {
            var hash = InputFingerprint.step(hash, lanes.0, by: multiplier)
            hash = InputFingerprint.step(hash, lanes.1, by: multiplier)
            hash = InputFingerprint.step(hash, lanes.2, by: multiplier)
            return InputFingerprint.step(hash, lanes.3, by: multiplier)
        }
    }

    private static let firstMultiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    private static let secondMultiplier: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// One word into a hash: multiplied in, then the high bits folded down, so that a change
    /// in any bit reaches every bit of the next steps.
    @inline(__always)
    fileprivate static func step(_ hash: UInt64, _ word: UInt64, by multiplier: UInt64) -> UInt64 {
        let mixed = (hash ^ word) &* multiplier
        return mixed ^ (mixed >> 29)
    }

    mutating func mix(_ word: UInt64) {
        first = Self.step(first, word, by: Self.firstMultiplier)
        second = Self.step(second, word, by: Self.secondMultiplier)
    }

    /// The two hashes.
    var words: (UInt64, UInt64) { (first, second) }

    /// The two hashes of a store file: its path and its bytes.
    static func words(of file: StoreFile) -> (UInt64, UInt64) {
        var hasher = InputFingerprint()
        var path = file.source.path
        path.withUTF8 { hasher.add(UnsafeRawBufferPointer($0)) }
        hasher.add(file.source.bytes)
        return hasher.words
    }

    /// The digest as 32 hexadecimal digits.
    var hex: String {
        [first, second].map { value in
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}

/// Each store file's digest, as the fingerprint takes it in, kept between the rebuilds of a
/// watched site: a file at the place it had, with the very text it had (the reader takes
/// unchanged files over as they were), has the digest it had.
public final class StoreDigests: Sendable {
    private let kept = Mutex<(files: ChunkedArray<StoreFile>, digests: [(UInt64, UInt64)])>(([], []))

    /// Creates an empty cache.
    public init() {}

    /// The digest of each of `files`, made for those that are not the last call's, and kept.
    /// Only the files outside the chunks they share with the last call's are looked at.
    func digests(of files: ChunkedArray<StoreFile>) -> [(UInt64, UInt64)] {
        // Taken out, so that the digests are changed in place below, not copied.
        let lastFiles: ChunkedArray<StoreFile>
        var digests: [(UInt64, UInt64)]
        (lastFiles, digests) = kept.withLock { state in
            defer { state = ([], []) }
            return state
        }
        if digests.count > files.count { digests.removeSubrange(files.count...) }
        for range in files.rangesNotShared(with: lastFiles) {
            // Nil for a file that is the last call's, whose digest is in place.
            let fresh = ParallelWork.map(range.count, batch: 256) { offset -> (UInt64, UInt64)? in
                let position = range.lowerBound + offset
                if position < lastFiles.count, lastFiles[position].source === files[position].source {
                    return nil
                }
                return InputFingerprint.words(of: files[position])
            }
            for (offset, digest) in fresh.enumerated() {
                guard let digest else { continue }
                let position = range.lowerBound + offset
                if position < digests.count {
                    digests[position] = digest
                } else {
                    digests.append(digest)
                }
            }
        }
        kept.withLock { $0 = (files, digests) }
        return digests
    }

    /// The digest of each of `files`.
    static func digests(of files: ChunkedArray<StoreFile>) -> [(UInt64, UInt64)] {
        ParallelWork.map(files.count, batch: 64) { InputFingerprint.words(of: files[$0]) }
    }
}
