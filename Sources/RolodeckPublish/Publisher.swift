import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a publish did to the output folder.
public struct PublishReport: Sendable, Equatable {
    /// Files whose bytes were new or changed.
    public var written = 0
    /// Files left exactly as they were (same inode, same modification time).
    public var unchanged = 0
    /// Files that were in the output and are no longer produced.
    public var removed = 0

    /// Creates a report.
    init(written: Int = 0, unchanged: Int = 0, removed: Int = 0) {
        self.written = written
        self.unchanged = unchanged
        self.removed = removed
    }
}

/// Replaces an output folder with a new build, all at once or not at all.
///
/// The new site is assembled in a staging folder beside the output: unchanged files are
/// hard-linked from the old output (keeping their modification times), changed ones written.
/// Only when everything is in place is the staging folder exchanged with the output in one
/// atomic rename. A failure or a kill before that leaves the old output exactly as it was.
public struct Publisher: Sendable {
    /// The file that marks a folder as a Rolodeck output, so a build never wipes a folder it
    /// did not make.
    public static let markerName = ".rolodeck"

    /// The output folder as the user named it.
    public var outputPath: String

    /// Creates a publisher for an output folder.
    public init(outputPath: String) {
        self.outputPath = outputPath
    }

    /// Runs `produce`, which writes every page through the writer it is given, then publishes
    /// the result. Throws (leaving the output untouched) if `produce` or publishing fails.
    ///
    /// `fingerprint` identifies the build's inputs: when the output was built from the same
    /// fingerprint and is intact, `produce` is not even called and nothing is written.
    public func publish(fingerprint: String? = nil, _ produce: (PageWriter) throws -> Void) throws -> PublishReport {
        let (parentPath, name) = try locateOutput()
        guard let parent = DirectoryHandle.open(parentPath) else { throw PublishError.system("open", parentPath) }
        let lock = try OutputLock(parent: parentPath, name: name)
        defer { withExtendedLifetime(lock) {} }

        let old = parent.child(name)
        if let old, !(try old.entries().isEmpty), old.status(of: Publisher.markerName) == nil {
            throw PublishError(.notRolodeckOutput(path: outputPath))
        }
        if let fingerprint, let old, let count = Publisher.intactFileCount(in: old, fingerprint: fingerprint) {
            return PublishReport(unchanged: count)
        }
        let stagingPrefix = "." + name + ".rolodeck-staging-"
        for entry in try parent.entries() where entry.hasPrefix(stagingPrefix) {
            // Left by a build that was killed; the lock says no build is using it now.
            try parent.removeTree(entry)
        }
        let stagingName = stagingPrefix + String(getpid())
        _ = try parent.makeChild(stagingName)
        guard let staging = DirectoryHandle.open(parentPath + "/" + stagingName, displayPath: outputPath) else {
            throw PublishError.system("open", parentPath + "/" + stagingName)
        }

        var report: PublishReport
        do {
            let writer = PageWriter(old: old, staging: staging)
            try produce(writer)
            let files = writer.files
            // Written last and never reused, so that its time is at least that of every file it
            // lists, as the next build's check expects; without a fingerprint there is no check.
            try writer.write(
                Publisher.markerName, OutputManifest.bytes(fingerprint: fingerprint, listing: files),
                reuse: fingerprint == nil)
            report = writer.report
            if let old {
                var produced = Set(files.map(\.path))
                produced.insert(Publisher.markerName)
                report.removed = try countStale(old, produced: produced, prefix: "")
            }
        } catch {
            try? parent.removeTree(stagingName)
            throw error
        }
        if report.written == 0, report.removed == 0 {
            try parent.removeTree(stagingName)
            return report
        }
        if old != nil, let info = parent.status(of: name) {
            // Keep the folder's own permissions (a group-writable web root, say).
            fchmod(staging.descriptor, info.st_mode & 0o7777)
        }
        _ = rolodeck_syncfs(staging.descriptor)
        try replace(parent: parent, parentPath: parentPath, name: name, stagingName: stagingName,
                    exists: old != nil)
        return report
    }

