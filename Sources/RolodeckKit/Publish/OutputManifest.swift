#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `.rolodeck` file at the root of every output: it marks the folder as Rolodeck's, and
/// records the fingerprint of the inputs the site was built from and the size of every file.
///
/// When the next build has the same fingerprint and every listed file is still there with its
/// size and no newer than the manifest, the output is already what the build would write, and
/// the build can stop before rendering anything.
struct OutputManifest: Equatable {
    /// The first line, for a person who opens the file.
    static let heading = "This folder is written by `rolodeck build`; each build replaces it."

    /// The fingerprint of the inputs, or nil when the build was not given one.
    var fingerprint: String?
    /// Every file's path and size, sorted by path.
    var files: [(path: String, size: Int)]

    static func == (lhs: OutputManifest, rhs: OutputManifest) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.files.elementsEqual(rhs.files) { $0 == $1 }
    }

    /// The file's text.
    var bytes: [UInt8] {
        var text = Array((OutputManifest.heading + "\n").utf8)
        if let fingerprint { text += ("inputs " + fingerprint + "\n").utf8 }
        // About 40 bytes a line; a hundred thousand of them are written at the end of a build.
        text.reserveCapacity(text.count + files.count * 40)
        for file in files {
            text += String(file.size).utf8
            text.append(UInt8(ascii: " "))
            text += file.path.utf8
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }

    /// Paths and sizes in the manifest's order: by the paths' UTF-8 bytes, which is quicker to
    /// compare than `String`'s order and the same for the ASCII paths of pages.
    static func sorted(_ sizes: [String: Int]) -> [(path: String, size: Int)] {
        let files = sizes.map { (path: $0.key, size: $0.value) }
        // Every path's bytes in one buffer: the sort moves integers and compares bytes in place,
        // with no string to retain and release at each step (a third of its time otherwise).
        var bytes: [UInt8] = []
        var starts = [0]
        starts.reserveCapacity(files.count + 1)
        for file in files {
            bytes += file.path.utf8
            starts.append(bytes.count)
        }
        var order = Array(files.indices)
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            order.sort { left, right in
                let leftCount = starts[left + 1] - starts[left]
                let rightCount = starts[right + 1] - starts[right]
                let common = memcmp(base + starts[left], base + starts[right], min(leftCount, rightCount))
                return common != 0 ? common < 0 : leftCount < rightCount
            }
        }
        return order.map { files[$0] }
    }

    /// Reads a manifest; nil for the bare marker of an older build or anything unreadable.
    init?(bytes: [UInt8]) {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.first == Substring(OutputManifest.heading), lines.count >= 2,
              lines[1].hasPrefix("inputs ") else { return nil }
        fingerprint = String(lines[1].dropFirst("inputs ".count))
        var files: [(String, Int)] = []
        for line in lines.dropFirst(2) where !line.isEmpty {
            guard let space = line.firstIndex(of: " "), let size = Int(line[..<space]) else { return nil }
            files.append((String(line[line.index(after: space)...]), size))
        }
        self.files = files
    }

    /// Creates a manifest.
    init(fingerprint: String?, files: [(path: String, size: Int)]) {
        self.fingerprint = fingerprint
        self.files = files
    }

    /// Whether every listed file is in `folder` as a regular file of its recorded size and
    /// was not changed after the manifest was written (`manifestTime`).
    func isIntact(in folder: DirectoryHandle, manifestTime: timespec) -> Bool {
        var handles: [String: DirectoryHandle?] = ["": folder]
        func handle(_ path: String) -> DirectoryHandle? {
            if let known = handles[path] { return known }
            let parent = path.split(separator: "/").dropLast().joined(separator: "/")
            let name = String(path.split(separator: "/").last!)
            let child = handle(parent)?.child(name)
            handles[path] = child
            return child
        }
        for file in files {
            let parts = file.path.split(separator: "/")
            guard let directory = handle(parts.dropLast().joined(separator: "/")),
                  let info = directory.status(of: String(parts.last!)),
                  DirectoryHandle.isRegularFile(info), Int(info.st_size) == file.size,
                  (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) <= (manifestTime.tv_sec, manifestTime.tv_nsec)
            else { return false }
        }
        return true
    }
}
