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
    /// Whether `read` notes the status of every file it reads in the input's `statuses`.
    public var notesStatuses = false

    /// Creates a reader for a site folder.
    public init(folder: URL, displayPath: String, cache: InputFileCache? = nil) {
        self.folder = folder
        self.displayPath = displayPath
        self.cache = cache
    }

    /// Reads the config (if any), the store, and the site's own templates and static files.
    /// The config is decoded here already, because it says where the store is. Throws the
    /// config's errors and files that cannot be read; returns the config's warnings.
    ///
    /// The folders are walked first (`FolderWalk`), then every file is read on every core: a
    /// store of one file per card is 100,000 small files, each an `open`, `fstat`, `read` and
    /// `close` away.
    ///
    /// `changed` names the files and folders that changed since the last read with the same
    /// cache, as absolute paths (the watcher's), or is nil when anything may have changed. When
    /// only store files that were there before changed, only they are read: the others are
    /// taken as they were, without even a `stat`.
    public func read(changed: Set<String>? = nil) throws(DiagnosticError)
        -> (input: SiteInput, warnings: [Diagnostic])
    {
        do {
            return try readAll(changed: changed)
        } catch {
            // What this read did not take in is not in the next one's changes: it reads all.
            cache?.forgetListing()
            throw error
        }
    }

    private func readAll(changed: Set<String>?) throws(DiagnosticError)
        -> (input: SiteInput, warnings: [Diagnostic])
    {
        cache?.beginPass()
        var input = SiteInput()
        var diagnostics: [Diagnostic] = []
        let log = notesStatuses ? StatusLog() : nil
        let site = Tree(folder.path, display: displayPath, cache: cache, statuses: log)
        let configFile = site.existing([SiteConfig.fileName])
        var configSource: SourceText?
        if let bytes = try site.read(configFile).first {
            let source = SourceText(path: display(SiteConfig.fileName), bytes: bytes)
            let decoded = ConfigDecoder.decode(source)
            input.config = decoded.config
            input.configBytes = bytes
            diagnostics += decoded.diagnostics
            configSource = source
        }
        // Nothing under such a store is walked, let alone read (a `store` folder may be a link).
        if let refusal = storeRefusal(input.config) {
            let location = configSource.flatMap { ConfigDecoder.valueLocation(of: "store", in: $0) }
            diagnostics.append(Diagnostic(.error, at: location, refusal))
            throw DiagnosticError(diagnostics)
        }
        let store = site.folder(input.config.store)
        let storeRoot = AbsolutePath.of(store.root)
        let patched = try changed.flatMap { changed throws(DiagnosticError) in
            try patchedStore(in: store, root: storeRoot, changed: changed)
        }
        var listing: StoreListing
        if let patched {
            listing = patched
        } else {
            listing = try storeFiles(in: store)
            if let cache {
                listing.setModified(cache.modifications(of: listing.paths.map { store.root + "/" + $0 }))
                cache.keep(listing, root: storeRoot)
            }
        }
        input.storeFiles = listing.files
        diagnostics += listing.warnings
        if input.storeFiles.isEmpty {
            let configured = input.config.store
            let shown = configured.hasPrefix("/") ? configured : display(configured)
            let issue = StoreIssue(.noStore(path: shown + "/"))
            diagnostics.append(Diagnostic(.error, at: nil, issue.message))
        }
        let templates = site.subtree("Templates")
        let templateWalk = FolderWalk(root: templates.root)
        try Self.checkNames(templateWalk, in: templates)
        diagnostics += Self.siteFolderWarnings(templateWalk, in: templates, named: "Templates")
        for (path, bytes) in zip(templateWalk.files, try templates.read(templateWalk.files)) {
            input.templates[path] = SourceText(path: templates.display(path), bytes: bytes)
        }
        let assets = site.subtree("Public")
        let assetWalk = FolderWalk(root: assets.root)
        try Self.checkNames(assetWalk, in: assets)
        diagnostics += Self.siteFolderWarnings(assetWalk, in: assets, named: "Public")
        input.assets = Dictionary(
            uniqueKeysWithValues: zip(assetWalk.files, try assets.read(assetWalk.files)))
        cache?.endPass(keepingUnder: patched == nil ? nil : store.root + "/", store: store.root + "/")
        input.statuses = log?.all ?? [:]
        input.storeModified =
            cache != nil
            ? listing.newestModification
            : Self.newestModification(of: input.storeFiles, in: store, log: log)
        if diagnostics.containsErrors { throw DiagnosticError(diagnostics) }
        return (input, diagnostics)
    }

    /// The store folder `config` names, with every link resolved; nil when it does not exist.
    public func resolvedStore(_ config: SiteConfig) -> String? {
        AbsolutePath.resolved(config.store.hasPrefix("/") ? config.store : folder.path + "/" + config.store)
    }

    /// The site folder, with every link resolved; nil when it does not exist.
    public var resolvedFolder: String? { AbsolutePath.resolved(folder.path) }

    /// Why the store `config` names is not read, when it holds far more than a store (the root
    /// of the file system, or a folder that holds the site folder, `".."`), or lies inside
    /// `Public/`, which is published file by file (the store's own files would be on the site,
    /// `hiddenContacts` and `hiddenFields` notwithstanding). A slip in
    /// `rolodeck.json` (`"/"` for `"."`) would otherwise read and publish every card under it:
    /// a check of the demo with a store of `"/"` read 200,051 contacts, from every project and
    /// test folder on the machine. Nil otherwise, and for a store that does not exist (the
    /// read says so). Links are resolved first, so that no link names such a folder either.
    func storeRefusal(_ config: SiteConfig) -> String? {
        guard let store = resolvedStore(config), let site = resolvedFolder else { return nil }
        let quoted = "store \"\(config.store)\""
        let advice = #"; name the folder that holds only the store's files, such as "store""#
        if store == "/" {
            return quoted + " is the root of the file system: a build would read every contact card, "
                + "calendar and contacts.json on this machine, and publish them" + advice
        }
        if AbsolutePath.isInside(site, store) {
            return quoted + " is \(store), which holds the site folder itself: a build would read every "
                + "contact card, calendar and contacts.json beside the site, and publish them" + advice
        }
        if let published = AbsolutePath.resolved(folder.path + "/Public"),
            AbsolutePath.isWithin(store, published)
        {
            return quoted + " lies inside Public/, whose files are published as they are: every card "
                + "and record in the store would be on the site as written, hidden contacts and hidden "
                + "fields included; move the store out of Public/"
        }
        return nil
    }

    /// The digest of the statuses of every file `read` would read, each by the path it would
    /// open it by (`FileStatusDigest`, as `InputIndex` makes it of what `read` notes), found
    /// without reading them (but for the config, which says where the store is), with the
    /// config; nil when the config has errors or a file cannot be looked at.
    public func survey() -> (config: SiteConfig, statuses: FileStatusDigest)? {
        guard let (config, statuses) = surveyConfig(), let files = surveyFiles(for: config) else {
            return nil
        }
        var all = statuses
        all.add(files)
        return (config, all)
    }

    /// The first part of `survey`: the config, read and decoded, with the digest of its status;
    /// nil when it has errors or cannot be read.
    public func surveyConfig() -> (config: SiteConfig, statuses: FileStatusDigest)? {
        let log = StatusLog()
        let site = Tree(folder.path, display: displayPath, cache: nil, statuses: log)
        var config = SiteConfig()
        guard let configBytes = try? site.read(site.existing([SiteConfig.fileName])) else { return nil }
        if let bytes = configBytes.first {
            let decoded = ConfigDecoder.decode(SourceText(path: display(SiteConfig.fileName), bytes: bytes))
            guard !decoded.diagnostics.containsErrors else { return nil }
            config = decoded.config
        }
        guard storeRefusal(config) == nil else { return nil }
        var statuses = FileStatusDigest()
        for (path, status) in log.all {
            statuses.add(status, path: path)
        }
        return (config, statuses)
    }

    /// The rest of `survey`: the digest of the statuses of the store's files and the site's
    /// templates and static files, with `config` saying where the store is; nil when a file
    /// cannot be looked at.
    public func surveyFiles(for config: SiteConfig) -> FileStatusDigest? {
        let site = Tree(folder.path, display: displayPath, cache: nil)
        let store = site.folder(config.store)
        // The digest is a sum, in no order: the walk need not sort what it finds.
        let walk = FolderWalk(root: store.root, sorted: false, skippingOutputs: true)
        let (lists, singles, vdir, photos) = Self.storePaths(walk, in: store)
        let names = store.existing(Self.folders(of: vdir).sorted().map { $0 + "/displayname" })
        guard walk.misnamed.isEmpty,
            var digest = store.statusDigest(of: lists + singles.map(\.path) + vdir + names + photos)
        else { return nil }
        for folder in ["Templates", "Public"] {
            let tree = site.subtree(folder)
            let walk = FolderWalk(root: tree.root, sorted: false)
            guard walk.misnamed.isEmpty, let found = tree.statusDigest(of: walk.files) else { return nil }
            digest.add(found)
        }
        return digest
    }

    /// The store's files: `contacts.json`, `groups.json`, `todos.json` and `salutations.json`;
    /// the `.json` files in `contacts/`, `groups/`, `todos/` and `salutations/`, one record
    /// each, in file-name order (which is the todo order for `todos/`); then the vCard and
    /// iCalendar files (`vdirFiles`); then the files in `photos/`.
    private func storeFiles(in store: Tree) throws(DiagnosticError) -> StoreListing {
        let walk = FolderWalk(root: store.root, skippingOutputs: true)
        try Self.checkNames(walk, in: store)
        let (lists, singles, vdir, photos) = Self.storePaths(walk, in: store)
        // The order of the listing is known from the paths: kind after kind, each its list and
        // then its folder; the vdir files; the photos.
        var order: [(path: String, file: Listed)] = []
        order.reserveCapacity(lists.count + singles.count + vdir.count + photos.count)
        for kind in Self.kinds {
            if lists.contains(kind.name + ".json") { order.append((kind.name + ".json", .list(kind.kind))) }
            for single in singles where single.kind == kind.kind {
                order.append((single.path, .single(kind.kind)))
            }
        }
        try vdirOrder(vdir, in: store, into: &order)
        for path in photos { order.append((path, .photo)) }
        // Each file is read on every core and made into a store file there (its path as
        // messages show it, and its bytes), and listed here, in order, as it comes: the
        // listing of 100,000 files overlaps their reading.
        var listing = StoreListing()
        listing.paths.reserveCapacity(order.count)
        var failures: [Diagnostic] = []
        ParallelWork.inOrder(order.count, batch: 32) { [order] index -> Result<StoreFile, ReadFailure> in
            let (path, file) = order[index]
            return store.bytes(of: path).map { bytes in
                let source = SourceText(path: store.display(path), bytes: bytes)
                switch file {
                case .list(let kind): return StoreFile(kind: kind, layout: .list, source: source)
                case .single(let kind): return StoreFile(kind: kind, layout: .single, source: source)
                case .vdir(let collection):
                    return Self.isICalendar(path)
                        ? .iCalendar(source, collection: collection) : .vCard(source, collection: collection)
                case .photo: return .photo(source, storePath: path)
                }
            }
        } consume: { index, made in
            switch made {
            case .success(let file): listing.append(order[index].path, file)
            case .failure(let failure): failures.append(store.problem(failure, reading: order[index].path))
            }
        }
        if !failures.isEmpty { throw DiagnosticError(failures) }
        listing.folders = Set(walk.folders)
        listing.warnings = Self.passedOverWarnings(walk, in: store)
        return listing
    }

    /// A warning for each entry the walk left out that a build would have read had it been a
    /// plain file in the store (`place(of:)`, or a kind's list file), and for every link to a
    /// folder, which may hold such files: a vdir linked into the store is otherwise left out
    /// without a word.
    static func passedOverWarnings(_ walk: FolderWalk, in store: Tree) -> [Diagnostic] {
        let lists = Set(kinds.map { $0.name + ".json" })
        return walk.passedOver.compactMap { path, reason in
            let wouldBeRead = reason == .linkToFolder || lists.contains(path) || place(of: path) != nil
            guard wouldBeRead else { return nil }
            let advice =
                reason == .linkToFolder
                ? "to build from that folder, name it as \"store\" in \(SiteConfig.fileName) or copy it into the store"
                : "replace it with the file itself"
            return Diagnostic(
                .warning, at: nil,
                "\(store.display(path)) \(reason.description(in: "the store")): left out; \(advice)")
        }
    }

    /// A warning for each entry the walk of the site's `Templates/` or `Public/` (`tree`,
    /// `name`) left out, each of which would have been a template or a published file: a link
    /// to a file outside the folder (never followed, so that no link publishes a file from
    /// elsewhere), to a folder, to nothing, or what is not a plain file. A logo linked into
    /// `Public/` was otherwise left out of the site without a word.
    static func siteFolderWarnings(_ walk: FolderWalk, in tree: Tree, named name: String) -> [Diagnostic] {
        walk.passedOver.map { path, reason in
            let advice: String
            switch reason {
            case .linkToFolder: advice = "; copy the folder itself into \(name)/"
            case .linkOutside: advice = "; copy the file itself into \(name)/"
            case .brokenLink, .notAFile: advice = ""
            }
            return Diagnostic(
                .warning, at: nil,
                "\(tree.display(path)) \(reason.description(in: name + "/")): left out\(advice)")
        }
    }

    /// What a store file is listed as.
    private enum Listed: Sendable {
        case list(RecordKind), single(RecordKind)
        /// A vCard or iCalendar file of the collection of that name.
        case vdir(String)
        case photo
    }

    /// The kinds of record, each with the name of its list file and folder.
    static let kinds: [(kind: RecordKind, name: String)] = [
        (.contact, "contacts"), (.group, "groups"), (.todo, "todos"), (.salutation, "salutations"),
    ]

    /// Which of the files a walk of the store found are read, and as what: the list files that
    /// exist, the one-record files in the kinds' folders, the vCard and iCalendar files, and
    /// every file in `photos/` (whatever its name: a photo's format is told by its bytes).
    static func storePaths(_ walk: FolderWalk, in store: Tree)
        -> (lists: [String], singles: [(kind: RecordKind, path: String)], vdir: [String], photos: [String])
    {
        let lists = store.existing(kinds.map { $0.name + ".json" })
        var singles: [(kind: RecordKind, path: String)] = []
        var vdir: [String] = []
        var photos: [String] = []
        for path in walk.files {
            switch place(of: path) {
            case .photo: photos.append(path)
            case .vdir: vdir.append(path)
            case .single(let kind): singles.append((kind, path))
            case nil: continue
            }
        }
        return (lists, singles, vdir, photos)
    }

    /// What a store file is read as.
    private enum Place {
        case photo, vdir
        case single(RecordKind)
    }

    /// What the store file at `path` (its bytes) is read as: anything in `photos/` a photo, a
    /// vCard or iCalendar file anywhere a vdir file, a `.json` file in a kind's folder one
    /// record; nil for anything else. Told by the path's bytes: a store of a file per card has
    /// 100,000 of them.
    private static func place(of path: UnsafeRawBufferPointer) -> Place? {
        func starts(with prefix: StaticString) -> Bool {
            path.count >= prefix.utf8CodeUnitCount
                && memcmp(path.baseAddress!, prefix.utf8Start, prefix.utf8CodeUnitCount) == 0
        }
        if starts(with: "photos/") { return .photo }
        if hasSuffix(path, ignoringCase: ".vcf") || hasSuffix(path, ignoringCase: ".vcard")
            || hasSuffix(path, ignoringCase: ".ics")
        {
            return .vdir
        }
        guard path.count > 5, memcmp(path.baseAddress! + path.count - 5, ".json", 5) == 0,
            let slash = path.firstIndex(of: UInt8(ascii: "/")),
            !path[(slash + 1)...].contains(UInt8(ascii: "/"))
        else { return nil }
        let folder = UnsafeRawBufferPointer(rebasing: path[..<slash])
        return kinds.first { $0.name.utf8.elementsEqual(folder) }.map { .single($0.kind) }
    }

    /// `place(of:)` for a path as a `String`.
    private static func place(of path: String) -> Place? {
        var path = path
        return path.withUTF8 { place(of: UnsafeRawBufferPointer($0)) }
    }

    /// Whether a file's name ends in `.ics`, in any case.
    static func isICalendar(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { hasSuffix(UnsafeRawBufferPointer($0), ignoringCase: ".ics") }
    }

    /// Whether `path` ends in `suffix` (lowercase ASCII) with ASCII letters in either case: what
    /// `path.lowercased().hasSuffix(suffix)` says for these suffixes, without making a String
    /// for every file of the store. (No other letter lowercases to the ASCII letters of `vcf`,
    /// `vcard` and `ics`.)
    private static func hasSuffix(_ path: UnsafeRawBufferPointer, ignoringCase suffix: StaticString) -> Bool {
        let count = suffix.utf8CodeUnitCount
        guard path.count >= count else { return false }
        for offset in 0..<count {
            let byte = path[path.count - count + offset]
            if byte | (byte &- UInt8(ascii: "A") < 26 ? 0x20 : 0) != suffix.utf8Start[offset] { return false }
        }
        return true
    }

    /// The `.vcf` and `.ics` files anywhere in the store (`paths`, in `String` order), each with
    /// the name of its collection: loose, or in vdir collections (one folder per address book
    /// or task list, named by its `displayname` file), ordered by collection name, then path.
    /// Other files (`displayname`, `color`, `.tmp` files left by a sync in progress) are not read.
    private func vdirOrder(
        _ paths: [String], in store: Tree, into order: inout [(path: String, file: Listed)]
    ) throws(DiagnosticError) {
        // Each file's collection, by its folder (a handful of folders for 100,000 files), as
        // its position in `names`.
        var collections: [Substring: Int] = [:]
        var names: [String] = []
        var positions: [String: Int] = [:]
        var collectionOfFile = [Int](repeating: 0, count: paths.count)
        let runs = Self.folderRuns(of: paths)
        for (run, start) in runs.enumerated() {
            let end = run + 1 < runs.count ? runs[run + 1].file : paths.count
            let path = paths[start.file]
            let folder = path[..<path.utf8.index(path.utf8.startIndex, offsetBy: start.folderLength)]
            let position: Int
            if let known = collections[folder] {
                position = known
            } else {
                let name = try collectionName(in: store, folder: String(folder))
                position = positions[name] ?? names.count
                if position == names.count {
                    positions[name] = position
                    names.append(name)
                }
                collections[folder] = position
            }
            for index in start.file..<end { collectionOfFile[index] = position }
        }
        // The paths come in `String` order, so each collection's files are in order as they
        // come: taken collection by collection, the collections sorted by name, they are in
        // (collection, path) order without comparing 100,000 paths again.
        guard names.count > 1 else {
            let listed = Listed.vdir(names.first ?? "")
            for path in paths { order.append((path, listed)) }
            return
        }
        var byCollection = [[Int]](repeating: [], count: names.count)
        for (index, collection) in collectionOfFile.enumerated() { byCollection[collection].append(index) }
        for collection in names.indices.sorted(by: { names[$0] < names[$1] }) {
            let listed = Listed.vdir(names[collection])
            for index in byCollection[collection] { order.append((paths[index], listed)) }
        }
    }

    /// The folders the files at `paths` are in (not the top), each once.
    static func folders(of paths: [String]) -> Set<String> {
        Set(
            folderRuns(of: paths).lazy.filter { $0.folderLength > 0 }.map { start in
                String(decoding: paths[start.file].utf8.prefix(start.folderLength), as: UTF8.self)
            })
    }

    /// Where each run of files in one folder starts among `paths` (a file whose folder is not
    /// the one of the file before), with the length of that folder's path in bytes (up to the
    /// last `/`; 0 at the top). A walk lists a folder's files one after another, so the folders
    /// of 100,000 files are told by their bytes, each path read where it is: a string made and
    /// hashed for each file took 40 ms of an unchanged build, and a Substring and three copies
    /// of the path 14 ms of the order of reading.
    private static func folderRuns(of paths: [String]) -> [(file: Int, folderLength: Int)] {
        var runs: [(file: Int, folderLength: Int)] = []
        // The folder of the file before, as bytes; none at first.
        var previous: [UInt8]?
        for index in paths.indices {
            let isNew: Bool = withBytes(of: paths[index]) { bytes in
                let folder = bytes[..<(bytes.lastIndex(of: UInt8(ascii: "/")) ?? 0)]
                guard previous.map({ !$0.elementsEqual(folder) }) ?? true else { return false }
                previous = Array(folder)
                return true
            }
            if isNew { runs.append((index, previous!.count)) }
        }
        return runs
    }

    /// Calls `body` with the UTF-8 bytes of `text`, where they are when they are in one piece.
    private static func withBytes<Result>(
        of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = text
        return text.withUTF8(body)
    }

    /// A vdir collection's name: its `displayname` file, or else the folder's own name.
    private func collectionName(in store: Tree, folder: String) throws(DiagnosticError) -> String {
        guard !folder.isEmpty else { return "" }
        let path = folder + "/displayname"
        if let bytes = try store.read(store.existing([path])).first {
            let name =
                String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline).first
                .map { String($0).trimmingWhitespace } ?? ""
            if !name.isEmpty { return name }
        }
        return String(folder.split(separator: "/").last ?? "")
    }

    /// Throws an error for each file of a walk whose name is not UTF-8.
    private static func checkNames(_ walk: FolderWalk, in tree: Tree) throws(DiagnosticError) {
        guard !walk.misnamed.isEmpty else { return }
        throw DiagnosticError(
            walk.misnamed.map { path in
                Diagnostic(
                    .error, at: nil, "cannot read \(tree.display(path)): its name is not UTF-8; rename it")
            })
    }

    /// The bytes of the file at `path`, or nil when it cannot be opened or read: for files
    /// outside a site, such as the tool's own binary.
    public static func bytes(ofFileAt path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        let isRegularFile = info.st_mode & S_IFMT == S_IFREG
        return try? readToEnd(fd, sizeGuess: Int(info.st_size), isRegularFile: isRegularFile)
    }

    /// A failed `read`, with its `errno`.
    struct ReadFailure: Error {
        var code: Int32
    }

    /// Everything left to read from `fd`. `sizeGuess` is the size `fstat` gave: the array is
    /// made that large (plus one byte, to see the end) and not zeroed first, since `read` writes
    /// every byte that is kept; a file that grew since is read on to its end in steps.
    ///
    /// From a regular file, a read that gives fewer bytes than asked has met the end (Linux
    /// cuts a read of a file short only there, or for a signal that kills the process), so it
    /// is not followed by another that finds nothing: a store of a file per card is 100,000
    /// files, and that read was a third of the system calls of reading them.
    static func readToEnd(
        _ fd: Int32, sizeGuess: Int, isRegularFile: Bool = false
    ) throws(ReadFailure) -> [UInt8] {
        let guess = max(sizeGuess, 0) + 1
        var failed: Int32 = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: guess) { buffer, count in
            failed = SiteReader.read(
                fd, into: UnsafeMutableRawBufferPointer(buffer), count: &count, stopsShort: isRegularFile)
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
    /// `stopsShort`: after a read that gave fewer bytes than asked, as one from a regular file
    /// at its end does.
    private static func read(
        _ fd: Int32, into buffer: UnsafeMutableRawBufferPointer,
        count: inout Int, stopsShort: Bool = false
    ) -> Int32 {
        while count < buffer.count {
            let asked = buffer.count - count
            let done = Glibc.read(fd, buffer.baseAddress! + count, asked)
            if done < 0, errno == EINTR { continue }
            guard done >= 0 else { return errno }
            if done == 0 { break }
            count += done
            if stopsShort, done < asked { break }
        }
        return 0
    }

    /// A path inside the site as messages show it.
    public func display(_ relative: String) -> String {
        let shown = Self.shown(displayPath.isEmpty ? relative : displayPath + "/" + relative)
        return shown.isEmpty ? "." : shown
    }

    /// `path` as messages show it: without `.` parts, doubled or trailing slashes, so that a
    /// store of `"."` or `"./book/"` names its files `site/x.vcf`, not `site/./x.vcf`; "" for the
    /// current folder. A `..` part stays: what it leads to depends on the links before it.
    static func shown(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}

extension SiteReader {
    /// When the newest of the store's files last changed, from the statuses the log kept of
    /// them; nil when it did not. (A read with a cache finds it in the store's listing.)
    static func newestModification(of files: ChunkedArray<StoreFile>, in store: Tree, log: StatusLog?)
        -> Int64?
    {
        guard let log else { return nil }
        // A store file's path in messages is the store's display path, then its own.
        let prefix = store.displayFolder.isEmpty ? "" : store.displayFolder + "/"
        var paths: [String] = []
        paths.reserveCapacity(files.count)
        for file in files where file.source.path.hasPrefix(prefix) {
            paths.append(store.root + "/" + file.source.path.dropFirst(prefix.count))
        }
        return log.newestModification(of: paths)
    }
}
