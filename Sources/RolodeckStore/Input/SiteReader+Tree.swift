import RolodeckCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

extension SiteReader {
    /// A folder of the site held open while it is read: its files are opened relative to it
    /// (`openat`), so the kernel walks only the part of each path below it.
    final class Tree: Sendable {
        /// The folder's path, as given (relative to the current folder, or absolute).
        let root: String
        /// How messages name the folder ("" for the current folder).
        let displayFolder: String
        /// The open folder, or -1 when it is missing or cannot be opened.
        let descriptor: Int32
        /// Files read before, by path; nil when nothing is kept between reads.
        private let cache: InputFileCache?
        /// Where the status of every file read or looked at is noted, when it is asked for.
        let statuses: StatusLog?

        /// Opens the folder at `root`.
        init(_ root: String, display: String, cache: InputFileCache?, statuses: StatusLog? = nil) {
            self.root = root
            self.statuses = statuses
            self.displayFolder = SiteReader.shown(display)
            self.cache = cache
            descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        }

        deinit {
            if descriptor >= 0 { close(descriptor) }
        }

        /// The folder at `relative` inside this one.
        func subtree(_ relative: String) -> Tree {
            Tree(root + "/" + relative, display: display(relative), cache: cache, statuses: statuses)
        }

        /// The folder at `path`: relative to this one, or absolute (named by its own path).
        func folder(_ path: String) -> Tree {
            path.hasPrefix("/") ? Tree(path, display: path, cache: cache, statuses: statuses) : subtree(path)
        }

        /// A path inside the folder as messages show it.
        func display(_ relative: String) -> String {
            displayFolder.isEmpty ? relative : displayFolder + "/" + relative
        }

        /// Those of `paths` that exist (following links): a folder counts, so that reading it
        /// says what is wrong.
        func existing(_ paths: [String]) -> [String] {
            guard descriptor >= 0 else { return [] }
            return paths.filter { path in
                var info = stat()
                return fstatat(descriptor, path, &info, 0) == 0
            }
        }

        /// The bytes of the files at `paths`, read on every core: from the cache when it
        /// holds a file with the same status. Throws an error for every file that cannot be read.
        func read(_ paths: [String]) throws(DiagnosticError) -> [[UInt8]] {
            guard !paths.isEmpty else { return [] }
            let results = ParallelWork.map(paths.count, batch: 32) { index in
                self.bytes(of: paths[index])
            }
            var failures: [Diagnostic] = []
            var files: [[UInt8]] = []
            files.reserveCapacity(results.count)
            for (path, result) in zip(paths, results) {
                switch result {
                case .success(let bytes): files.append(bytes)
                case .failure(let failure): failures.append(problem(failure, reading: path))
                }
            }
            if !failures.isEmpty { throw DiagnosticError(failures) }
            return files
        }

        /// The error for a file at `path` that could not be read.
        func problem(_ failure: ReadFailure, reading path: String) -> Diagnostic {
            let reason = String(cString: strerror(failure.code))
            return Diagnostic(.error, at: nil, "cannot read \(display(path)): \(reason)")
        }

        /// One file's bytes: the cached ones when its status is the one they were read with.
        func bytes(of path: String) -> Result<[UInt8], ReadFailure> {
            guard descriptor >= 0 else { return .failure(ReadFailure(code: ENOENT)) }
            guard let cache else {
                return readFile(path).map { read in
                    statuses?.note(read.status, of: root + "/" + path)
                    return read.bytes
                }
            }
            var info = stat()
            let key = root + "/" + path
            if fstatat(descriptor, path, &info, 0) == 0, let bytes = cache.bytes(key, status: FileStatus(info)) {
                statuses?.note(FileStatus(info), of: key)
                return .success(bytes)
            }
            let readAt = FileStatus.now()
            return readFile(path).map { read in
                cache.keep(read.bytes, for: key, status: read.status, readAt: readAt)
                statuses?.note(read.status, of: key)
                return read.bytes
            }
        }

