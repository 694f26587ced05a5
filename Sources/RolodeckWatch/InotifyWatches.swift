import RolodeckCore

#if canImport(Glibc)
    import Glibc
#endif

/// The inotify side of the watcher: one watch per folder, subfolders included, kept in step as
/// folders come, go and move; events read and decoded.
final class InotifyWatches {
    /// One decoded inotify event.
    struct Event {
        /// The folder it happened in; nil for an overflow of the event queue.
        var folder: String?
        /// The name of the file or folder, empty for the watched folder itself.
        var name: String
        /// The event's mask (`IN_…`).
        var mask: UInt32

        /// Whether the mask has `flag`.
        func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
        /// Whether the event is about a folder.
        var isFolder: Bool { has(IN_ISDIR) }
    }

    /// What every folder is watched for. Close-after-write rather than every write, so a large
    /// file is seen once it is complete; modify too, to know a file is being written.
    static let mask = UInt32(
        bitPattern: IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM
            | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF | IN_ATTRIB | IN_ONLYDIR | IN_DONT_FOLLOW
            | IN_EXCL_UNLINK)

    /// The inotify descriptor, for `poll`.
    let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private var watches: [String: Int32] = [:]
    /// At most this many watches, to let tests see what happens when the system's limit is hit.
    private let limit: Int?
    private var buffer = [UInt8](repeating: 0, count: 65536)

    /// Opens an inotify instance watching nothing yet.
    init(limit: Int? = nil) throws(WatchError) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else {
            throw errno == EMFILE
                ? WatchError(.outOfInstances)
                : WatchError(
                    .system(
                        operation: "start inotify", path: "",
                        errno: errno))
        }
        descriptor = fd
        self.limit = limit
    }

    deinit { close(descriptor) }

    /// Whether a folder is watched.
    func isWatching(_ path: String) -> Bool { watches[path] != nil }

    /// Watches one folder (not its subfolders). Returns false when it is gone or not a folder.
    @discardableResult
    func watch(_ path: String) throws(WatchError) -> Bool {
        if watches[path] != nil { return true }
        if let limit, watches.count >= limit { throw WatchError(.outOfWatches(path: path)) }
        let wd = inotify_add_watch(descriptor, path, Self.mask)
        guard wd >= 0 else {
            switch errno {
            case ENOSPC: throw WatchError(.outOfWatches(path: path))
            case ENOENT, ENOTDIR, ELOOP: return false
            default: throw WatchError(.system(operation: "watch", path: path, errno: errno))
            }
        }
        if let old = folders[wd], old != path { watches[old] = nil }
        folders[wd] = path
        watches[path] = wd
        return true
    }

    /// Watches a folder and every folder under it that `scope` watches; returns the folders
    /// newly watched.
    func watchTree(_ path: String, scope: WatchScope) throws(WatchError) -> [String] {
        var added: [String] = []
        var pending = [path]
        while let folder = pending.popLast() {
            guard scope.isWatched(folder: folder) else { continue }
            let isNew = watches[folder] == nil
            guard try watch(folder) else { continue }
            if isNew { added.append(folder) }
            for name in Self.subfolders(of: folder) {
                pending.append(folder + "/" + name)
            }
        }
        return added
    }

    /// Stops watching a folder and everything under it (it moved away or was deleted).
    func unwatchTree(_ path: String) {
        for (folder, wd) in watches where AbsolutePath.isWithin(folder, path) {
            inotify_rm_watch(descriptor, wd)
            watches[folder] = nil
            folders[wd] = nil
        }
    }

    /// Reads the events waiting, without blocking.
    func readEvents() -> [Event] {
        var events: [Event] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + 16 <= count {
                    let wd = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                    let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                    let length = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                    let nameBytes = bytes[(offset + 16)..<min(count, offset + 16 + length)]
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    offset += 16 + length
                    if mask & UInt32(bitPattern: IN_Q_OVERFLOW) != 0 {
                        events.append(Event(folder: nil, name: "", mask: mask))
                        continue
                    }
                    guard let folder = folders[wd] else { continue }
                    if mask & UInt32(bitPattern: IN_IGNORED) != 0 {
                        // The folder is gone; its watch was removed by the kernel.
                        folders[wd] = nil
                        if watches[folder] == wd { watches[folder] = nil }
                    }
                    events.append(Event(folder: folder, name: name, mask: mask))
                }
            }
        }
        return events
    }

    /// The names of the subfolders of a folder (not following links).
    static func subfolders(of path: String) -> [String] {
        entries(of: path).filter(\.isFolder).map(\.name)
    }

    /// The names in a folder other than hidden ones, sorted, each with whether it is a folder
    /// (a link is not followed, so a link to a folder is not one).
    static func entries(of path: String) -> [(name: String, isFolder: Bool)] {
        guard let stream = opendir(path) else { return [] }
        defer { closedir(stream) }
        var entries: [(String, Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name != ".", name != "..", !name.hasPrefix(".") else { continue }
            var info = stat()
            guard lstat(path + "/" + name, &info) == 0 else { continue }
            entries.append((name, info.st_mode & S_IFMT == S_IFDIR))
        }
        return entries.sorted { $0.0 < $1.0 }
    }
}
