import CSystem
import Dispatch
import RolodeckCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Spare copies of the large files a watch rewrites on most saves, so that a save writes only
/// the bytes that changed into an old copy and swaps it in, instead of the whole file into a new
/// one. `contacts.vcf` holds every contact's vCard: 66 MB at 100,000 contacts, and writing it
/// into a new file took 50 to 70 ms of every save, most of it the kernel allocating and clearing
/// the new file's pages.
///
/// - A large file's new version is made in a folder of its own beside the output (named as the
///   builds' staging folders are, readable by its owner only), then exchanged with the file in
///   place (`renameat2` with `RENAME_EXCHANGE`): as with a rename, a reader opens the old
///   version or the new one, never a mix of the two.
/// - The old version is left in that folder as the spare. Its bytes are the version before the
///   one in place, so the next save writes the parts from the first that differs from them to
///   the end into it (to the last that differs, when the size is the same), and cuts it to its
///   new length. The output's manifest (7.7 MB at 100,000 contacts) goes the same way.
/// - Once the save is done, the spare is caught up off its path, below the rebuilds' priority:
///   written into as the next save would, with the version now in place. The next save then
///   writes into it from its own change on, not from the earlier of the last two changes: half
///   of `contacts.vcf` on average in place of two thirds. A save waits for a catch-up still
///   running before it takes the spare.
/// - A spare is written into only when it is the file this left there (its device, inode, size
///   and modification time), has no other link, and no one else has it open: the kernel grants
///   a write lease (`F_SETLEASE`) only then, and someone still reading the old version (a slow
///   download) would see it change. Otherwise the new version is written whole, as before.
/// - The folder goes when the watch stops (`removeAll`). One left by a watch that was killed
///   is removed by the next watch that makes one, or by the next build that publishes the
///   output, as its staging folders are.
/// - The cost: a copy of each such file beside the output while the watch runs (74 MB at
///   100,000 contacts), and SIGIO ignored once a lease was taken (see `rolodeck_take_write_lease`).
public final class SpareFiles: Sendable {
    /// Files smaller than this are written whole beside their destination, as any page is.
    let minimumSize: Int

    /// An old version kept in the spare folder.
    private struct Spare {
        /// Its name in the spare folder.
        var name: String
        /// The file's status when it was left there.
        var status: FileStatus
        /// Its bytes, as parts; nil when they are not known (the version a whole build wrote).
        var parts: [[UInt8]]?
    }

    /// The version of a file this put in place.
    private struct Live {
        var status: FileStatus
        var parts: [[UInt8]]
    }

    /// What the writing threads share.
    private struct State {
        /// The output's parent, the output's name and its file system, which the folder is for.
        var parent: DirectoryHandle?
        var outputName = ""
        var outputDevice: UInt64 = 0
        /// The spare folder, once made, and its name in `parent`.
        var folder: DirectoryHandle?
        var folderName = ""
        /// Whether spares cannot be kept for this output (the folder is on another file
        /// system, or it cannot exchange files).
        var disabled = false
        /// Whether the watch stopped (`removeAll`): no folder is made from then on, whatever
        /// was still under way (a spare primed off the rebuilds' path).
        var stopped = false
        /// The spares, by the output path of the file they are old versions of.
        var spares: [String: Spare] = [:]
        /// The versions in place that this put there, by output path.
        var live: [String: Live] = [:]
        /// The name each output path's file has in the spare folder.
        var names: [String: String] = [:]
    }

    private let state = Mutex(State())

    /// Whether a spare is caught up with the version in place once it is put there.
    private let catchesUp: Bool

    /// The queue spares are caught up on, one at a time, below the rebuilds' priority.
    private let catchUps = DispatchQueue(label: "rolodeck.spare-files.catch-up", qos: .utility)

    /// The catch-ups not yet done, by output path: a save waits only for its own file's, not
    /// for that of the file put in place just before (the manifest comes after `contacts.vcf`).
    private let catchingUp = Mutex<[String: DispatchGroup]>([:])

    /// Spares for files of at least `minimumSize` bytes, caught up with the versions put in
    /// place unless `catchesUp` is false (then each stays the version before last).
    public init(minimumSize: Int = 1 << 20, catchesUp: Bool = true) {
        self.minimumSize = minimumSize
        self.catchesUp = catchesUp
    }

