import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Updates a few files of a published output in place, for watch: where `Publisher` assembles a
/// whole new tree and swaps it in, this writes only the pages a change touched.
///
/// Every changed file is first written beside its destination under a temporary name; only when
/// every page has been rendered and written are they renamed into place, one rename each, so a
/// browser never reads half a page. If rendering or writing fails, the temporary files are
/// removed and the output is left as it was. The manifest is rewritten last, so that a later
/// `rolodeck build` with the same input finds the output up to date.
public struct OutputPatcher {
    /// The output folder, as the user named it.
    var outputPath: String

    /// A patcher of the output folder at `outputPath`.
    public init(outputPath: String) {
        self.outputPath = outputPath
    }

    /// Makes spares of the output's large files in `spares` (`SpareFiles.prime`), when the
    /// output holds the bytes given for each (by path) and no spare is kept of it: its manifest,
    /// read from it, and `files`. For a watch after it published the whole output, so that its
    /// first save writes those files as the saves after it do.
    public func primeSpares(_ spares: SpareFiles, files: [(path: String, parts: [[UInt8]])]) throws {
        let (parent, name, lock, output) = try lockedOutput()
        defer { withExtendedLifetime(lock) {} }
        spares.prepare(parent: parent, outputName: name, output: output)
        if let manifest = output.contents(of: Publisher.markerName) {
            spares.prime(Publisher.markerName, parts: [manifest], name: Publisher.markerName, in: output)
        }
        for file in files {
            guard let (folderPath, fileName) = PagePath.folderAndName(of: file.path),
                let folder = folderPath.isEmpty ? output : output.child(folderPath)
            else { continue }
            spares.prime(file.path, parts: file.parts, name: fileName, in: folder)
        }
    }

    /// The output's parent folder, the output's name in it, the lock on the parent (held until
    /// the caller lets go of it) and the output folder, open.
    private func lockedOutput() throws -> (
        parent: DirectoryHandle, name: String, lock: OutputLock, output: DirectoryHandle
    ) {
        // Where `Publisher` finds it, so that both lock the same folder for a linked output too.
        let (parentPath, name) = try Publisher(outputPath: outputPath).locateOutput()
        guard let parent = DirectoryHandle.open(parentPath) else {
            throw PublishError.system("open", parentPath)
        }
        let lock = try OutputLock(parent)
        guard let output = DirectoryHandle.open(parentPath + "/" + name, displayPath: outputPath) else {
            throw PublishError.system("open", outputPath)
        }
        return (parent, name, lock, output)
    }

    /// The name of a file being written, until it is renamed into place.
    static func temporaryName(for name: String) -> String {
        "." + name + ".rolodeck-new-" + String(getpid())
    }

    /// Runs `produce`, which writes the changed pages through the writer it is given and returns
    /// the paths to remove, then puts the pages in place, removes those paths, and writes the
    /// manifest for `files` (every file of the output by path and size, updated here for what was
    /// written and removed). `produce` is handed `files` as they are before the patch, to read
    /// without holding a copy that updating them would have to duplicate. `manifest` is the
    /// manifest's text as the last patch wrote it, nil to read it from the output; it is the new
    /// text after the patch, nil after a failure. Large files and a large manifest are made
    /// through `spares`, when given (a watch keeps them from one patch to the next). `photos` is
    /// the digest of what made the photos' files, for the manifest (see `OutputManifest`).
    public func patch(
        fingerprint: String, photos: String? = nil, files: inout [String: Int], manifest: inout [UInt8]?,
        spares: SpareFiles? = nil,
        _ produce: (PatchWriter, _ files: [String: Int]) throws -> [String]
    ) throws -> PublishReport {
        let (parent, name, lock, output) = try lockedOutput()
        defer { withExtendedLifetime(lock) {} }

        spares?.prepare(parent: parent, outputName: name, output: output)
        let writer = PatchWriter(output: output, spares: spares)
        let removing: [String]
        do {
            removing = try produce(writer, files)
        } catch {
            writer.discard()
            throw error
        }
        var report = writer.report
        do {
            try writer.commit()
        } catch {
            writer.discard()
            throw error
        }
        let sizes = writer.sizes
        for (written, size) in sizes {
            files[written] = size
        }
        var changes = sizes.map { (path: $0.key, size: Optional($0.value)) }
        for stale in removing where files[stale] != nil {
            files[stale] = nil
            try remove(stale, in: output)
            report.removed += 1
            changes.append((stale, nil))
        }
        // The manifest as the last patch left it, or as the output has it, patched; made anew as
        // a whole build makes it (listing the files in the same order) when it is not readable.
        var text = manifest ?? output.contents(of: Publisher.markerName) ?? []
        manifest = nil
        if !OutputManifest.patch(&text, fingerprint: fingerprint, photos: photos, changes: changes) {
            text = OutputManifest.bytes(
                fingerprint: fingerprint, photos: photos,
                listing: files.map { (path: $0.key, size: $0.value) })
        }
        // A large site's manifest (7.7 MB at 100,000 contacts) is made through a spare, as its
        // large files are.
        if let spares, let staged = try spares.stage(Publisher.markerName, parts: [text], size: text.count) {
            do {
                try spares.commit(staged, into: output, name: Publisher.markerName)
            } catch {
                spares.discard(staged)
                throw error
            }
            manifest = text
            return report
        }
        let temporary = Self.temporaryName(for: Publisher.markerName)
        try? output.removeTree(temporary)
        try output.createFile(temporary, bytes: text)
        guard renameat(output.descriptor, temporary, output.descriptor, Publisher.markerName) == 0 else {
            let failure = PublishError.system("replace", outputPath + "/" + Publisher.markerName)
            try? output.removeTree(temporary)
            throw failure
        }
        manifest = text
        return report
    }

