import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Receives the pages of a build and places them in the staging folder: an unchanged page is
/// hard-linked from the old output, a new or changed one is written. Safe to call from several
/// threads at once; only the bookkeeping is serialized, not the file I/O.
public final class PageWriter: Sendable {
    /// What the writing threads share.
    private struct State {
        /// The old output's folders by path (nil where it has none), in arrays: a site has a
        /// handful, and comparing a short path with a few is cheaper than hashing it.
        var oldFolders: [(path: String, handle: DirectoryHandle?)] = []
        /// The staging folder's folders by path, made as pages need them.
        var stagingFolders: [(path: String, handle: DirectoryHandle)] = []
        /// Every file placed or being placed, in the order `write` was called.
        var files: [(path: String, size: Int)] = []
    }

    private let old: DirectoryHandle?
    private let staging: DirectoryHandle
    private let state = Mutex(State())
    private let written = Atomic(0)
    private let unchanged = Atomic(0)

    /// A writer into `staging` that links unchanged pages from `old`, if there is an old output.
    init(old: DirectoryHandle?, staging: DirectoryHandle) {
        self.old = old
        self.staging = staging
    }

    /// Every path written so far, relative to the output folder, with its size, in the order
    /// they were written (which, with several threads, differs from build to build).
    var files: [(path: String, size: Int)] { state.withLock { $0.files } }

    /// The counts so far.
    var report: PublishReport {
        PublishReport(
            written: written.load(ordering: .relaxed), unchanged: unchanged.load(ordering: .relaxed))
    }

    /// Places one file at `path` (relative, `/`-separated, e.g. `contacts/kim.html`); with
    /// `reuse` false it is written even when the old output has the same bytes.
    public func write(_ path: String, _ bytes: [UInt8], reuse: Bool = true) throws {
        try place(path, size: bytes.count, reuse: reuse) { source, name in
            source.contents(of: name, ifSize: bytes.count) == bytes
        } create: { target, name throws(PublishError) in
            try target.createFile(name, bytes: bytes)
        }
    }

    /// Places one file at `path` made of `parts`, one after the other, without joining them.
    public func write(_ path: String, parts: [[UInt8]]) throws {
        let size = parts.reduce(0) { $0 + $1.count }
        try place(path, size: size, reuse: true) { source, name in
            source.holds(name, parts: parts, size: size)
        } create: { target, name throws(PublishError) in
            try target.createFile(name, parts: parts)
        }
    }

    /// Places a file of `size` bytes at `path`: links it from the old output when `isSame` says
    /// the old file there has its bytes, else makes it with `create`.
    private func place(
        _ path: String, size: Int, reuse: Bool, isSame: (DirectoryHandle, String) -> Bool,
        create: (DirectoryHandle, String) throws(PublishError) -> Void
    ) throws {
        guard let (folder, name) = PagePath.folderAndName(of: path) else {
            throw PublishError(.invalidPagePath(path))
        }
        let (target, source) = try state.withLock { state throws(PublishError) -> (DirectoryHandle, DirectoryHandle?) in
            // No set of the paths to find a page written twice: the second one finds its file
            // already there (`O_EXCL`), and `createFile` says so.
            state.files.append((path, size))
            return (try stagingFolder(folder, in: &state), oldFolder(folder, in: &state))
        }
        if reuse, let source, isSame(source, name), target.link(name, from: source) {
            unchanged.add(1, ordering: .relaxed)
            return
        }
        do {
            try create(target, name)
        } catch {
            if case .system(_, _, EEXIST) = error.reason, isWrittenTwice(path) {
                throw PublishError(.duplicatePage(path))
            }
            throw error
        }
        written.add(1, ordering: .relaxed)
    }

    /// Whether `path` was given to `write` more than once.
    private func isWrittenTwice(_ path: String) -> Bool {
        state.withLock { state in state.files.lazy.filter { $0.path == path }.count > 1 }
    }

    private func stagingFolder(_ folder: String, in state: inout State) throws(PublishError) -> DirectoryHandle {
        if folder.isEmpty { return staging }
        if let known = state.stagingFolders.first(where: { $0.path == folder }) { return known.handle }
        // A folder of a valid page path is a valid path itself.
        let (parentPath, name) = PagePath.folderAndName(of: folder)!
        let handle = try stagingFolder(parentPath, in: &state).makeChild(name)
        state.stagingFolders.append((folder, handle))
        return handle
    }

    private func oldFolder(_ folder: String, in state: inout State) -> DirectoryHandle? {
        guard let old else { return nil }
        if folder.isEmpty { return old }
        if let known = state.oldFolders.first(where: { $0.path == folder }) { return known.handle }
        // A folder of a valid page path is a valid path itself.
        let (parentPath, name) = PagePath.folderAndName(of: folder)!
        let handle = oldFolder(parentPath, in: &state)?.child(name)
        state.oldFolders.append((folder, handle))
        return handle
    }
}