    /// A file's new version, made in the spare folder and not yet in place.
    struct Staged: Sendable {
        /// The spare folder, and the file's name in it.
        let folder: DirectoryHandle
        let name: String
        /// The output path of the file it is a version of.
        let path: String
        /// Its bytes.
        let parts: [[UInt8]]
    }

    /// Readies the spares for a patch of the output `outputName` in `parent` (`output` open).
    /// What was known of them is forgotten when the output is another, or when their folder is
    /// gone (a whole publish removes it, as a staging folder left beside the output); the folder
    /// is made when a file first needs it.
    func prepare(parent: DirectoryHandle, outputName: String, output: DirectoryHandle) {
        state.withLock { state in
            let sameOutput =
                state.outputName == outputName
                && state.parent.map(Self.identity) ?? (0, 0) == Self.identity(parent)
            if sameOutput {
                guard let folder = state.folder else { return }
                if let found = parent.status(of: state.folderName), DirectoryHandle.isDirectory(found),
                    Self.identity(folder) == (UInt64(found.st_dev), UInt64(found.st_ino))
                {
                    return
                }
            } else if let old = state.parent, state.folder != nil {
                try? old.removeTree(state.folderName)
            }
            let disabled = sameOutput && state.disabled
            state = State(
                parent: parent, outputName: outputName, outputDevice: Self.identity(output).device,
                folderName: Publisher.stagingPrefix(outputName) + String(getpid()) + "-spares",
                disabled: disabled, stopped: state.stopped)
        }
    }

    /// The spare folder, made when there is none yet; nil when it cannot be made on the
    /// output's file system (a file cannot be renamed from one to another).
    private static func folder(in state: inout State) -> DirectoryHandle? {
        if let folder = state.folder { return folder }
        guard !state.disabled, !state.stopped, let parent = state.parent else { return nil }
        // Spare folders of this output that watches which were killed left (each process names
        // its own): the lock on the output is held, so no watch is writing into one now.
        let prefix = Publisher.stagingPrefix(state.outputName)
        for entry in (try? parent.entries()) ?? [] where entry.hasPrefix(prefix) && entry.hasSuffix("-spares")
        {
            try? parent.removeTree(entry)
        }
        guard mkdirat(parent.descriptor, state.folderName, 0o700) == 0,
            let folder = parent.child(state.folderName)
        else {
            state.disabled = true
            return nil
        }
        guard identity(folder).device == state.outputDevice else {
            try? parent.removeTree(state.folderName)
            state.disabled = true
            return nil
        }
        state.folder = folder
        return folder
    }

    /// Puts a staged version in place of the file `name` in `folder`: exchanged with it, or
    /// moved there when there is none. The version it replaces is the spare from then on.
    func commit(_ staged: Staged, into folder: DirectoryHandle, name: String) throws(PublishError) {
        if rolodeck_rename_exchange(staged.folder.descriptor, staged.name, folder.descriptor, name) == 0 {
            let placed = folder.status(of: name)
            let replaced = staged.folder.status(of: staged.name)
            state.withLock { state in
                let before = state.live.removeValue(forKey: staged.path)
                if let replaced, DirectoryHandle.isRegularFile(replaced) {
                    // Its bytes are known when it is still the version this put in place.
                    let status = FileStatus(replaced)
                    state.spares[staged.path] = Spare(
                        name: staged.name, status: status,
                        parts: before.flatMap { Self.isSameFile($0.status, status) ? $0.parts : nil })
                }
                if let placed {
                    state.live[staged.path] = Live(status: FileStatus(placed), parts: staged.parts)
                }
            }
            unshare(staged)
            if catchesUp {
                let group = catchingUp.withLock { groups in
                    let group = groups[staged.path] ?? DispatchGroup()
                    groups[staged.path] = group
                    return group
                }
                group.enter()
                catchUps.async { [self] in
                    // After `unshare`, so that the spare holds the copy of the parts, not the
                    // caller's.
                    Self.copier.sync {}
                    catchUp(staged.path)
                    group.leave()
                }
            }
            return
        }
        // No file to exchange with (the first version of a new file), or no exchange on this
        // file system: moved into place, as any other file.
        if errno != ENOENT { state.withLock { $0.disabled = true } }
        guard renameat(staged.folder.descriptor, staged.name, folder.descriptor, name) == 0 else {
            throw .system("replace", folder.path + "/" + name)
        }
        let placed = folder.status(of: name)
        state.withLock { state in
            state.live[staged.path] = placed.map { Live(status: FileStatus($0), parts: staged.parts) }
        }
        unshare(staged)
    }