    /// The number of files in the output, when it was built from inputs with this fingerprint
    /// and is intact; nil when a build has work to do. Reads, never writes.
    public func upToDateFileCount(fingerprint: String) -> Int? {
        guard let old = DirectoryHandle.open(outputPath) else { return nil }
        return Publisher.intactFileCount(in: old, fingerprint: fingerprint)
    }

    private static func intactFileCount(in output: DirectoryHandle, fingerprint: String) -> Int? {
        guard let marker = output.status(of: markerName), let bytes = output.contents(of: markerName),
              OutputManifest.fingerprint(in: bytes) == fingerprint, let manifest = OutputManifest(bytes: bytes),
              manifest.isIntact(in: output, manifestTime: marker.st_mtim) else { return nil }
        return manifest.files.count + 1
    }

    /// Swaps the staging folder in; the old output ends up under the staging name and is removed.
    private func replace(parent: DirectoryHandle, parentPath: String, name: String, stagingName: String,
                         exists: Bool) throws {
        let stagingPath = parentPath + "/" + stagingName
        let targetPath = parentPath + "/" + name
        guard exists else {
            guard rename(stagingPath, targetPath) == 0 else {
                let failure = PublishError.system("create", outputPath)
                try? parent.removeTree(stagingName)
                throw failure
            }
            return
        }
        if rolodeck_rename_exchange(AT_FDCWD, stagingPath, AT_FDCWD, targetPath) == 0 {
            try parent.removeTree(stagingName)
            return
        }
        let code = errno
        guard code == EINVAL || code == ENOSYS || code == EOPNOTSUPP else {
            try? parent.removeTree(stagingName)
            throw PublishError(.cannotReplace(path: outputPath, errno: code))
        }
        // No atomic exchange on this file system: two renames, with a moment between them
        // where the output folder is absent (never half-written).
        let retiredName = "." + name + ".rolodeck-retired-" + String(getpid())
        guard rename(targetPath, parentPath + "/" + retiredName) == 0 else {
            let failure = PublishError(.cannotReplace(path: outputPath, errno: errno))
            try? parent.removeTree(stagingName)
            throw failure
        }
        guard rename(stagingPath, targetPath) == 0 else {
            let failure = PublishError(.cannotReplace(path: outputPath, errno: errno))
            _ = rename(parentPath + "/" + retiredName, targetPath)
            try? parent.removeTree(stagingName)
            throw failure
        }
        try parent.removeTree(retiredName)
    }

    /// The output's parent folder (created if missing) and its name, with symbolic links in the
    /// path resolved, so that a linked output is replaced where it really is.
    private func locateOutput() throws -> (parent: String, name: String) {
        var path = outputPath
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        if let resolved = realpath(path, nil) {
            path = String(cString: resolved)
            free(resolved)
            var info = stat()
            if stat(path, &info) == 0, !DirectoryHandle.isDirectory(info) {
                throw PublishError(.notAFolder(path: outputPath))
            }
        }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var parent = slash.map { String(path[..<$0]) } ?? "."
        if parent.isEmpty { parent = "/" }
        guard !name.isEmpty, name != ".", name != ".." else { throw PublishError(.notAFolder(path: outputPath)) }
        try makeFolders(parent)
        if let resolved = realpath(parent, nil) {
            parent = String(cString: resolved)
            free(resolved)
        }
        return (parent, name)
    }

    private func makeFolders(_ path: String) throws {
        var current = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw PublishError.system("create folder", current)
            }
        }
    }

    /// The number of files in the old output that the new build does not produce.
    private func countStale(_ directory: DirectoryHandle, produced: Set<String>, prefix: String) throws -> Int {
        var count = 0
        for entry in try directory.entries() {
            let path = prefix + entry
            if let info = directory.status(of: entry), DirectoryHandle.isDirectory(info),
               let child = directory.child(entry) {
                count += try countStale(child, produced: produced, prefix: path + "/")
            } else if !produced.contains(path) {
                count += 1
            }
        }
        return count
    }
}
