import CSystem
import RolodeckCore

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
    /// What the publish could not tidy up, without failing: folders left beside the output.
    public var warnings: [PublishWarning] = []

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
/// atomic rename. A failure, a kill or a stop asked through `control` before that leaves the old
/// output exactly as it was; after it, the new site is published whatever else fails, and the
/// old one is removed (or, if it cannot be, left under the staging name with a warning).
///
/// Nothing stays beside the output between builds: the lock is taken on the parent folder
/// (`OutputLock`), and what the next build needs to know is in the output's manifest.
public struct Publisher: Sendable {
    /// The file that marks a folder as a Rolodeck output, so a build never wipes a folder it
    /// did not make.
    public static let markerName = OutputMarker.name

    /// The output folder as the user named it.
    public var outputPath: String
    /// Follows the publish and stops it from outside.
    public var control: PublishControl

    /// Creates a publisher for an output folder.
    public init(outputPath: String, control: PublishControl = .none) {
        self.outputPath = outputPath
        self.control = control
    }

    /// Thrown when `control` stopped a publish; the output is as it was, and nothing that the
    /// publish wrote is left.
    public struct Cancelled: Error, Sendable {}

    /// Runs `produce`, which writes every page through the writer it is given, then publishes
    /// the result. Throws (leaving the output untouched) if `produce` or publishing fails.
    ///
    /// `fingerprint` identifies the build's inputs: when the output was built from the same
    /// fingerprint and is intact, `produce` is not even called and nothing is written.
    /// `statuses`, the digest of the statuses of the files read, is recorded with it when
    /// those files may vouch for the fingerprint (see `upToDateFileCount(statuses:)`), and
    /// `photos`, the digest of what made the photos' files (see `photosMadeBy(_:)`).
    public func publish(
        fingerprint: String? = nil, statuses: String? = nil, photos: String? = nil,
        _ produce: (PageWriter) throws -> Void
    ) throws -> PublishReport {
        let (parentPath, name) = try locateOutput()
        guard let parent = DirectoryHandle.open(parentPath) else {
            throw PublishError.system("open", parentPath)
        }
        let lock = try OutputLock(parent, waiting: control.waiting)
        defer { withExtendedLifetime(lock) {} }

        let old = parent.child(name)
        if let old, !(try old.entries().isEmpty), old.status(of: Publisher.markerName) == nil {
            throw PublishError(.notRolodeckOutput(path: outputPath))
        }
        if let fingerprint, let old, let count = Publisher.intactFileCount(in: old, fingerprint: fingerprint) {
            return PublishReport(unchanged: count)
        }
        control.willWrite()
        var warnings = removeLeftovers(in: parent, parentPath: parentPath, name: name)
        let stagingName = try makeStaging(in: parent, parentPath: parentPath, name: name)
        // Named after the output in messages: it becomes the output.
        guard let staging = DirectoryHandle.open(parentPath + "/" + stagingName, displayPath: outputPath) else {
            let failure = PublishError.system("open", parentPath + "/" + stagingName)
            try? parent.removeTree(stagingName)
            throw failure
        }

        var report: PublishReport
        do {
            let writer = PageWriter(old: old, staging: staging)
            try produce(writer)
            let files = writer.files
            // Written last and never reused, so that its time is at least that of every file it
            // lists, as the next build's check expects; without a fingerprint there is no check.
            try writer.write(
                Publisher.markerName,
                OutputManifest.bytes(
                    fingerprint: fingerprint, statuses: statuses, photos: photos, listing: files),
                reuse: fingerprint == nil)
            report = writer.report
            if let old {
                var produced = Set(files.map(\.path))
                produced.insert(Publisher.markerName)
                report.removed = try countStale(old, produced: produced, prefix: "")
            }
            if report.written > 0 || report.removed > 0 {
                if old != nil, let info = parent.status(of: name) {
                    // Keep the folder's own permissions (a group-writable web root, say).
                    fchmod(staging.descriptor, info.st_mode & 0o7777)
                }
                _ = rolodeck_syncfs(staging.descriptor)
            }
            // The last moment to stop: from the swap on, the new site is published.
            if control.isCancelled() { throw Cancelled() }
        } catch {
            try? parent.removeTree(stagingName)
            throw error
        }
        if report.written == 0, report.removed == 0 {
            try? parent.removeTree(stagingName)
            report.warnings = warnings
            return report
        }
        warnings += try replace(
            parent: parent, parentPath: parentPath, name: name, stagingName: stagingName, exists: old != nil)
        report.warnings = warnings
        return report
    }