        /// The digest of the statuses of the files at `paths` (following links, as reading
        /// does), each by the path `read` notes it by, looked at on every core without reading
        /// them; nil when one cannot be looked at. No path is made into another `String`: each
        /// is hashed from a buffer holding the folder's path before it. Each file is looked up
        /// from the folder that holds it (`OpenFolder`).
        func statusDigest(of paths: [String]) -> FileStatusDigest? {
            guard descriptor >= 0 else { return paths.isEmpty ? FileStatusDigest() : nil }
            let batch = 512
            let prefix = Array((root + "/").utf8)
            let parts = ParallelWork.map((paths.count + batch - 1) / batch, batch: 1) {
                part -> FileStatusDigest? in
                var digest = FileStatusDigest()
                var line = prefix
                line.reserveCapacity(prefix.count + 256)
                var folder = OpenFolder(in: self.descriptor)
                for index in (part * batch)..<min(paths.count, (part + 1) * batch) {
                    var info = stat()
                    guard folder.status(of: paths[index], &info) else { return nil }
                    line.removeSubrange(prefix.count...)
                    var path = paths[index]
                    path.withUTF8 { line.append(contentsOf: $0) }
                    line.withUnsafeBytes { digest.add(FileStatus(info), path: $0) }
                }
                return digest
            }
            var whole = FileStatusDigest()
            for part in parts {
                guard let part else { return nil }
                whole.add(part)
            }
            return whole
        }

        /// Opens, reads and closes one file, with its status as it was when opened.
        private func readFile(_ path: String) -> Result<(bytes: [UInt8], status: FileStatus), ReadFailure> {
            let fd = openat(descriptor, path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return .failure(ReadFailure(code: errno)) }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0 else { return .failure(ReadFailure(code: errno)) }
            do {
                let bytes = try SiteReader.readToEnd(
                    fd, sizeGuess: Int(info.st_size), isRegularFile: info.st_mode & S_IFMT == S_IFREG)
                return .success((bytes, FileStatus(info)))
            } catch {
                return .failure(error)
            }
        }
    }
}

/// The status of the files a read read or looked at, by the path it opened them by, noted from
/// every core.
public final class StatusLog: Sendable {
    private let statuses = Mutex<[String: FileStatus]>([:])

    /// Creates an empty log.
    public init() {}

    /// Notes a file's status.
    func note(_ status: FileStatus, of path: String) {
        statuses.withLock { $0[path] = status }
    }

    /// Notes the statuses of many files at once.
    func note(_ found: [FileStatus], of paths: [String]) {
        statuses.withLock { statuses in
            statuses.reserveCapacity(statuses.count + paths.count)
            for (path, status) in zip(paths, found) { statuses[path] = status }
        }
    }

    /// Every status noted, by path.
    public var all: [String: FileStatus] { statuses.withLock { $0 } }

    /// The newest modification time among the files at `paths` noted here, in nanoseconds
    /// since 1970; nil when none of them is.
    func newestModification(of paths: [String]) -> Int64? {
        statuses.withLock { statuses in
            var newest: Int64?
            for path in paths {
                if let modified = statuses[path]?.modified, modified > newest ?? .min { newest = modified }
            }
            return newest
        }
    }
}

/// The folder of the last file looked at, held open so that the next file in it is looked up
/// by its name alone. From the store's folder, `contacts/x.json` is two names for the kernel to
/// find in its cache of names, and from `contacts/` it is one: a survey of a store of a file per
/// card looks up 100,000 of them, where each lookup walks a chain of that cache.
private struct OpenFolder: ~Copyable {
    /// The folder the paths are relative to.
    private let root: Int32
    /// The path of the folder held open, relative to `root`, without its last `/`.
    private var path: [UInt8] = []
    /// The folder held open, or -1 when none is.
    private var descriptor: Int32 = -1

    init(in root: Int32) {
        self.root = root
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// `fstatat` of the file at `path`, relative to `root`, following links: whether it could
    /// be looked at, with its status in `info`.
    mutating func status(of path: String, _ info: inout stat) -> Bool {
        path.withCString { full in
            guard let slash = strrchr(full, Int32(UInt8(ascii: "/"))) else {
                return fstatat(root, full, &info, 0) == 0
            }
            let folder = UnsafeRawBufferPointer(start: full, count: full.distance(to: slash))
            if descriptor < 0 || !self.path.elementsEqual(folder) {
                if descriptor >= 0 { close(descriptor) }
                self.path = Array(folder)
                descriptor = (self.path + [0]).withUnsafeBufferPointer { name in
                    name.withMemoryRebound(to: CChar.self) {
                        openat(root, $0.baseAddress!, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                    }
                }
            }
            // A folder that cannot be opened is looked up with its file, for the same answer.
            guard descriptor >= 0 else { return fstatat(root, full, &info, 0) == 0 }
            return fstatat(descriptor, slash + 1, &info, 0) == 0
        }
    }
}
