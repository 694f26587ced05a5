import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The bytes of the files a `SiteReader` read, each with the file's status when it was read, so
/// that reading a watched site again costs one `stat` per unchanged file.
///
/// A file counts as unchanged when its device, inode, size, modification and change times are
/// all the same. File times only move in steps of the kernel's clock tick (milliseconds, or
/// seconds on some file systems), so a file changed twice within one tick keeps its times; a
/// file whose change time was less than `margin` before it was read is therefore read again
/// every time until it has been still for that long (git's "racily clean" rule).
public final class InputFileCache: Sendable {
    private struct Signature: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var changed: Int64
    }

    private struct Entry {
        var signature: Signature
        var trusted: Bool
        var bytes: [UInt8]
        var pass: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var pass = 0
        var reads = 0
    }

    private let state = Mutex(State())
    private let margin: Int64

    /// Creates an empty cache; `marginNanoseconds` is how long a file must have been unchanged
    /// before it was read for its status alone to vouch for it (2 s by default).
    public init(marginNanoseconds: Int64 = 2_000_000_000) {
        margin = marginNanoseconds
    }

    /// How many files were read from disk rather than taken from the cache since the last call;
    /// resets the count.
    func takeReadCount() -> Int {
        state.withLock { state in
            defer { state.reads = 0 }
            return state.reads
        }
    }

    /// How many files the cache holds.
    var count: Int { state.withLock { $0.entries.count } }

    /// Starts a reading of the whole site: files it does not ask for are forgotten by `endPass`.
    func beginPass() {
        state.withLock { $0.pass += 1 }
    }

    /// Forgets the files the pass did not read (deleted, or no longer part of the site).
    func endPass() {
        state.withLock { state in
            let pass = state.pass
            state.entries = state.entries.filter { $0.value.pass == pass }
        }
    }

    /// The bytes of the file at `path`: from the cache when it is unchanged, else from `read`.
    func bytes<Failure: Error>(atPath path: String, read: () throws(Failure) -> [UInt8]) throws(Failure)
        -> [UInt8]
    {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        guard let signature = Self.signature(of: path) else {
            // Not statable (gone in between): read it the ordinary way, which reports the problem.
            return try read()
        }
        let cached = state.withLock { state -> [UInt8]? in
            guard var entry = state.entries[path], entry.trusted, entry.signature == signature else {
                return nil
            }
            entry.pass = state.pass
            state.entries[path] = entry
            return entry.bytes
        }
        if let cached { return cached }
        let bytes = try read()
        let readAt = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
        let trusted = signature.changed + margin < readAt && signature.modified + margin < readAt
        state.withLock { state in
            state.entries[path] = Entry(
                signature: signature, trusted: trusted, bytes: bytes, pass: state.pass)
            state.reads += 1
        }
        return bytes
    }

    private static func signature(of path: String) -> Signature? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Signature(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }
}