    /// Keeps a copy of a placed version's parts in place of the caller's, made off the save's
    /// path. The caller changes its own in place on the next save: the renderer's list of every
    /// contact's card (the cards of the entries that changed), the manifest's text (the sizes of
    /// the files written). While this shared them, that change would copy them whole first, on
    /// the save's path: a list of 100,000 cards (a retain of each), 7.7 MB of text.
    private func unshare(_ staged: Staged) {
        Self.copier.async { [self] in
            let copy = Self.copy(of: staged.parts)
            state.withLock { state in
                // Unless a later patch placed another version meanwhile.
                guard let live = state.live[staged.path], Self.isSameList(live.parts, staged.parts) else {
                    return
                }
                state.live[staged.path]?.parts = copy
            }
        }
    }

    /// A copy of `parts` that shares no storage the caller changes in place: one large part (the
    /// manifest's text) is copied byte for byte; a list of many (every card) is copied as a list,
    /// the cards themselves shared, since none is changed in place.
    private static func copy(of parts: [[UInt8]]) -> [[UInt8]] {
        parts.count == 1 ? [parts[0].withUnsafeBufferPointer { Array($0) }] : parts.map { $0 }
    }

    /// Whether two lists of parts are the same list (the same storage), not only equal.
    private static func isSameList(_ one: [[UInt8]], _ other: [[UInt8]]) -> Bool {
        one.withUnsafeBufferPointer { one in
            other.withUnsafeBufferPointer { one.baseAddress == $0.baseAddress }
        }
    }

    /// The queue `unshare` copies on, and old parts are let go of on, below the rebuilds'
    /// priority.
    static let copier = DispatchQueue(label: "rolodeck.spare-files.copy", qos: .utility)

    /// The spare of the file at output path `path`, in the spare folder, when there is one.
    func spare(of path: String) -> String? {
        state.withLock { state in
            guard let spare = state.spares[path], let folder = state.folder else { return nil }
            return folder.path + "/" + spare.name
        }
    }

    /// Removes a staged version that is not to be put in place.
    func discard(_ staged: Staged) {
        try? staged.folder.removeTree(staged.name)
    }

    /// Writes the version in place of the file at output path `path` into its spare, as the
    /// next save would write its own (whole, when what the spare holds is not known: the version
    /// a whole build wrote); the spare then holds that version. It is taken out while written
    /// into, as `stage` takes it: one written in part is a spare no more. One that cannot be
    /// written into (someone has it open) is left as it was.
    private func catchUp(_ path: String) {
        let found = state.withLock { state -> (DirectoryHandle, Spare, Live)? in
            guard let folder = state.folder, let spare = state.spares[path], let live = state.live[path]
            else { return nil }
            state.spares[path] = nil
            return (folder, spare, live)
        }
        guard let (folder, spare, live) = found else { return }
        let outcome = Self.write(live.parts, size: Int(live.status.size), into: spare, in: folder)
        state.withLock { state in
            // Unless the spares were reset meanwhile (the watch stopped, the output moved).
            guard state.folder === folder, state.spares[path] == nil else { return }
            switch outcome {
            case .written(let status):
                state.spares[path] = Spare(name: spare.name, status: status, parts: live.parts)
            case .refused:
                state.spares[path] = spare
            case .failed:
                break
            }
        }
    }

    /// Waits until the spares put in place so far are caught up: for tests, which look at them.
    func waitForCatchUps() {
        catchUps.sync {}
    }

    /// Removes the spare folder and forgets what it held: for when the watch stops. No folder is
    /// made after it.
    public func removeAll() {
        state.withLock { state in
            if let parent = state.parent, state.folder != nil { try? parent.removeTree(state.folderName) }
            state = State(stopped: true)
        }
    }

    /// Whether two statuses are of the same file with the same bytes (its size and modification
    /// time). Its status time is not compared: the exchange that moves it changes that.
    private static func isSameFile(_ one: FileStatus, _ other: FileStatus) -> Bool {
        one.device == other.device && one.inode == other.inode && one.size == other.size
            && one.modified == other.modified
    }

