import RolodeckCore
#if canImport(Glibc)
    import Glibc
#endif

/// The files under a folder that a build reads, found the way `find` finds them: each folder is
/// opened relative to its parent and listed with `getdents` (through `readdir`), whose entries
/// carry their type, so a plain file or folder costs no `stat` and no path is built twice. Only
/// symbolic links, and file systems that give no types, are looked at with `fstatat`.
///
/// Left out: hidden files and folders (a name starting with `.`), editors' leftovers (names
/// ending in `~`, `.swp` or `.tmp`), links to folders, links whose target lies outside the
/// folder walked (a store must not publish what it only points at), links that lead nowhere,
/// and what is not a plain file, all but the first two noted (`passedOver`); and, in a store,
/// the folders Rolodeck wrote as sites (`isOutput`), with all they hold.
struct FolderWalk {
    /// The files' paths relative to the root, `/`-separated, in `String` order (if sorted).
    private(set) var files: [String] = []
    /// The paths of the folders walked, relative to the root, the root itself not included.
    private(set) var folders: [String] = []
    /// Files whose names are not UTF-8, with the bad bytes shown as U+FFFD: they cannot be
    /// opened by a name a message can show, so the reader reports them instead.
    private(set) var misnamed: [String] = []
    /// What the walk found and left out though it is neither hidden nor an editor's leftover,
    /// by path relative to the root, in the order found: links it does not follow and files
    /// that are not plain files. A reader says so when a build would have read them.
    private(set) var passedOver: [(path: String, reason: PassedOver)] = []
    /// Whether the folders Rolodeck wrote as sites are left out.
    private let skipsOutputs: Bool
    /// Whether every name the walk found is ASCII.
    private var isASCII = true
    /// The files' paths as the walk finds them, made into `files` at its end: on every core,
    /// and, when they are ASCII, in order once they are sorted. Made one by one as they were
    /// found, 100,000 of them took as long as listing their folder, on one core, before any
    /// file could be read.
    private var found = PathBytes()

