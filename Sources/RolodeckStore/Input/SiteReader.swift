import Foundation
import RolodeckCore
#if canImport(Glibc)
    import Glibc
#endif

/// Reads a site folder from disk into a `SiteInput`.
///
/// Paths in messages are built from `displayPath`, the site folder as the user named it, so a
/// diagnostic reads `demo/store/contacts.json:4:7`, a path the user can open.
public struct SiteReader {
    /// The site folder.
    var folder: URL
    /// How messages name the site folder ("" for the current folder).
    var displayPath: String
    /// Files read before, which watch keeps between rebuilds so that only changed files are read.
    public var cache: InputFileCache?

    /// Creates a reader for a site folder.
    public init(folder: URL, displayPath: String, cache: InputFileCache? = nil) {
        self.folder = folder
        self.displayPath = displayPath
        self.cache = cache
    }

    /// Reads the config (if any), the store, and the site's own templates and static files.
    /// The config is decoded here already, because it says where the store is. Throws the
    /// config's errors; returns its warnings.
    public func read() throws(DiagnosticError) -> (input: SiteInput, warnings: [Diagnostic]) {
        cache?.beginPass()
        var input = SiteInput()
        var diagnostics: [Diagnostic] = []
        let configURL = folder.appendingPathComponent(SiteConfig.fileName)
        if let bytes = try readIfPresent(configURL) {
            let decoded = ConfigDecoder.decode(SourceText(path: display(SiteConfig.fileName), bytes: bytes))
            input.config = decoded.config
            input.configBytes = bytes
            diagnostics += decoded.diagnostics
        }
        let config = input.config
        let store = folder.appendingPathComponent(config.store)
        input.storeFiles = try storeFiles(in: store, displayFolder: display(config.store))
        if input.storeFiles.isEmpty {
            let issue = StoreIssue(.noStore(path: display(config.store) + "/"))
            diagnostics.append(Diagnostic(.error, at: nil, issue.message))
        }
        for (path, bytes) in try files(under: folder.appendingPathComponent("Templates")) {
            input.templates[path] = SourceText(path: display("Templates/" + path), bytes: bytes)
        }
        input.assets = try files(under: folder.appendingPathComponent("Public"))
        cache?.endPass()
        if diagnostics.containsErrors { throw DiagnosticError(diagnostics) }
        return (input, diagnostics)
    }

    private func storeFiles(in store: URL, displayFolder: String) throws(DiagnosticError) -> [StoreFile] {
        var found: [StoreFile] = []
        let kinds: [(RecordKind, String)] = [(.contact, "contacts"), (.group, "groups"), (.todo, "todos")]
        for (kind, name) in kinds {
            let listURL = store.appendingPathComponent(name + ".json")
            if let bytes = try readIfPresent(listURL) {
                found.append(StoreFile(kind: kind, layout: .list,
                                       source: SourceText(path: displayFolder + "/" + name + ".json", bytes: bytes)))
            }
            let folderURL = store.appendingPathComponent(name)
            // One record per file, in file-name order (which is the todo order for todos/).
            for (path, bytes) in try files(under: folderURL).sorted(by: { $0.key < $1.key })
            where path.hasSuffix(".json") && !path.contains("/") {
                found.append(StoreFile(kind: kind, layout: .single,
                                       source: SourceText(path: displayFolder + "/" + name + "/" + path, bytes: bytes)))
            }
        }
        return found + (try vdirFiles(in: store, displayFolder: displayFolder))
    }

    /// The `.vcf` and `.ics` files anywhere in the store: loose, or in vdir collections (one
    /// folder per address book or task list, named by its `displayname` file), ordered by
    /// collection name, then path. Other files (`displayname`, `color`, `.tmp` files left by a
    /// sync in progress) are not read.
    private func vdirFiles(in store: URL, displayFolder: String) throws(DiagnosticError) -> [StoreFile] {
        var collections: [String: String] = [:]
        var found: [(collection: String, path: String, file: StoreFile)] = []
        for path in paths(under: store) {
            let lowered = path.lowercased()
            let isVCard = lowered.hasSuffix(".vcf") || lowered.hasSuffix(".vcard")
            guard isVCard || lowered.hasSuffix(".ics") else { continue }
            let folder = path.split(separator: "/").dropLast().joined(separator: "/")
            let collection: String
            if let known = collections[folder] {
                collection = known
            } else {
                collection = try collectionName(store.appendingPathComponent(folder), folder: folder)
                collections[folder] = collection
            }
            guard let bytes = try readIfPresent(store.appendingPathComponent(path)) else { continue }
            let source = SourceText(path: displayFolder + "/" + path, bytes: bytes)
            found.append((collection, path, isVCard ? .vCard(source, collection: collection)
                                                    : .iCalendar(source, collection: collection)))
        }
        return found.sorted { ($0.collection, $0.path) < ($1.collection, $1.path) }.map(\.file)
    }