    /// The device and inode of an open folder.
    private static func identity(_ folder: DirectoryHandle) -> (device: UInt64, inode: UInt64) {
        var info = stat()
        guard fstat(folder.descriptor, &info) == 0 else { return (0, 0) }
        return (UInt64(info.st_dev), UInt64(info.st_ino))
    }

    /// Makes the new version of the file at output path `path`, of `size` bytes: its spare
    /// written into where it differs, else a new file in the spare folder. Nil when the file is
    /// too small for a spare or spares cannot be kept; then it is written as any other.
    func stage(_ path: String, parts: [[UInt8]], size: Int) throws(PublishError) -> Staged? {
        guard size >= minimumSize else { return nil }
        // A spare being caught up is taken out meanwhile: it is waited for, not written whole.
        catchingUp.withLock { $0[path] }?.wait()
        let found = state.withLock { state -> (DirectoryHandle, String, Spare?)? in
            guard let folder = Self.folder(in: &state) else { return nil }
            // Taken out: if writing into it fails, it is a spare no more.
            return (folder, Self.name(of: path, in: &state), state.spares.removeValue(forKey: path))
        }
        guard let (folder, name, spare) = found else { return nil }
        // What the spare was known to hold (every card, for `contacts.vcf`) is let go of off
        // the save's path.
        defer { Self.copier.async { withExtendedLifetime(spare) {} } }
        if let spare, case .written = Self.write(parts, size: size, into: spare, in: folder) {
            return Staged(folder: folder, name: name, path: path, parts: parts)
        }
        try? folder.removeTree(name)
        try folder.createFile(name, parts: parts)
        return Staged(folder: folder, name: name, path: path, parts: parts)
    }

    /// Makes a spare of the file `name` in `folder`, at output path `path`, when none is kept
    /// and this did not put that file in place (a whole build did): a copy of it, known to
    /// hold `parts`. The first save then writes only what it changes into the copy, as the saves
    /// after it do, instead of the whole file (66 MB of `contacts.vcf` at 100,000 contacts). The
    /// file in place is compared with `parts` first, and left alone when it differs; so is a
    /// file smaller than a spare is kept for. For when nothing waits.
    func prime(_ path: String, parts: [[UInt8]], name: String, in folder: DirectoryHandle) {
        let size = parts.reduce(0) { $0 + $1.count }
        guard size >= minimumSize, let before = folder.status(of: name),
            DirectoryHandle.isRegularFile(before), Int(before.st_size) == size
        else { return }
        let found = state.withLock { state -> (DirectoryHandle, String)? in
            guard state.spares[path] == nil, state.live[path] == nil,
                let spareFolder = Self.folder(in: &state)
            else { return nil }
            return (spareFolder, Self.name(of: path, in: &state))
        }
        guard let (spareFolder, spareName) = found,
            folder.holds(name, parts: parts, size: size),
            let after = folder.status(of: name), Self.isSameFile(FileStatus(before), FileStatus(after))
        else { return }
        // The parts are kept as a copy: the caller changes its own in place on the next save (see
        // `unshare`).
        let copy = Self.copy(of: parts)
        try? spareFolder.removeTree(spareName)
        guard (try? spareFolder.createFile(spareName, parts: copy)) != nil,
            let made = spareFolder.status(of: spareName)
        else {
            try? spareFolder.removeTree(spareName)
            return
        }
        let kept = state.withLock { state -> Bool in
            // Unless a save or a reset came meanwhile.
            guard state.folder === spareFolder, state.spares[path] == nil, state.live[path] == nil else {
                return false
            }
            state.spares[path] = Spare(name: spareName, status: FileStatus(made), parts: copy)
            state.live[path] = Live(status: FileStatus(after), parts: copy)
            return true
        }
        if !kept { try? spareFolder.removeTree(spareName) }
    }

    /// The name the file at output path `path` has in the spare folder, given at its first use.
    private static func name(of path: String, in state: inout State) -> String {
        if let known = state.names[path] { return known }
        let name = "file-\(state.names.count)"
        state.names[path] = name
        return name
    }

    /// What writing into a spare came to.
    enum Outcome {
        /// It holds the new version, and has this status.
        case written(FileStatus)
        /// Nothing was written: it is not the file left there, has another link, or someone
        /// else has it open.
        case refused
        /// It was written into in part.
        case failed
    }

