#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An open directory that is never reached through a symbolic link: every step below it is
/// opened with `O_NOFOLLOW`, so nothing the publisher reads, links or deletes can be outside it.
/// Immutable after creation, and the system calls on its descriptor are thread-safe.
public final class DirectoryHandle: @unchecked Sendable {
    /// The file descriptor.
    let descriptor: Int32
    /// The path, for messages.
    let path: String

    private init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit { close(descriptor) }

    /// Opens a directory by path; nil if it does not exist or is not a directory. `displayPath`
    /// is what messages call it (a staging folder is named after the output it becomes).
    public static func open(_ path: String, displayPath: String? = nil) -> DirectoryHandle? {
        let fd = openat(AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        return fd >= 0 ? DirectoryHandle(descriptor: fd, path: displayPath ?? path) : nil
    }

    /// Opens a child directory; nil if it is missing, not a directory or a symbolic link.
    func child(_ name: String) -> DirectoryHandle? {
        let fd = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        return fd >= 0 ? DirectoryHandle(descriptor: fd, path: path + "/" + name) : nil
    }

    /// Opens a child directory, creating it first when it is missing.
    func makeChild(_ name: String) throws(PublishError) -> DirectoryHandle {
        if mkdirat(descriptor, name, 0o755) != 0, errno != EEXIST {
            throw .system("create folder", path + "/" + name)
        }
        guard let child = child(name) else { throw .system("open folder", path + "/" + name) }
        return child
    }

    /// The names in the directory, without "." and "..", sorted for determinism.
    func entries() throws(PublishError) -> [String] {
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw .system("list", path)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The status of a child, not following a symbolic link; nil if it does not exist.
    func status(of name: String) -> stat? {
        var info = stat()
        return fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info : nil
    }

    /// Whether a status is a directory.
    static func isDirectory(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFDIR }

    /// Whether a status is a regular file.
    static func isRegularFile(_ info: stat) -> Bool { info.st_mode & S_IFMT == S_IFREG }

    /// Removes a child and, if it is a directory, everything in it. Symbolic links are removed
    /// themselves, never followed, so a link pointing elsewhere cannot lead the deletion there.
    func removeTree(_ name: String) throws(PublishError) {
        guard let info = status(of: name) else { return }
        if DirectoryHandle.isDirectory(info), let child = child(name) {
            for entry in try child.entries() {
                try child.removeTree(entry)
            }
            if unlinkat(descriptor, name, AT_REMOVEDIR) != 0, errno != ENOENT {
                throw .system("remove folder", path + "/" + name)
            }
        } else if unlinkat(descriptor, name, 0) != 0, errno != ENOENT {
            throw .system("remove", path + "/" + name)
        }
    }

    /// Removes a child folder if it is empty, and says whether it did; a child that is not a
    /// folder, or is gone, is left alone.
    func removeIfEmpty(_ name: String) throws(PublishError) -> Bool {
        if unlinkat(descriptor, name, AT_REMOVEDIR) == 0 { return true }
        switch errno {
        case ENOTEMPTY, EEXIST, ENOENT, ENOTDIR: return false
        default: throw .system("remove folder", path + "/" + name)
        }
    }

    /// Reads a regular file if it has exactly `size` bytes (any size when nil); nil otherwise
    /// (missing, a link, another size).
    public func contents(of name: String, ifSize expected: Int? = nil) -> [UInt8]? {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, DirectoryHandle.isRegularFile(info),
              expected == nil || Int(info.st_size) == expected else {
            return nil
        }
        let size = Int(info.st_size)
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, size - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    /// Writes a new file (it must not exist yet) with the given bytes.
    func createFile(_ name: String, bytes: [UInt8]) throws(PublishError) {
        try createFile(name) { put in bytes.withUnsafeBytes(put) }
    }

    /// Writes a new file (it must not exist yet) of `parts`, one after the other: a file of
    /// many pieces (every contact's vCard) never needs them joined in memory.
    func createFile(_ name: String, parts: some Collection<[UInt8]>) throws(PublishError) {
        try createFile(name) { put in
            // Small parts are gathered into writes of a quarter of a megabyte, large ones
            // written as they are.
            let batch = 1 << 18
            var pending: [UInt8] = []
            for part in parts {
                if part.count >= batch {
                    guard pending.withUnsafeBytes(put), part.withUnsafeBytes(put) else { return false }
                    pending.removeAll(keepingCapacity: true)
                } else {
                    if pending.count + part.count > batch {
                        guard pending.withUnsafeBytes(put) else { return false }
                        pending.removeAll(keepingCapacity: true)
                    }
                    pending += part
                }
            }
            return pending.withUnsafeBytes(put)
        }
    }

    /// Creates `name` (it must not exist yet) and has `fill` write it through the function it
    /// is given, which writes bytes whole and says false when the system refuses; `fill`
    /// returns false after such a refusal.
    ///
    /// A file that could not be written whole (a full disk, a file-size limit) is removed again:
    /// a watch writes its pages beside the published ones under temporary names, and a part of
    /// one left there stayed in the site, taking the space the next save needed.
    func createFile(
        _ name: String, fill: ((UnsafeRawBufferPointer) -> Bool) -> Bool
    ) throws(PublishError) {
        let fd = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system("create", path + "/" + name) }
        func put(_ bytes: UnsafeRawBufferPointer) -> Bool {
            var done = 0
            while done < bytes.count {
                let count = write(fd, bytes.baseAddress! + done, bytes.count - done)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
        // The failed write's errno, taken before `close` and `unlinkat` set it again.
        var failure: PublishError? = fill(put) ? nil : .system("write", path + "/" + name)
        // `close` can report a write the system could not finish (a quota, a network disk).
        if close(fd) != 0, failure == nil { failure = .system("write", path + "/" + name) }
        guard let failure else { return }
        unlinkat(descriptor, name, 0)
        throw failure
    }

    /// Whether `name` is a regular file that holds exactly `parts`, one after the other, read a
    /// block at a time (not whole, as `contents(of:)` reads).
    func holds(_ name: String, parts: some Collection<[UInt8]>, size: Int) -> Bool {
        let fd = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, DirectoryHandle.isRegularFile(info), Int(info.st_size) == size else {
            return false
        }
        var block = [UInt8](repeating: 0, count: 1 << 18)
        var filled = 0
        var checked = 0
        /// Reads the next block; false at the end or on an error.
        func refill() -> Bool {
            checked = 0
            filled = 0
            while true {
                let count = block.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                filled = count
                return true
            }
        }
        for part in parts {
            var offset = 0
            while offset < part.count {
                if checked == filled, !refill() { return false }
                let length = min(part.count - offset, filled - checked)
                let same = part.withUnsafeBytes { part in
                    block.withUnsafeBytes { block in
                        memcmp(part.baseAddress! + offset, block.baseAddress! + checked, length) == 0
                    }
                }
                guard same else { return false }
                offset += length
                checked += length
            }
        }
        return true
    }

    /// Hard-links a file of another directory into this one under the same name, so an unchanged
    /// page keeps its inode and modification time; false if the file system refuses.
    func link(_ name: String, from source: DirectoryHandle) -> Bool {
        linkat(source.descriptor, name, descriptor, name, 0) == 0
    }
}