    /// The number of files in the output, when it was built from inputs with this fingerprint
    /// and is intact; nil when a build has work to do. Reads, never writes.
    public func upToDateFileCount(fingerprint: String) -> Int? {
        guard let old = DirectoryHandle.open(outputPath) else { return nil }
        return Publisher.intactFileCount(in: old, fingerprint: fingerprint)
    }

    /// The number of files in the output, when its manifest records this digest of the statuses
    /// of the files read (so the inputs are those of its fingerprint) and it is intact; nil
    /// otherwise. Reads, never writes.
    public func upToDateFileCount(statuses: String) -> Int? {
        guard let old = DirectoryHandle.open(outputPath) else { return nil }
        return Publisher.intactFileCount(in: old, where: { OutputManifest.statuses(in: $0) == statuses })
    }

    /// Whether the output's photo files were made by what `photos` digests (the tool and the
    /// image libraries it ran; see `OutputManifest`), and the output is intact: every file as
    /// the build that recorded it wrote it. Then its files at a photo's names are what such a
    /// build would make of that photo again, whatever else changed. Reads, never writes.
    public func photosMadeBy(_ photos: String) -> Bool {
        guard let old = DirectoryHandle.open(outputPath) else { return false }
        return Publisher.intactFileCount(in: old) { OutputManifest.photos(in: $0) == photos } != nil
    }

    /// The digest of the statuses of the files read that the output's manifest records, with
    /// the number of files in the output, when it records one and the output is intact; nil
    /// otherwise. Reads, never writes. Unlike `upToDateFileCount(statuses:)`, it needs no digest
    /// to compare with, so the output can be looked at while the files read are still being
    /// looked at.
    public func recordedStatuses() -> (statuses: String, files: Int)? {
        guard let old = DirectoryHandle.open(outputPath), let marker = old.status(of: Publisher.markerName),
            let bytes = old.contents(of: Publisher.markerName),
            let statuses = OutputManifest.statuses(in: bytes),
            let files = OutputManifest.intactFileCount(listedIn: bytes, in: old, manifestTime: marker.st_mtim)
        else { return nil }
        return (statuses, files)
    }

    /// Records `statuses` in the manifest of the output, if it was built from `fingerprint` and
    /// does not record them yet, so that the next build whose files have those statuses stops
    /// without reading them. Only the manifest is rewritten: a new file, given the old one's
    /// modification time (so the output is exactly as intact as it was) and renamed over it.
    /// Returns whether it wrote. It does not wait for another build: one that holds the lock is
    /// about to replace the output anyway, and a record missed costs the next build only a read.
    public func record(statuses: String, fingerprint: String) throws -> Bool {
        let (parentPath, name) = try locateOutput()
        guard let parent = DirectoryHandle.open(parentPath) else {
            throw PublishError.system("open", parentPath)
        }
        guard let lock = try OutputLock.ifFree(parent) else { return false }
        defer { withExtendedLifetime(lock) {} }
        guard let output = parent.child(name), let marker = output.status(of: Publisher.markerName),
            let bytes = output.contents(of: Publisher.markerName),
            OutputManifest.fingerprint(in: bytes) == fingerprint,
            OutputManifest.statuses(in: bytes) != statuses,
            let updated = OutputManifest.recording(statuses: statuses, in: bytes)
        else { return false }
        control.willWrite()
        let temporary = OutputPatcher.temporaryName(for: Publisher.markerName)
        try? output.removeTree(temporary)
        try output.createFile(temporary, bytes: updated)
        var times = [marker.st_atim, marker.st_mtim]
        guard utimensat(output.descriptor, temporary, &times, AT_SYMLINK_NOFOLLOW) == 0,
            renameat(output.descriptor, temporary, output.descriptor, Publisher.markerName) == 0
        else {
            let failure = PublishError.system("replace", outputPath + "/" + Publisher.markerName)
            try? output.removeTree(temporary)
            throw failure
        }
        return true
    }

    /// `intactFileCount(in:where:)` for a manifest with this fingerprint.
    private static func intactFileCount(in output: DirectoryHandle, fingerprint: String) -> Int? {
        intactFileCount(in: output, where: { OutputManifest.fingerprint(in: $0) == fingerprint })
    }

    /// The number of files in the output, when its manifest `matches` and it is intact.
    private static func intactFileCount(
        in output: DirectoryHandle, where matches: ([UInt8]) -> Bool
    ) -> Int? {
        guard let marker = output.status(of: markerName), let bytes = output.contents(of: markerName),
              matches(bytes) else { return nil }
        return OutputManifest.intactFileCount(listedIn: bytes, in: output, manifestTime: marker.st_mtim)
    }

