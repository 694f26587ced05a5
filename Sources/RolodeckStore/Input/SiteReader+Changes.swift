import RolodeckCore

#if canImport(Glibc)
    import Glibc
#endif

/// The store's files as a read found them, each with its path inside the store, so that a
/// later read told which files changed can take the others over as they are.
struct StoreListing: Sendable {
    /// The store's files, in reading order: in chunks, so that a watched save, which replaces
    /// one file of 100,000 while the last version is still kept, copies one chunk, not all.
    var files: ChunkedArray<StoreFile> = []
    /// Each file's path inside the store.
    var paths: [String] = []
    /// The store's folders (vdir collections, `contacts/`), by path inside the store.
    var folders: Set<String> = []
    /// What the walk left out that a build would have read (`SiteReader.passedOverWarnings`):
    /// kept with the listing, so that a save which reads only the files it changed warns too.
    var warnings: [Diagnostic] = []
    /// Each file's modification time as the read cache holds it, in nanoseconds since 1970
    /// (nil when it holds none): the store's last change is the newest, found without looking
    /// up every file again when a read takes most of them over.
    private(set) var modified: [Int64?] = []
    /// The newest of `modified`; nil when none is known.
    private(set) var newestModification: Int64?

    /// Takes each file's modification time, in the order of `files`.
    mutating func setModified(_ times: [Int64?]) {
        modified = times
        newestModification = nil
        for case let time? in modified where time > newestModification ?? .min { newestModification = time }
    }

    /// Takes the modification time of the file at `position`: the newest is looked for again
    /// only when the newest file got an earlier time.
    mutating func setModified(_ time: Int64?, at position: Int) {
        let old = modified[position]
        modified[position] = time
        if let time, time > newestModification ?? .min {
            newestModification = time
        } else if old != nil, old == newestModification, time != old {
            setModified(modified)
        }
    }

    /// Adds a file found at `path`.
    mutating func append(_ path: String, _ file: StoreFile) {
        paths.append(path)
        files.append(file)
    }
}

extension SiteReader {
    /// The store's files when the last read's can be taken over with only the `changed` ones
    /// read again; nil when a full read is needed: nothing was kept, or a file came or went, a
    /// folder or a `displayname` changed, or a file became something else than a plain file.
    func patchedStore(in store: Tree, root: String, changed: Set<String>) throws(DiagnosticError)
        -> StoreListing?
    {
        // Taken out of the cache while it is patched, so that changing it copies nothing (a time
        // for each of 100,000 files); put back when it is not patched.
        guard let cache, var taken = cache.takeListing(root: root) else { return nil }
        func putBack() -> StoreListing? {
            cache.keep(taken.listing, root: root, index: taken.index)
            return nil
        }
        guard taken.listing.modified.count == taken.listing.files.count else { return putBack() }
        let index = taken.index
        let prefix = root == "/" ? "/" : root + "/"
        var edited: [(position: Int, path: String)] = []
        for path in changed {
            // The store itself, or a folder it is in.
            if path == root || prefix.hasPrefix(path + "/") { return putBack() }
            guard path.hasPrefix(prefix) else { continue }
            let relative = String(path.dropFirst(prefix.count))
            let parts = relative.split(separator: "/")
            // What the reader never reads cannot have changed the store.
            if parts.contains(where: { $0.hasPrefix(".") }) { continue }
            if taken.listing.folders.contains(relative) || parts.last == "displayname" { return putBack() }
            guard let position = index[relative] else {
                // A file that is not one of the store's: new, or gone again (a temporary file).
                if store.exists(relative) { return putBack() }
                continue
            }
            guard store.isPlainFile(relative) else { return putBack() }
            edited.append((position, relative))
        }
        edited.sort { $0.position < $1.position }
        let fresh: [[UInt8]]
        do {
            fresh = try store.read(edited.map(\.path))
        } catch {
            _ = putBack()
            throw error
        }
        let modified = cache.modifications(of: edited.map { store.root + "/" + $0.path })
        for ((position, _), (bytes, time)) in zip(edited, zip(fresh, modified)) {
            taken.listing.setModified(time, at: position)
            var file = taken.listing.files[position]
            guard !file.source.bytes.hasSameBytes(as: bytes) else { continue }
            // Everything else stays: a photo keeps the path contacts name it by.
            file.source = SourceText(path: file.source.path, bytes: bytes)
            taken.listing.files[position] = file
        }
        cache.keep(taken.listing, root: root, index: index)
        return taken.listing
    }
}

extension SiteReader.Tree {
    /// Whether anything is at `path` (a link counts, whether or not its target exists).
    func exists(_ path: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, path, &info, AT_SYMLINK_NOFOLLOW) == 0
    }

    /// Whether `path` is a plain file, not a link or a folder.
    func isPlainFile(_ path: String) -> Bool {
        var info = stat()
        return fstatat(descriptor, path, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFREG
    }
}
