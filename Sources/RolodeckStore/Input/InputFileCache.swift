import RolodeckCore
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
    private struct Entry {
        var status: FileStatus
        var trusted: Bool
        var bytes: [UInt8]
        var pass: Int
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var pass = 0
        var reads = 0
        /// The store as the last read found it, by the store's absolute path, with the position
        /// of each file by its path inside the store once a read needed it.
        var listing: (root: String, listing: StoreListing, index: [String: Int]?)?
        /// The paths this pass asked for that an earlier pass had asked for, or that are new.
        var touched: [String] = []
        /// The paths of the entries outside a folder whose files a pass may take over unread
        /// (the store), once a pass that did so has ended: the only entries such a pass can
        /// find gone (templates, static files, the config, which every pass asks for).
        var outside: (folder: String, paths: Set<String>)?
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

    /// The size of the largest file the cache holds (0 when it holds none).
    public var largestFileSize: Int {
        state.withLock { state in state.entries.values.reduce(0) { max($0, Int($1.status.size)) } }
    }

    /// Starts a reading of the whole site: files it does not ask for are forgotten by `endPass`.
    func beginPass() {
        state.withLock { state in
            state.pass += 1
            state.touched = []
        }
    }

    /// Forgets the files the pass did not read (deleted, or no longer part of the site), except
    /// those whose path starts with `kept`: a folder whose files were taken over unread.
    /// `store` is the folder a later pass may take over (the store's, ending in `/`): the entries
    /// outside it are noted for that pass.
    func endPass(keepingUnder kept: String? = nil, store: String? = nil) {
        state.withLock { state in
            let pass = state.pass
            // A pass that took the store over looks only at the entries outside it, once a pass
            // has found which those are: a watched store's 100,000 files are not walked on
            // every save to find the few templates that went.
            if let kept, let outside = state.outside, outside.folder == kept {
                let touched = Set(state.touched.lazy.filter { !$0.hasPrefix(kept) })
                for path in outside.paths where !touched.contains(path) {
                    state.entries.removeValue(forKey: path)
                }
                state.outside = (kept, touched)
                return
            }
            // Removed one by one: most entries stay (a watched store's 100,000 files taken over
            // unread), and a filtered copy would be a new table of them on every save. The pass
            // that read the whole store notes the entries outside it as it goes, so that the
            // first save after it does not walk them all again.
            let folder = kept ?? store
            var gone: [String] = []
            var outside: Set<String> = []
            for (path, entry) in state.entries where kept.map(path.hasPrefix) != true {
                if entry.pass != pass {
                    gone.append(path)
                } else if let folder, !path.hasPrefix(folder) {
                    outside.insert(path)
                }
            }
            for path in gone { state.entries.removeValue(forKey: path) }
            state.outside = folder.map { ($0, outside) }
        }
    }

    /// Keeps the store as a read found it at `root`, its absolute path.
    func keep(_ listing: StoreListing, root: String, index: [String: Int]? = nil) {
        state.withLock { $0.listing = (root, listing, index) }
    }

    /// Forgets the store the last read found: the next read looks at every file.
    func forgetListing() {
        state.withLock { $0.listing = nil }
    }

    /// The store the last read found at `root`, and the position of each of its files by path,
    /// taken out of the cache (`keep` puts it back): the caller changes it where it lies.
    func takeListing(root: String) -> (listing: StoreListing, index: [String: Int])? {
        state.withLock { state -> (listing: StoreListing, index: [String: Int])? in
            guard let kept = state.listing, kept.root == root else { return nil }
            state.listing = nil
            return (kept.listing, kept.index ?? Self.index(of: kept.listing))
        }
    }

    /// Finds the position of each file of the store the last read found, if it is not known
    /// yet, so that the next read that takes the listing does not: for when nothing waits.
    public func indexListing() {
        state.withLock { state in
            guard let kept = state.listing, kept.index == nil else { return }
            state.listing?.index = Self.index(of: kept.listing)
        }
    }

    /// The position of each of `listing`'s files, by path.
    private static func index(of listing: StoreListing) -> [String: Int] {
        var index: [String: Int] = [:]
        index.reserveCapacity(listing.paths.count)
        for (position, path) in listing.paths.enumerated() { index[path] = position }
        return index
    }

    /// The bytes kept for the file at `path` when its status is still `status` and vouches for
    /// them; nil when the file must be read.
    func bytes(_ path: String, status: FileStatus) -> [UInt8]? {
        state.withLock { state -> [UInt8]? in
            guard var entry = state.entries[path], entry.trusted, entry.status == status else { return nil }
            if entry.pass != state.pass { state.touched.append(path) }
            entry.pass = state.pass
            state.entries[path] = entry
            return entry.bytes
        }
    }

    /// The modification time of each file at `paths` as the cache holds it, in nanoseconds
    /// since 1970; nil for a file it does not hold.
    func modifications(of paths: [String]) -> [Int64?] {
        state.withLock { state in paths.map { state.entries[$0]?.status.modified } }
    }

    /// Keeps the bytes of the file at `path`, read at `readAt` (nanoseconds since 1970) from
    /// the file with `status`.
    func keep(_ bytes: [UInt8], for path: String, status: FileStatus, readAt: Int64) {
        let trusted = status.changed + margin < readAt && status.modified + margin < readAt
        state.withLock { state in
            if state.entries[path]?.pass != state.pass { state.touched.append(path) }
            state.entries[path] = Entry(status: status, trusted: trusted, bytes: bytes, pass: state.pass)
            state.reads += 1
        }
    }
}