    /// Removes a file, and the folders it leaves empty, as a whole build would not make them.
    private func remove(_ path: String, in output: DirectoryHandle) throws {
        var parts = path.split(separator: "/").map(String.init)
        var folders = [output]
        for part in parts.dropLast() {
            guard let child = folders.last!.child(part) else { return }
            folders.append(child)
        }
        try folders.last!.removeTree(parts.last!)
        parts.removeLast()
        while let folder = parts.popLast() {
            folders.removeLast()
            // Removed only if empty, without listing it: `contacts/` holds 200,000 files.
            guard try folders.last!.removeIfEmpty(folder) else { return }
        }
    }
}

/// Receives the changed pages of a watch rebuild: a page whose bytes equal the file already in
/// the output is left alone (keeping its modification time); any other is written under a
/// temporary name beside it. Safe to call from several threads at once.
public final class PatchWriter: Sendable {
    /// A file written under its temporary name, not yet renamed into place.
    private struct Pending {
        /// The folder it is in.
        var folder: DirectoryHandle
        /// Its name once in place.
        var name: String
        /// Where it was made instead of beside its destination, when it was made through a spare.
        var staged: SpareFiles.Staged? = nil
    }

    /// What the writing threads share.
    private struct State {
        /// The output's folders opened so far, by path.
        var folders: [String: DirectoryHandle] = [:]
        /// Folders this writer made, to remove again if the rebuild fails.
        var created: [(parent: DirectoryHandle, name: String)] = []
        /// The files written and not yet renamed into place.
        var pending: [Pending] = []
        /// The paths whose bytes changed.
        var written: [String] = []
        /// The paths written or confirmed, with their sizes.
        var sizes: [String: Int] = [:]
        /// The counts so far.
        var report = PublishReport()
    }

    private let output: DirectoryHandle
    /// Where large files are made, when they are.
    private let spares: SpareFiles?
    private let state = Mutex(State())

    /// A writer into the output folder `output`, making large files through `spares`.
    init(output: DirectoryHandle, spares: SpareFiles? = nil) {
        self.output = output
        self.spares = spares
    }

    /// The paths written or confirmed, with their sizes.
    var sizes: [String: Int] { state.withLock { $0.sizes } }

    /// The counts so far.
    var report: PublishReport { state.withLock { $0.report } }

    /// The paths whose bytes changed, in no particular order.
    public var writtenPaths: [String] { state.withLock { $0.written } }

    /// Writes one file at `path` (relative, `/`-separated) unless it already has these bytes.
    public func write(_ path: String, _ bytes: [UInt8]) throws {
        try write(path, size: bytes.count) { folder, name in
            folder.contents(of: name, ifSize: bytes.count) == bytes
        } create: { folder, name throws(PublishError) in
            try folder.createFile(name, bytes: bytes)
        }
    }

