#if canImport(Glibc)
    import Glibc
#endif

/// What tells one version of a file from another without reading it: its device, inode, size,
/// and modification and change times.
public struct FileStatus: Equatable, Sendable {
    /// The device the file is on.
    public var device: UInt64
    /// The file's inode: another file saved over it by a rename has another.
    public var inode: UInt64
    /// Its size in bytes.
    public var size: Int64
    /// When its bytes last changed, in nanoseconds since 1970.
    public var modified: Int64
    /// When its bytes or status last changed, in nanoseconds since 1970.
    public var changed: Int64

    /// A status from its parts.
    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        (self.device, self.inode, self.size, self.modified, self.changed) = (device, inode, size, modified, changed)
    }

    /// The status `stat` gave.
    public init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
    }

    /// The time now, in nanoseconds since 1970, as file times count it.
    public static func now() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
