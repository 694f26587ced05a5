import RolodeckCore

/// The statuses of many files, each with the path it was opened by, summed up without an order:
/// each file's path and status are hashed (`InputFingerprint`'s two 64-bit hashes) and the
/// hashes added up, with the count of files and the newest time among them.
///
/// A sum, not the hash of a sorted list, so that the files can be looked at on every core and
/// each added where it was looked at, in any order, without ever making its path a `String`:
/// a build with nothing to do looks at every file of a store of a file per card. The sum of
/// two sets of files differs unless they are the same files with the same statuses, but for
/// chance (a check for change, like the input fingerprint, not a defence against someone
/// crafting a collision): a file changed, added, removed or renamed changes its own term.
public struct FileStatusDigest: Equatable, Sendable {
    /// How many files were added.
    public private(set) var count = 0
    /// The sums of the files' two hashes.
    private(set) var sums: (UInt64, UInt64) = (0, 0)
    /// The latest modification or change time of any file added, in nanoseconds since 1970.
    public private(set) var newest: Int64 = .min

    /// An empty digest.
    public init() {}

    public static func == (lhs: FileStatusDigest, rhs: FileStatusDigest) -> Bool {
        lhs.count == rhs.count && lhs.sums == rhs.sums && lhs.newest == rhs.newest
    }

    /// Adds a file by the path it was opened by.
    public mutating func add(_ status: FileStatus, path: String) {
        var path = path
        path.withUTF8 { add(status, path: UnsafeRawBufferPointer($0)) }
    }

    /// Adds a file by the bytes of the path it was opened by.
    mutating func add(_ status: FileStatus, path: UnsafeRawBufferPointer) {
        var hasher = InputFingerprint()
        hasher.add(path)
        hasher.mix(status.device)
        hasher.mix(status.inode)
        hasher.mix(UInt64(bitPattern: status.size))
        hasher.mix(UInt64(bitPattern: status.modified))
        hasher.mix(UInt64(bitPattern: status.changed))
        let words = hasher.words
        sums = (sums.0 &+ words.0, sums.1 &+ words.1)
        count += 1
        newest = max(newest, status.modified, status.changed)
    }

    /// Adds every file of another digest.
    public mutating func add(_ other: FileStatusDigest) {
        sums = (sums.0 &+ other.sums.0, sums.1 &+ other.sums.1)
        count += other.count
        newest = max(newest, other.newest)
    }

    /// The text a digest of the whole is made of: the count and the two sums.
    public var summary: String {
        "\(count) \(String(sums.0, radix: 16)) \(String(sums.1, radix: 16))"
    }
}
