import RolodeckCore

#if canImport(Glibc)
    import Glibc
#endif

/// The polling side of the watcher, for when inotify cannot be used (its limits are reached,
/// or the files are on a network file system whose changes from other machines it never
/// sees): every file in scope is looked at with `stat`, and what differs from the last look is
/// a change.
struct FolderPoller {
    /// What a look at a file records; any difference is a change.
    private struct Status: Equatable {
        var file: FileStatus
        var isFolder: Bool
    }

    private var known: [String: Status] = [:]
    private var started = false
    /// Files that changed just before the last look: a second change within the same clock
    /// tick would not show in their times, so they count as changed once more.
    private var recent: Set<String> = []
    /// How long after a change a file's times stop vouching for it (as `InputFileCache`).
    let margin: Int64 = 2_000_000_000

    /// Looks at every file in scope; returns the paths that changed, came or went since the
    /// last look (none the first time).
    mutating func scan(_ scope: WatchScope) -> [String] {
        let time = FileStatus.now()
        var current: [String: Status] = [:]
        if let status = Self.status(scope.siteFolder + "/" + SiteConfig.fileName) {
            current[scope.siteFolder + "/" + SiteConfig.fileName] = status
        }
        for tree in scope.trees {
            collect(tree, scope: scope, into: &current)
        }
        let first = !started
        started = true
        var changed = Set(recent)
        for (path, status) in current where known[path] != status { changed.insert(path) }
        for path in known.keys where current[path] == nil { changed.insert(path) }
        // Reported again once, at the next look: a later change is by then at least a clock tick
        // after this one, so it shows in the file's times.
        recent = Set(
            current.filter { path, status in
                (first || known[path] != status) && status.file.changed + margin >= time && !status.isFolder
            }.keys)
        known = current
        return first ? [] : changed.sorted()
    }

    private func collect(_ folder: String, scope: WatchScope, into current: inout [String: Status]) {
        guard scope.isWatched(folder: folder), let stream = opendir(folder) else { return }
        defer { closedir(stream) }
        if let status = Self.status(folder) { current[folder] = status }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        for name in names {
            let path = folder + "/" + name
            guard let status = Self.status(path) else { continue }
            if status.isFolder {
                collect(path, scope: scope, into: &current)
            } else if scope.isRelevant(name, in: folder, isFolder: false) {
                current[path] = status
            }
        }
    }

    private static func status(_ path: String) -> Status? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Status(file: FileStatus(info), isFolder: info.st_mode & S_IFMT == S_IFDIR)
    }
}