    /// The names beside an output that only a build of it makes: its staging folders (and a
    /// retired old site, which is one of them with a suffix).
    static func stagingPrefix(_ name: String) -> String {
        "." + name + ".rolodeck-staging-"
    }

    /// Removes what earlier builds left beside the output: the staging folders of builds that
    /// were killed (the lock says no build is using them now), and the lock file and input index
    /// that older versions kept there. A folder that cannot be removed (an old site that
    /// another user built, say) is not in the way, since this build takes a name of its own:
    /// it is reported, not an error.
    private func removeLeftovers(
        in parent: DirectoryHandle, parentPath: String, name: String
    ) -> [PublishWarning] {
        for legacy in ["." + name + ".rolodeck-lock", "." + name + ".rolodeck-inputs"] {
            if let info = parent.status(of: legacy), DirectoryHandle.isRegularFile(info) {
                _ = unlinkat(parent.descriptor, legacy, 0)
            }
        }
        var warnings: [PublishWarning] = []
        let prefix = Publisher.stagingPrefix(name)
        for entry in (try? parent.entries()) ?? [] where entry.hasPrefix(prefix) {
            do {
                try parent.removeTree(entry)
            } catch {
                let leftover = parentPath + "/" + entry
                let reason = PublishWarning.Reason.earlierLeftover(leftover: leftover, failure: "\(error)")
                warnings.append(PublishWarning(reason, leftover: leftover))
            }
        }
        return warnings
    }

    /// Creates the staging folder under a name no other folder has (a leftover that could not be
    /// removed may have this process's number in its name); returns the name.
    private func makeStaging(
        in parent: DirectoryHandle, parentPath: String, name: String
    ) throws(PublishError) -> String {
        var attempt = 0
        while true {
            let suffix = attempt == 0 ? "" : "-\(attempt)"
            let staging = Publisher.stagingPrefix(name) + String(getpid()) + suffix
            if mkdirat(parent.descriptor, staging, 0o755) == 0 { return staging }
            let code = errno
            switch code {
            case EEXIST:
                attempt += 1
            case EACCES, EPERM, EROFS:
                throw PublishError(.parentNotWritable(parent: parentPath, output: outputPath, errno: code))
            default:
                let path = parentPath + "/" + staging
                throw PublishError(.system(operation: "create folder", path: path, errno: code))
            }
        }
    }

    /// Swaps the staging folder in; the old output ends up under the staging name and is removed.
    /// Throws only while the old output is still in place; once the new one is, a failure to
    /// remove the old one is a warning.
    private func replace(parent: DirectoryHandle, parentPath: String, name: String, stagingName: String,
                         exists: Bool) throws -> [PublishWarning] {
        let stagingPath = parentPath + "/" + stagingName
        let targetPath = parentPath + "/" + name
        guard exists else {
            guard rename(stagingPath, targetPath) == 0 else {
                let failure = PublishError.system("create", outputPath)
                try? parent.removeTree(stagingName)
                throw failure
            }
            return []
        }
        if rolodeck_rename_exchange(AT_FDCWD, stagingPath, AT_FDCWD, targetPath) == 0 {
            return retire(stagingName, in: parent, parentPath: parentPath)
        }
        let code = errno
        guard code == EINVAL || code == ENOSYS || code == EOPNOTSUPP else {
            try? parent.removeTree(stagingName)
            throw PublishError(.cannotReplace(path: outputPath, errno: code))
        }
        // No atomic exchange on this file system: two renames, with a moment between them
        // where the output folder is absent (never half-written). The old site waits under a
        // staging name, which the next build removes if this one dies in between.
        let retiredName = stagingName + "-retired"
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
        return retire(retiredName, in: parent, parentPath: parentPath)
    }

    /// Removes the old site, swapped out under `name`; when it cannot be (another user's files),
    /// the new site is published all the same, and the warning says what is left where.
    private func retire(_ name: String, in parent: DirectoryHandle, parentPath: String) -> [PublishWarning] {
        do {
            try parent.removeTree(name)
            return []
        } catch {
            let leftover = parentPath + "/" + name
            let reason = PublishWarning.Reason.oldSiteLeft(
                output: outputPath, leftover: leftover, failure: "\(error)")
            return [PublishWarning(reason, leftover: leftover)]
        }
    }

    /// The output's parent folder (created if missing) and its name, with symbolic links in the
    /// path resolved, so that a linked output is replaced where it really is.
    func locateOutput() throws -> (parent: String, name: String) {
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
