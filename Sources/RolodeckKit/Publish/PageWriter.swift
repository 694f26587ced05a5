import Synchronization

/// Receives the pages of a build and places them in the staging folder: an unchanged page is
/// hard-linked from the old output, a new or changed one is written. Safe to call from several
/// threads at once; only the bookkeeping is serialized, not the file I/O.
public final class PageWriter: Sendable {
    private struct State {
        var oldFolders: [String: DirectoryHandle?] = [:]
        var stagingFolders: [String: DirectoryHandle] = [:]
        var sizes: [String: Int] = [:]
    }

    private let old: DirectoryHandle?
    private let staging: DirectoryHandle
    private let state = Mutex(State())
    private let written = Atomic(0)
    private let unchanged = Atomic(0)

    init(old: DirectoryHandle?, staging: DirectoryHandle) {
        self.old = old
        self.staging = staging
    }

    /// Every path written so far, relative to the output folder, with its size.
    var sizes: [String: Int] { state.withLock { $0.sizes } }

    /// The counts so far.
    var report: PublishReport {
        PublishReport(
            written: written.load(ordering: .relaxed), unchanged: unchanged.load(ordering: .relaxed))
    }

    /// Places one file at `path` (relative, `/`-separated, e.g. `contacts/kim.html`); with
    /// `reuse` false it is written even when the old output has the same bytes.
    public func write(_ path: String, _ bytes: [UInt8], reuse: Bool = true) throws {
        guard let (folder, name) = PagePath.folderAndName(of: path) else {
            throw PublishError(.invalidPagePath(path))
        }
        let (target, source) = try state.withLock { state throws(PublishError) -> (DirectoryHandle, DirectoryHandle?) in
            guard state.sizes.updateValue(bytes.count, forKey: path) == nil else {
                throw PublishError(.duplicatePage(path))
            }
            return (try stagingFolder(folder, in: &state), oldFolder(folder, in: &state))
        }
        if reuse, let source, source.contents(of: name, ifSize: bytes.count) == bytes, target.link(name, from: source) {
            unchanged.add(1, ordering: .relaxed)
            return
        }
        try target.createFile(name, bytes: bytes)
        written.add(1, ordering: .relaxed)
    }

    private func stagingFolder(_ folder: String, in state: inout State) throws(PublishError) -> DirectoryHandle {
        if folder.isEmpty { return staging }
        if let known = state.stagingFolders[folder] { return known }
        // A folder of a valid page path is a valid path itself.
        let (parentPath, name) = PagePath.folderAndName(of: folder)!
        let handle = try stagingFolder(parentPath, in: &state).makeChild(name)
        state.stagingFolders[folder] = handle
        return handle
    }

    private func oldFolder(_ folder: String, in state: inout State) -> DirectoryHandle? {
        guard let old else { return nil }
        if folder.isEmpty { return old }
        if let known = state.oldFolders[folder] { return known }
        // A folder of a valid page path is a valid path itself.
        let (parentPath, name) = PagePath.folderAndName(of: folder)!
        let handle = oldFolder(parentPath, in: &state)?.child(name)
        state.oldFolders[folder] = handle
        return handle
    }
}