    /// Walks the folder at `root` (an absolute or relative path); a root that is missing or is
    /// not a folder has no files. Unless `sorted` is false, the paths are sorted; else they
    /// come in the order the folders list them. With `skippingOutputs` (a store's walk), the
    /// folders Rolodeck wrote as sites are left out (`isOutput`).
    init(root: String, sorted: Bool = true, skippingOutputs: Bool = false) {
        self.skipsOutputs = skippingOutputs
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
            // Each entry's path is made in one buffer, the folder's path before it, and becomes
            // a String once: a store of a file per card lists 100,000 entries here.
            var path = Array(prefix.utf8)
            if !prefix.isEmpty { path.append(UInt8(ascii: "/")) }
            let start = path.count
            let folder = dirfd(stream)
            while let entry = readdir(stream) {
                let type = entry.pointee.d_type
                withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                    let capacity = MemoryLayout.size(ofValue: tuple.pointee)
                    tuple.withMemoryRebound(to: CChar.self, capacity: capacity) { name in
                        path.removeSubrange(start...)
                        visit(name, type: type, in: folder, path: &path, root: root, realRoot: &realRoot,
                              pending: &pending)
                    }
                }
            }
            closedir(stream)
        }
        // ASCII paths sort by their bytes as Strings sort them, and sorting 100,000 of them by
        // 8 bytes at a time is a third of what comparing them as Strings costs.
        let sortsBytes = sorted && isASCII
        files = found.strings(at: sortsBytes ? found.sortedOrder() : Array(0..<found.count))
        found = PathBytes()
        guard sorted else { return }
        if !sortsBytes { files.sort() }
        folders.sort()
        misnamed.sort()
        passedOver.sort { $0.path < $1.path }
    }

    /// Takes in one entry of a folder (`name`, in the folder open as `folder`), whose path is
    /// `path` so far (the folder's, and a slash): a file, a folder to list, or nothing.
    private mutating func visit(
        _ name: UnsafePointer<CChar>, type: UInt8, in folder: Int32, path: inout [UInt8], root: String,
        realRoot: inout String?, pending: inout [String]
    ) {
        let bytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
        // Hidden files and folders, "." and ".." among them, are left out.
        guard let first = bytes.first, first != UInt8(ascii: ".") else { return }
        let kind = Self.kind(type, of: name, in: folder)
        if kind != .folder && Self.isLeftover(bytes) { return }
        path.append(contentsOf: bytes)
        // The path before the name is a String's, so UTF-8: the path is when the name is.
        let isNameASCII = !bytes.contains(where: { $0 >= 0x80 })
        if !isNameASCII { isASCII = false }
        let valid = isNameASCII || String(validating: bytes, as: UTF8.self) != nil
        switch kind {
        case .folder:
            if skipsOutputs, Self.isOutput(name, in: folder) { return }
            let folderPath = String(decoding: path, as: UTF8.self)
            folders.append(folderPath)
            pending.append(folderPath)
        case .file:
            if valid { found.append(path) } else { misnamed.append(String(decoding: path, as: UTF8.self)) }
        case .link:
            guard valid else { return }
            let linkPath = String(decoding: path, as: UTF8.self)
            var info = stat()
            guard fstatat(folder, name, &info, 0) == 0 else {
                passedOver.append((linkPath, .brokenLink))
                return
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFDIR:
                passedOver.append((linkPath, .linkToFolder))
                return
            default:
                passedOver.append((linkPath, .notAFile))
                return
            }
            if realRoot == nil { realRoot = AbsolutePath.resolved(root) ?? "" }
            if let target = AbsolutePath.resolved(root + "/" + linkPath), let realRoot,
                !realRoot.isEmpty, AbsolutePath.isInside(target, realRoot)
            {
                found.append(path)
            } else {
                passedOver.append((linkPath, .linkOutside))
            }
        case .other:
            if valid { passedOver.append((String(decoding: path, as: UTF8.self), .notAFile)) }
        }
    }

    /// Whether the folder `name` (in the folder open as `folder`) is a site Rolodeck wrote: it
    /// holds the marker every output has (`OutputMarker`). A store of `"."` holds its own output
    /// (`_site`), and maybe an earlier one: walked, the build read the vCards it wrote back as
    /// contacts, and built the site from its own output.
    private static func isOutput(_ name: UnsafePointer<CChar>, in folder: Int32) -> Bool {
        let marker = String(cString: name) + "/" + OutputMarker.name
        var info = stat()
        return fstatat(folder, marker, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Whether a file's name marks it as an editor's backup, swap or temporary file.
    static func isLeftover(_ name: String) -> Bool {
        name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp")
    }

    /// `isLeftover` for a name's bytes.
    static func isLeftover(_ name: UnsafeRawBufferPointer) -> Bool {
        func ends(_ suffix: StaticString) -> Bool {
            let count = suffix.utf8CodeUnitCount
            return name.count >= count
                && memcmp(name.baseAddress! + name.count - count, suffix.utf8Start, count) == 0
        }
        return ends("~") || ends(".swp") || ends(".tmp")
    }

    private enum Kind {
        case file, folder, link, other
    }

    /// Why an entry was left out.
    enum PassedOver: Equatable, Sendable {
        /// A link to a folder: never followed, so that a walk cannot loop or leave the root.
        case linkToFolder
        /// A link to a file outside the folder walked.
        case linkOutside
        /// A link that leads nowhere.
        case brokenLink
        /// Not a plain file, a folder or a link: a named pipe, a socket or a device, which a
        /// read could wait on for ever.
        case notAFile

        /// What it is, for a message about a walk of `folder` ("the store"): "is a link to a
        /// folder".
        func description(in folder: String) -> String {
            switch self {
            case .linkToFolder: "is a link to a folder, which is not followed"
            case .linkOutside: "is a link to a file outside \(folder)"
            case .brokenLink: "is a link that leads nowhere"
            case .notAFile: "is not a plain file (a named pipe, a socket or a device)"
            }
        }
    }

    /// What an entry is: from its `d_type`, or from `fstatat` when the file system gave none.
    private static func kind(_ type: UInt8, of name: UnsafePointer<CChar>, in folder: Int32) -> Kind {
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
}
