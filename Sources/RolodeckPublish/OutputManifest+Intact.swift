import RolodeckCore
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension OutputManifest {
    /// The number of files in the output (the manifest's own included) when it holds exactly
    /// what the manifest `bytes` lists, each a regular file of its recorded size not changed
    /// after the manifest was written (`manifestTime`), and nothing else; nil otherwise, and
    /// for bytes that are not a manifest.
    ///
    /// A build with nothing to do runs this over every file of the output (206,000 at 100,000
    /// contacts), so the listed paths are never made into `String`s: the list is copied once
    /// with each line's newline made a NUL, so every name is a C string in place, and the files
    /// are looked at on every core with `fstatat` relative to their folder, opened once.
    ///
    /// What each look catches, and why no cheaper one would do:
    /// - A file changed, removed or replaced: its own status (size, type, modification time).
    ///   Only the file's status can tell: writing into a file in place leaves its folder's
    ///   times as they were, so a folder's modification time cannot stand in for its files'.
    /// - A file added, or a folder: a folder's modification time moves whenever a name is
    ///   added to it, removed or renamed in it. Every folder below the root is filled before
    ///   the manifest is written, both by a whole build and by watch's patches, so one that
    ///   changed after it was added to by someone else. The root is listed instead: recording
    ///   the statuses renames a new manifest into it after the fact (keeping the old one's
    ///   time), which moves the root's time without changing what it holds. Its names must be
    ///   the manifest's files and folders at the top, and the manifest.
    ///
    /// Times are compared as the earlier check compared each file's: a change made within the
    /// clock tick the manifest was written in goes unseen, here as there.
    static func intactFileCount(
        listedIn bytes: [UInt8], in root: DirectoryHandle, manifestTime: timespec
    ) -> Int? {
        guard let listStart = header(of: bytes)?.listStart else { return nil }
        guard let listing = Listing(bytes[min(listStart, bytes.count)...], root: root) else { return nil }
        let notAfter = (manifestTime.tv_sec, manifestTime.tv_nsec)
        for folder in listing.folders.dropFirst() {
            var info = stat()
            guard fstat(folder.descriptor, &info) == 0,
                (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) <= notAfter
            else { return nil }
        }
        guard let present = try? root.entries(), present.count == listing.topNames.count + 1,
            present.allSatisfy({ $0 == Publisher.markerName || listing.topNames.contains($0) })
        else { return nil }
        let changed = Atomic<Bool>(false)
        listing.names.withUnsafeBufferPointer { names in
            nonisolated(unsafe) let names = names
            ParallelWork.forEach(listing.files.count, batch: 1024) { index in
                guard !changed.load(ordering: .relaxed) else { return }
                let file = listing.files[index]
                var info = stat()
                let name = UnsafeRawPointer(names.baseAddress! + file.name).assumingMemoryBound(
                    to: CChar.self)
                guard fstatat(listing.folders[file.folder].descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0,
                    DirectoryHandle.isRegularFile(info), Int(info.st_size) == file.size,
                    (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) <= notAfter
                else {
                    changed.store(true, ordering: .relaxed)
                    return
                }
            }
        }
        return changed.load(ordering: .relaxed) ? nil : listing.files.count + 1
    }

    /// The files a manifest lists, each as its folder, opened, and its name in that folder.
    private struct Listing: @unchecked Sendable {
        /// One listed file.
        struct File {
            /// Its folder's position in `folders`.
            var folder: Int
            /// Where its name starts in `names`, which ends it with a NUL.
            var name: Int
            /// Its recorded size.
            var size: Int
        }

        /// The list's lines, each newline made a NUL.
        var names: [UInt8]
        /// The listed files, in the manifest's order.
        var files: [File]
        /// The output's folders that hold listed files, or folders that do, the root first.
        var folders: [DirectoryHandle]
        /// The names the root must hold besides the manifest: its files' and its folders'.
        var topNames: Set<String>

        /// Reads the list that follows a manifest's header; nil when a line is not a size, a
        /// space and a path, or a folder it names cannot be opened (then the output is not
        /// what it lists).
        init?(_ list: ArraySlice<UInt8>, root: DirectoryHandle) {
            var names = Array(list)
            names.append(0)
            var files: [File] = []
            files.reserveCapacity(names.count / 40)
            var folders = Folders(root: root)
            var last: (start: Int, end: Int, folder: Int)? = nil
            let complete = names.withUnsafeMutableBufferPointer { text -> Bool in
                var start = 0
                let end = text.count - 1
                while start < end {
                    let lineEnd = text[start..<end].firstIndex(of: UInt8(ascii: "\n")) ?? end
                    defer { start = lineEnd + 1 }
                    text[lineEnd] = 0
                    guard lineEnd > start else { continue }
                    var size = 0
                    var position = start
                    while position < lineEnd, text[position] &- UInt8(ascii: "0") < 10,
                        size < Int.max / 10 - 9
                    {
                        size = size * 10 + Int(text[position] &- UInt8(ascii: "0"))
                        position += 1
                    }
                    let path = position + 1
                    guard position > start, path < lineEnd, text[position] == UInt8(ascii: " "),
                        !text[path..<lineEnd].contains(0)
                    else { return false }
                    guard let slash = text[path..<lineEnd].lastIndex(of: UInt8(ascii: "/")) else {
                        folders.topNames.insert(String(decoding: text[path..<lineEnd], as: UTF8.self))
                        files.append(File(folder: 0, name: path, size: size))
                        continue
                    }
                    // Sorted by path, a file is nearly always in the folder of the one before.
                    if let known = last, text[known.start..<known.end].elementsEqual(text[path..<slash]) {
                        files.append(File(folder: known.folder, name: slash + 1, size: size))
                        continue
                    }
                    guard let folder = folders.position(of: Array(text[path..<slash])) else { return false }
                    last = (path, slash, folder)
                    files.append(File(folder: folder, name: slash + 1, size: size))
                }
                return true
            }
            guard complete else { return nil }
            self.names = names
            self.files = files
            self.folders = folders.opened
            self.topNames = folders.topNames
        }
    }

    /// The output's folders, opened as the listing names them.
    private struct Folders {
        /// The folders opened, the root first.
        var opened: [DirectoryHandle]
        /// The names of the root's files and folders.
        var topNames: Set<String> = []
        /// Each folder's position in `opened`, by its path's bytes.
        var positions: [[UInt8]: Int] = [[]: 0]

        init(root: DirectoryHandle) {
            opened = [root]
        }

        /// The position in `opened` of the folder at `path` (its bytes), opened with the
        /// folders above it when it is new; nil when one of them cannot be opened.
        mutating func position(of path: [UInt8]) -> Int? {
            if let known = positions[path] { return known }
            let slash = path.lastIndex(of: UInt8(ascii: "/"))
            let parentPath = slash.map { Array(path[..<$0]) } ?? []
            let name = String(decoding: slash.map { path[($0 + 1)...] } ?? path[...], as: UTF8.self)
            guard !name.isEmpty, name != ".", name != "..", let parent = position(of: parentPath),
                let folder = opened[parent].child(name)
            else { return nil }
            if parent == 0 { topNames.insert(name) }
            opened.append(folder)
            positions[path] = opened.count - 1
            return opened.count - 1
        }
    }
}
