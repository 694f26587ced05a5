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
            var display = display == "." ? "" : display
            while display.count > 1, display.hasSuffix("/") { display.removeLast() }
            self.displayFolder = display
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

        /// Notes the status of the files at `paths` (following links, as reading does) without
        /// reading them, on every core; false when one cannot be looked at.
        func look(at paths: [String]) -> Bool {
            guard descriptor >= 0 else { return paths.isEmpty }
            let found = ParallelWork.map(paths.count, batch: 64) { index -> FileStatus? in
                var info = stat()
                return fstatat(self.descriptor, paths[index], &info, 0) == 0 ? FileStatus(info) : nil
            }
            guard !found.contains(nil) else { return false }
            statuses?.note(found.map { $0! }, of: paths.map { root + "/" + $0 })
            return true
        }

        /// The digest of the statuses of the files at `paths` (following links, as reading
        /// does), each by the path `read` notes it by, looked at on every core without reading
        /// them; nil when one cannot be looked at. No path is made into another `String`: each
        /// is hashed from a buffer holding the folder's path before it.
        func statusDigest(of paths: [String]) -> FileStatusDigest? {
            guard descriptor >= 0 else { return paths.isEmpty ? FileStatusDigest() : nil }
            let batch = 512
            let prefix = Array((root + "/").utf8)
            let parts = ParallelWork.map((paths.count + batch - 1) / batch, batch: 1) {
                part -> FileStatusDigest? in
                var digest = FileStatusDigest()
                var line = prefix
                line.reserveCapacity(prefix.count + 256)
                for index in (part * batch)..<min(paths.count, (part + 1) * batch) {
                    var info = stat()
                    guard fstatat(self.descriptor, paths[index], &info, 0) == 0 else { return nil }
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