    /// Writes `parts` into a spare from the first byte where they differ from the bytes it holds
    /// and cuts it to `size`, unless it is not the file left there, has another link, or someone
    /// else has it open.
    private static func write(_ parts: [[UInt8]], size: Int, into spare: Spare, in folder: DirectoryHandle)
        -> Outcome
    {
        let fd = openat(folder.descriptor, spare.name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .refused }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, DirectoryHandle.isRegularFile(info), info.st_nlink == 1,
            Self.isSameFile(FileStatus(info), spare.status)
        else { return .refused }
        guard rolodeck_take_write_lease(fd) == 0 else { return .refused }
        defer { _ = rolodeck_drop_lease(fd) }
        guard write(parts, size: size, over: spare.parts, of: spare.status.size, to: fd),
            fstat(fd, &info) == 0
        else { return .failed }
        return .written(FileStatus(info))
    }

    /// Writes `parts` over a file whose bytes were `old` (nil when not known), `oldSize` of them,
    /// from the first byte where they differ, and cuts it to `size`; false when the system
    /// refuses.
    private static func write(
        _ parts: [[UInt8]], size: Int, over old: [[UInt8]]?, of oldSize: Int64, to fd: Int32
    ) -> Bool {
        guard let old else {
            return write(parts[...], skipping: 0, to: fd, at: 0) && ftruncate(fd, off_t(size)) == 0
        }
        let (part, offset, skip) = firstDifference(between: old, and: parts)
        guard size == oldSize else {
            return write(parts[part...], skipping: skip, to: fd, at: offset)
                && ftruncate(fd, off_t(size)) == 0
        }
        // Parts of the same lengths as the spare's lie at the same places: only those that
        // differ are written, from the first byte that differs in each to the last. (The spare
        // is the version before last, so two saves' changes differ from it, often far apart in
        // the file; and the manifest is one part of many megabytes.)
        if let changes = differingParts(between: old, and: parts, from: part, at: offset - skip) {
            for change in changes {
                let bytes = parts[change.part].count
                guard
                    write(
                        parts[change.part...change.part], skipping: change.bytes.lowerBound,
                        trimming: bytes - change.bytes.upperBound, to: fd,
                        at: change.offset + change.bytes.lowerBound)
                else { return false }
            }
            return ftruncate(fd, off_t(size)) == 0
        }
        // Else a version of the same size differs no further than its last part that differs:
        // the parts after it are the same bytes at the same places.
        let end = parts.count - sameLastParts(old, parts, after: part)
        return write(parts[part..<max(part, end)], skipping: skip, to: fd, at: offset)
            && ftruncate(fd, off_t(size)) == 0
    }

    /// The parts of `new` that differ from those of `old`, from part `first` on (which starts at
    /// byte `start` of the file), with the bytes of each that differ and where the part starts;
    /// nil when the two do not have parts of the same lengths from there on, or more than
    /// `limit` parts differ.
    static func differingParts(
        between old: [[UInt8]], and new: [[UInt8]], from first: Int, at start: Int, limit: Int = 64
    ) -> [(part: Int, bytes: Range<Int>, offset: Int)]? {
        guard old.count == new.count, first <= new.count else { return nil }
        var changes: [(part: Int, bytes: Range<Int>, offset: Int)] = []
        var offset = start
        for index in first..<new.count {
            let before = old[index], after = new[index]
            guard before.count == after.count else { return nil }
            let prefix = sharedPrefix(before, after)
            if prefix < after.count {
                guard changes.count < limit else { return nil }
                changes.append((index, prefix..<after.count - sharedSuffix(before, after), offset))
            }
            offset += after.count
        }
        return changes
    }

    /// How many parts `old` and `new` end with alike (each the same as the one at the same place
    /// from the end), not counting any at `first` or before it in either.
    static func sameLastParts(_ old: [[UInt8]], _ new: [[UInt8]], after first: Int) -> Int {
        var count = 0
        while count < old.count - first - 1, count < new.count - first - 1 {
            let a = old[old.count - 1 - count], b = new[new.count - 1 - count]
            guard a.count == b.count, sharedPrefix(a, b) == a.count else { break }
            count += 1
        }
        return count
    }

