#if canImport(Glibc)
    import Glibc
#endif

/// The files under a folder that a build reads, found the way `find` finds them: each folder is
/// opened relative to its parent and listed with `getdents` (through `readdir`), whose entries
/// carry their type, so a plain file or folder costs no `stat` and no path is built twice. Only
/// symbolic links, and file systems that give no types, are looked at with `fstatat`.
///
/// Left out: hidden files and folders (a name starting with `.`), editors' leftovers (names
/// ending in `~`, `.swp` or `.tmp`), links to folders, and links whose target lies outside the
/// folder walked (a store must not publish what it only points at).
struct FolderWalk {
    /// The files' paths relative to the root, `/`-separated, in `String` order (if sorted).
    private(set) var files: [String] = []
    /// The paths of the folders walked, relative to the root, the root itself not included.
    private(set) var folders: [String] = []
    /// Files whose names are not UTF-8, with the bad bytes shown as U+FFFD: they cannot be
    /// opened by a name a message can show, so the reader reports them instead.
    private(set) var misnamed: [String] = []

    /// Walks the folder at `root` (an absolute or relative path); a root that is missing or is
    /// not a folder has no files. Unless `sorted` is false, the paths are sorted; else they
    /// come in the order the folders list them.
    init(root: String, sorted: Bool = true) {
        let rootFD = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard rootFD >= 0 else { return }
        defer { close(rootFD) }
        var realRoot: String?
        // Folders waiting to be listed, by path: each is opened only when its turn comes, so a
        // store of thousands of collections never holds more than one open at a time.
        var pending: [String] = [""]
        while let prefix = pending.popLast() {
            let fd = prefix.isEmpty
                ? dup(rootFD) : openat(rootFD, prefix, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            guard let stream = fdopendir(fd) else {
                close(fd)
                continue
            }
            while let entry = readdir(stream) {
                let kind = entry.pointee.d_type
                guard let (name, isUTF8) = Self.name(of: entry), !name.isEmpty,
                    name.utf8.first != UInt8(ascii: ".")
                else { continue }
                let path = prefix.isEmpty ? name : prefix + "/" + name
                switch Self.kind(kind, of: name, in: dirfd(stream)) {
                case .folder:
                    folders.append(path)
                    pending.append(path)
                case .file:
                    guard !Self.isLeftover(name) else { continue }
                    if isUTF8 { files.append(path) } else { misnamed.append(path) }
                case .link:
                    guard !Self.isLeftover(name), isUTF8 else { continue }
                    var info = stat()
                    guard fstatat(dirfd(stream), name, &info, 0) == 0, info.st_mode & S_IFMT == S_IFREG else {
                        continue
                    }
                    if realRoot == nil { realRoot = Self.realPath(root) ?? "" }
                    if let target = Self.realPath(root + "/" + path), let realRoot, !realRoot.isEmpty,
                        target.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
                    {
                        files.append(path)
                    }
                case .other:
                    continue
                }
            }
            closedir(stream)
        }
        guard sorted else { return }
        files.sort()
        folders.sort()
        misnamed.sort()
    }

    /// Whether a file's name marks it as an editor's backup, swap or temporary file.
    static func isLeftover(_ name: String) -> Bool {
        name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp")
    }

    private enum Kind {
        case file, folder, link, other
    }

    /// What an entry is: from its `d_type`, or from `fstatat` when the file system gave none.
    private static func kind(_ type: UInt8, of name: String, in folder: Int32) -> Kind {
        switch Int32(type) {
        case Int32(DT_REG): return .file
        case Int32(DT_DIR): return .folder
        case Int32(DT_LNK): return .link
        case Int32(DT_UNKNOWN):
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .other }
            switch info.st_mode & S_IFMT {
            case S_IFREG: return .file
            case S_IFDIR: return .folder
            case S_IFLNK: return .link
            default: return .other
            }
        default: return .other
        }
    }

    /// An entry's name, and whether its bytes were UTF-8; nil for `.` and `..`.
    private static func name(of entry: UnsafeMutablePointer<dirent>) -> (String, Bool)? {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in
            let bytes = raw.prefix { $0 != 0 }
            if bytes.count <= 2, bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) { return nil }
            if let name = String(validating: bytes, as: UTF8.self) { return (name, true) }
            return (String(decoding: bytes, as: UTF8.self), false)
        }
    }

    /// The path with every link resolved, or nil when it cannot be.
    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
