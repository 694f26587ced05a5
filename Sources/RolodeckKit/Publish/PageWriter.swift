/// Receives the pages of a build and places them in the staging folder: an unchanged page is
/// hard-linked from the old output, a new or changed one is written.
public final class PageWriter {
    private let old: DirectoryHandle?
    private let staging: DirectoryHandle
    private var oldFolders: [String: DirectoryHandle?] = [:]
    private var stagingFolders: [String: DirectoryHandle] = [:]
    /// Every path written so far, relative to the output folder.
    private(set) var paths: Set<String> = []
    /// The counts so far.
    private(set) var report = PublishReport()

    init(old: DirectoryHandle?, staging: DirectoryHandle) {
        self.old = old
        self.staging = staging
    }

    /// Places one file at `path` (relative, `/`-separated, e.g. `contacts/kim.html`).
    public func write(_ path: String, _ bytes: [UInt8]) throws {
        let components = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard !path.hasPrefix("/"), !components.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }),
              !path.utf8.contains(0) else {
            throw PublishError(.invalidPagePath(path))
        }
        guard paths.insert(path).inserted else { throw PublishError(.duplicatePage(path)) }
        let folder = components.dropLast().joined(separator: "/")
        let name = components[components.count - 1]
        let target = try stagingFolder(folder)
        if let source = oldFolder(folder), source.contents(of: name, ifSize: bytes.count) == bytes,
           target.link(name, from: source) {
            report.unchanged += 1
            return
        }
        try target.createFile(name, bytes: bytes)
        report.written += 1
    }

    private func stagingFolder(_ folder: String) throws -> DirectoryHandle {
        if folder.isEmpty { return staging }
        if let known = stagingFolders[folder] { return known }
        let parentPath = folder.split(separator: "/").dropLast().joined(separator: "/")
        let name = String(folder.split(separator: "/").last!)
        let handle = try stagingFolder(parentPath).makeChild(name)
        stagingFolders[folder] = handle
        return handle
    }

    private func oldFolder(_ folder: String) -> DirectoryHandle? {
        guard let old else { return nil }
        if folder.isEmpty { return old }
        if let known = oldFolders[folder] { return known }
        let parentPath = folder.split(separator: "/").dropLast().joined(separator: "/")
        let name = String(folder.split(separator: "/").last!)
        let handle = oldFolder(parentPath)?.child(name)
        oldFolders[folder] = handle
        return handle
    }
}