    /// Where `new` first differs from `old`: the part it is in, the byte of the file it is at,
    /// and how many of that part's bytes come before it. Parts that share their storage (a
    /// contact's vCard kept from the save before) are the same without comparing bytes.
    static func firstDifference(between old: [[UInt8]], and new: [[UInt8]]) -> (
        part: Int, offset: Int, skip: Int
    ) {
        var offset = 0
        for index in 0..<min(old.count, new.count) {
            let same =
                old[index].count <= new[index].count
                ? sharedPrefix(old[index], new[index])
                : sharedPrefix(new[index], old[index])
            guard same == new[index].count, same == old[index].count else {
                return (index, offset + same, same)
            }
            offset += same
        }
        return (min(old.count, new.count), offset, 0)
    }

    /// How many bytes `left` and `right`, of the same length, end with alike.
    static func sharedSuffix(_ left: [UInt8], _ right: [UInt8]) -> Int {
        left.withUnsafeBufferPointer { left in
            right.withUnsafeBufferPointer { right in
                if left.baseAddress == right.baseAddress { return left.count }
                var count = 0
                // Eight bytes at a time while they agree, then byte by byte.
                while count + 8 <= left.count,
                    UnsafeRawPointer(left.baseAddress! + left.count - count - 8).loadUnaligned(
                        as: UInt64.self)
                        == UnsafeRawPointer(right.baseAddress! + right.count - count - 8).loadUnaligned(
                            as: UInt64.self)
                {
                    count += 8
                }
                while count < left.count, left[left.count - 1 - count] == right[right.count - 1 - count] {
                    count += 1
                }
                return count
            }
        }
    }

    /// How many bytes `shorter` and `longer` begin with alike.
    private static func sharedPrefix(_ shorter: [UInt8], _ longer: [UInt8]) -> Int {
        shorter.withUnsafeBufferPointer { shorter in
            longer.withUnsafeBufferPointer { longer in
                if shorter.baseAddress == longer.baseAddress { return shorter.count }
                var index = 0
                // Eight bytes at a time while they agree, then byte by byte.
                while index + 8 <= shorter.count,
                    UnsafeRawPointer(shorter.baseAddress! + index).loadUnaligned(as: UInt64.self)
                        == UnsafeRawPointer(longer.baseAddress! + index).loadUnaligned(as: UInt64.self)
                {
                    index += 8
                }
                while index < shorter.count, shorter[index] == longer[index] { index += 1 }
                return index
            }
        }
    }

    /// Writes `parts` (without the first `skip` bytes of the first, nor the last `trim` bytes of
    /// the last) to `fd` at `offset`, many parts to a system call, without gathering them; false
    /// when the system refuses.
    private static func write(
        _ parts: ArraySlice<[UInt8]>, skipping skip: Int, trimming trim: Int = 0, to fd: Int32, at offset: Int
    ) -> Bool {
        var position = offset
        var index = parts.startIndex
        var skip = skip
        // Linux takes up to 1,024 vectors a call (`IOV_MAX`, which Swift's Glibc does not name).
        let vectorLimit = 1024
        var vectors: [iovec] = []
        vectors.reserveCapacity(vectorLimit)
        while index < parts.endIndex {
            // The parts stay alive, and unmoved, until the function returns.
            vectors.removeAll(keepingCapacity: true)
            var end = index
            while end < parts.endIndex, vectors.count < vectorLimit {
                parts[end].withUnsafeBytes { bytes in
                    let start = end == index ? skip : 0
                    let stop = end == parts.endIndex - 1 ? bytes.count - trim : bytes.count
                    if stop > start {
                        vectors.append(
                            iovec(
                                iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start),
                                iov_len: stop - start))
                    }
                }
                end += 1
            }
            // Vectors that the system wrote only in part are written again from where it stopped.
            var done = 0
            var vector = 0
            while vector < vectors.count {
                let count = vectors.withUnsafeBufferPointer { all in
                    pwritev(fd, all.baseAddress! + vector, Int32(all.count - vector), off_t(position + done))
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                var left = count
                while vector < vectors.count, left >= vectors[vector].iov_len {
                    left -= vectors[vector].iov_len
                    vector += 1
                }
                if left > 0 {
                    vectors[vector].iov_base += left
                    vectors[vector].iov_len -= left
                }
                done += count
            }
            position += done
            index = end
            skip = 0
        }
        return true
    }
}
