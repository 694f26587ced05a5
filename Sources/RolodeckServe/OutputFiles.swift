#if canImport(Glibc)
    import Glibc
#endif

/// Finds the file a request path names inside the output folder, and never one outside it.
///
/// The path is percent-decoded segment by segment; a segment that is `.` or `..` (written
/// plainly or encoded as `%2e%2e`), an empty one (`//`), or one holding a slash, a backslash
/// or a NUL byte once decoded is refused. Hidden names (the manifest, temporary files) are not
/// found. The file is then opened one segment at a time from the output folder with
/// `O_NOFOLLOW`, so no symbolic link is followed, wherever it points; only regular files are
/// served. A folder is served by its `index.html`.
enum OutputFiles {
    /// A file opened for a response; the caller closes `descriptor`.
    struct Opened {
        /// The open file.
        var descriptor: Int32
        /// The last segment of its path, for its content type.
        var name: String
        /// Its size in bytes.
        var size: Int
        /// Its inode, for the entity tag.
        var inode: UInt64
        /// Its modification time, for the entity tag and `Last-Modified`.
        var modified: timespec
    }

    /// Why a request path names no file, or its file cannot be had.
    enum Refusal: Error, Equatable {
        /// The path is malformed or tries to climb out: 400.
        case badPath
        /// No such file, or one that is not served: 404.
        case notFound
        /// The file is there but may not be read: 403.
        case forbidden
        /// Opening failed for a reason that is no fault of the request (too many open files,
        /// an I/O error), with its errno: 500.
        case failed(Int32)

        /// What a failed `open`, `openat` or `fstat` means for the request.
        init(errno code: Int32) {
            switch code {
            // ELOOP is a symbolic link met with O_NOFOLLOW, which is never served.
            case ENOENT, ENOTDIR, ELOOP, ENAMETOOLONG, ENXIO, ENODEV: self = .notFound
            case EACCES, EPERM: self = .forbidden
            default: self = .failed(code)
            }
        }
    }

    /// The decoded segments of a request target (`/a/b%20c.html?x` gives `a`, `b c.html`); a
    /// trailing slash gives an empty last segment.
    static func segments(of target: String) -> Result<[[UInt8]], Refusal> {
        var path = Substring(target)
        for scheme in ["http://", "https://"] where path.lowercased().hasPrefix(scheme) {
            // The absolute form a proxy would send: the path starts after the authority.
            let rest = path.dropFirst(scheme.count)
            path = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        guard path.hasPrefix("/") else { return .failure(.badPath) }
        let raw = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        var segments: [[UInt8]] = []
        for (index, part) in raw.enumerated() {
            guard let decoded = percentDecoded(part) else { return .failure(.badPath) }
            let isLast = index == raw.count - 1
            if decoded.isEmpty, !isLast { return .failure(.badPath) }
            if decoded == [0x2E] || decoded == [0x2E, 0x2E] { return .failure(.badPath) }
            if decoded.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) { return .failure(.badPath) }
            segments.append(decoded)
        }
        if segments.contains(where: { $0.first == 0x2E }) { return .failure(.notFound) }
        return .success(segments)
    }

    /// Opens the file `segments` name inside the folder at `root`; a folder (or a path ending in
    /// a slash) gives its `index.html`.
    static func open(root: String, segments: [[UInt8]]) -> Result<Opened, Refusal> {
        var folder = Glibc.open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        // Before the first build there is no output folder yet: nothing is found.
        guard folder >= 0 else { return .failure(Refusal(errno: errno)) }
        var names = segments
        if names.last?.isEmpty == true { names.removeLast() }
        if names.isEmpty { names = [Array("index.html".utf8)] }
        var index = 0
        while index < names.count {
            let name = names[index]
            let fd = (name + [0]).withUnsafeBufferPointer { pointer in
                pointer.withMemoryRebound(to: CChar.self) {
                    openat(folder, $0.baseAddress!, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
                }
            }
            let openError = errno
            close(folder)
            guard fd >= 0 else { return .failure(Refusal(errno: openError)) }
            var info = stat()
            guard fstat(fd, &info) == 0 else {
                let statError = errno
                close(fd)
                return .failure(.failed(statError))
            }
            let isLast = index == names.count - 1
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                folder = fd
                if isLast, name != Array("index.html".utf8) { names.append(Array("index.html".utf8)) }
            case S_IFREG where isLast:
                let flags = fcntl(fd, F_GETFL)
                _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
                return .success(
                    Opened(
                        descriptor: fd, name: String(decoding: name, as: UTF8.self), size: Int(info.st_size),
                        inode: UInt64(info.st_ino), modified: info.st_mtim))
            default:
                close(fd)
                return .failure(.notFound)
            }
            index += 1
        }
        close(folder)
        return .failure(.notFound)
    }

    /// Decodes `%XX` escapes; nil when one is malformed.
    static func percentDecoded(_ text: Substring) -> [UInt8]? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard utf8.count >= 2, let high = hexValue(utf8.removeFirst()),
                let low = hexValue(utf8.removeFirst())
            else {
                return nil
            }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