    /// A vdir collection's name: its `displayname` file, or else the folder's own name.
    private func collectionName(_ url: URL, folder: String) throws(DiagnosticError) -> String {
        guard !folder.isEmpty else { return "" }
        if let bytes = try readIfPresent(url.appendingPathComponent("displayname")) {
            let name = String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map { String($0).trimmingWhitespace } ?? ""
            if !name.isEmpty { return name }
        }
        return String(folder.split(separator: "/").last ?? "")
    }

    /// Every regular file under a folder (none if it is missing), by `/`-separated relative path,
    /// skipping hidden files and editor leftovers.
    private func files(under root: URL) throws(DiagnosticError) -> [String: [UInt8]] {
        var result: [String: [UInt8]] = [:]
        for relative in paths(under: root) {
            if let bytes = try readIfPresent(root.appendingPathComponent(relative)) { result[relative] = bytes }
        }
        return result
    }

    /// The relative paths of the regular files under a folder, sorted; hidden files, editor
    /// leftovers and anything a link leads outside the folder are left out.
    private func paths(under root: URL) -> [String] {
        var result: [String] = []
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            return result
        }
        let rootPath = root.standardizedFileURL.resolvingSymlinksInPath().path
        guard let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return result }
        for case let url as URL in enumerator {
            let name = url.lastPathComponent
            if name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp") { continue }
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let path = url.standardizedFileURL.resolvingSymlinksInPath().path
            guard path.hasPrefix(rootPath + "/") else { continue }
            result.append(String(path.dropFirst(rootPath.count + 1)))
        }
        return result.sorted()
    }

    private func readIfPresent(_ url: URL) throws(DiagnosticError) -> [UInt8]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        guard let cache else { return try readFile(url) }
        return try cache.bytes(atPath: url.path) { () throws(DiagnosticError) in try readFile(url) }
    }

    /// Reads a whole file straight into an array sized from `fstat`, in as few `read` calls as
    /// the kernel allows and with no copy: the store is read before anything else can start.
    private func readFile(_ url: URL) throws(DiagnosticError) -> [UInt8] {
        let path = display(relativePath(url))
        func failure(_ reason: String) -> DiagnosticError {
            DiagnosticError([Diagnostic(.error, at: nil, "cannot read \(path): \(reason)")])
        }
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw DiagnosticError([Diagnostic(.error, at: nil, "cannot read \(path)")])
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(String(cString: strerror(errno))) }
        do {
            return try SiteReader.readToEnd(fd, sizeGuess: Int(info.st_size))
        } catch {
            throw failure(String(cString: strerror(error.code)))
        }
    }

    /// The bytes of the file at `path`, or nil when it cannot be opened or read: for files
    /// outside a site, such as the tool's own binary.
    public static func bytes(ofFileAt path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return try? readToEnd(fd, sizeGuess: Int(info.st_size))
    }

    /// A failed `read`, with its `errno`.
    struct ReadFailure: Error {
        var code: Int32
    }

    /// Everything left to read from `fd`. `sizeGuess` is the size `fstat` gave: the array is
    /// made that large (plus one byte, to see the end) and not zeroed first, since `read` writes
    /// every byte that is kept; a file that grew since is read on to its end in steps.
    static func readToEnd(_ fd: Int32, sizeGuess: Int) throws(ReadFailure) -> [UInt8] {
        let guess = max(sizeGuess, 0) + 1
        var failed: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: guess) { buffer, count in
            failed = SiteReader.read(fd, into: UnsafeMutableRawBufferPointer(buffer), count: &count)
        }
        var full = bytes.count == guess
        while failed == 0, full {
            var more = [UInt8](repeating: 0, count: max(bytes.count, 4096))
            var count = 0
            failed = more.withUnsafeMutableBytes { SiteReader.read(fd, into: $0, count: &count) }
            bytes += more[..<count]
            full = count == more.count
        }
        guard failed == 0 else { throw ReadFailure(code: failed) }
        return bytes
    }

    /// Reads from `fd` into `buffer` from `count` on until the buffer is full or the file ends,
    /// advancing `count`; the `errno` of a failed read, or 0.
    private static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer,
                             count: inout Int) -> Int32 {
        while count < buffer.count {
            let done = Glibc.read(fd, buffer.baseAddress! + count, buffer.count - count)
            if done < 0, errno == EINTR { continue }
            guard done >= 0 else { return errno }
            if done == 0 { break }
            count += done
        }
        return 0
    }

    private func relativePath(_ url: URL) -> String {
        let base = folder.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        return path.hasPrefix(base + "/") ? String(path.dropFirst(base.count + 1)) : path
    }

    /// A path inside the site as messages show it.
    public func display(_ relative: String) -> String {
        if displayPath.isEmpty || displayPath == "." { return relative }
        return displayPath.hasSuffix("/") ? displayPath + relative : displayPath + "/" + relative
    }
}