    /// Writes one file at `path` made of `parts`, one after the other, unless it already has
    /// these bytes; the parts are compared and written without being joined. When the caller
    /// knows the bytes `differ` from those the output has, they are not compared.
    /// A large file is made through the spares, when the writer has them.
    public func write(_ path: String, parts: [[UInt8]], differ: Bool = false) throws {
        let size = parts.reduce(0) { $0 + $1.count }
        try write(path, size: size) { folder, name in
            !differ && folder.holds(name, parts: parts, size: size)
        } stage: { () throws(PublishError) in
            try self.spares?.stage(path, parts: parts, size: size)
        } create: { folder, name throws(PublishError) in
            try folder.createFile(name, parts: parts)
        }
    }

    /// Writes a file of `size` bytes at `path` with `create` under a temporary name, unless
    /// `isSame` finds the file in place holds its bytes, or `stage` makes it elsewhere.
    private func write(
        _ path: String, size: Int, isSame: (DirectoryHandle, String) -> Bool,
        stage: () throws(PublishError) -> SpareFiles.Staged? = { nil },
        create: (DirectoryHandle, String) throws(PublishError) -> Void
    ) throws {
        guard let (folderPath, name) = PagePath.folderAndName(of: path) else {
            throw PublishError(.invalidPagePath(path))
        }
        let folder = try state.withLock { state throws(PublishError) -> DirectoryHandle in
            guard state.sizes.updateValue(size, forKey: path) == nil else {
                throw PublishError(.duplicatePage(path))
            }
            return try self.folder(folderPath, in: &state)
        }
        if isSame(folder, name) {
            state.withLock { $0.report.unchanged += 1 }
            return
        }
        let staged = try stage()
        if staged == nil {
            let temporary = OutputPatcher.temporaryName(for: name)
            try? folder.removeTree(temporary)
            try create(folder, temporary)
        }
        state.withLock { state in
            state.pending.append(Pending(folder: folder, name: name, staged: staged))
            state.written.append(path)
            state.report.written += 1
        }
    }

    /// Renames every written file into place.
    ///
    /// The files they replace are held open across the rename and closed on another thread:
    /// the last close of a file frees its pages, which for the 66 MB `contacts.vcf` of 100,000
    /// contacts took the rename 10 ms while the save waited.
    func commit() throws {
        let pending = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        var replaced: [Int32] = []
        defer {
            if !replaced.isEmpty {
                Self.closer.async { [replaced] in
                    for descriptor in replaced { close(descriptor) }
                }
            }
        }
        for (index, file) in pending.enumerated() {
            if let staged = file.staged, let spares {
                // The file it replaces is the spare from now on: not closed, nor freed.
                do {
                    try spares.commit(staged, into: file.folder, name: file.name)
                } catch {
                    state.withLock { $0.pending = Array(pending[index...]) }
                    throw error
                }
                continue
            }
            let temporary = OutputPatcher.temporaryName(for: file.name)
            // Not blocking: a named pipe put there by hand would wait for a writer.
            let old = openat(
                file.folder.descriptor, file.name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
            if old >= 0 { replaced.append(old) }
            guard renameat(file.folder.descriptor, temporary, file.folder.descriptor, file.name) == 0 else {
                let failure = PublishError.system("replace", file.folder.path + "/" + file.name)
                state.withLock { $0.pending = Array(pending[index...]) }
                throw failure
            }
        }
    }

    /// The queue `commit` closes replaced files on, below the rebuilds' priority.
    static let closer = DispatchQueue(label: "rolodeck.patch-writer.close", qos: .utility)

    /// Removes the temporary files not yet renamed into place.
    func discard() {
        let pending = state.withLock { state in
            defer { state.pending = [] }
            return state.pending
        }
        for file in pending {
            if let staged = file.staged {
                spares?.discard(staged)
            } else {
                try? file.folder.removeTree(OutputPatcher.temporaryName(for: file.name))
            }
        }
        let created = state.withLock { state in
            defer { state.created = [] }
            return state.created
        }
        for folder in created.reversed() {
            if let child = folder.parent.child(folder.name), (try? child.entries())?.isEmpty == true {
                try? folder.parent.removeTree(folder.name)
            }
        }
    }

    private func folder(_ path: String, in state: inout State) throws(PublishError) -> DirectoryHandle {
        if path.isEmpty { return output }
        if let known = state.folders[path] { return known }
        // A folder of a valid page path is a valid path itself.
        let (parentPath, name) = PagePath.folderAndName(of: path)!
        let parent = try folder(parentPath, in: &state)
        if parent.status(of: name) == nil { state.created.append((parent, name)) }
        let handle = try parent.makeChild(name)
        state.folders[path] = handle
        return handle
    }
}
