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
public struct OutputManifest: Equatable {
    /// The first line, for a person who opens the file.
    static let heading = "This folder is written by `rolodeck build`; each build replaces it."

    /// The fingerprint of the inputs, or nil when the build was not given one.
    var fingerprint: String?
    /// Every file's path and size, sorted by path.
    public var files: [(path: String, size: Int)]

    /// Whether two manifests have the same fingerprint and list the same files and sizes.
    public static func == (lhs: OutputManifest, rhs: OutputManifest) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.files.elementsEqual(rhs.files) { $0 == $1 }
    }

    /// The file's text.
    var bytes: [UInt8] {
        let paths = PathBytes(files.lazy.map(\.path))
        return OutputManifest.encode(
            fingerprint: fingerprint, paths: paths, sizes: files.map(\.size), order: Array(files.indices))
    }

    /// The text of the manifest listing `files`, given in any order: they are listed as
    /// `sorted` orders them. Quicker than sorting and then making `bytes`, which this does
    /// over one buffer of the paths; a build does it after its last page, when the other core
    /// has nothing left to do.
    static func bytes(fingerprint: String?, listing files: [(path: String, size: Int)]) -> [UInt8] {
        let paths = PathBytes(files.lazy.map(\.path))
        return encode(
            fingerprint: fingerprint, paths: paths, sizes: files.map(\.size), order: paths.sortedOrder())
    }

    /// Paths and sizes in the manifest's order: by the paths' UTF-8 bytes, which is quicker to
    /// compare than `String`'s order and the same for the ASCII paths of pages.
    static func sorted(_ files: [(path: String, size: Int)]) -> [(path: String, size: Int)] {
        PathBytes(files.lazy.map(\.path)).sortedOrder().map { files[$0] }
    }

    /// The heading, the fingerprint and a line `<size> <path>` for each file in `order`.
    private static func encode(
        fingerprint: String?, paths: PathBytes, sizes: [Int], order: [Int]
    ) -> [UInt8] {
        var head = Array((OutputManifest.heading + "\n").utf8)
        if let fingerprint { head += ("inputs " + fingerprint + "\n").utf8 }
        // Sizes take at most 20 characters; the space and the newline 2 more bytes.
        let capacity = head.count + paths.bytes.count + sizes.count * 22
        return [UInt8](unsafeUninitializedCapacity: capacity) { text, count in
            var end = text.initialize(fromContentsOf: head)
            paths.bytes.withUnsafeBufferPointer { bytes in
                for file in order {
                    end = writeDecimal(sizes[file], into: text, at: end)
                    text[end] = UInt8(ascii: " ")
                    end = text[(end + 1)...].initialize(
                        fromContentsOf: bytes[paths.starts[file]..<paths.starts[file + 1]])
                    text[end] = UInt8(ascii: "\n")
                    end += 1
                }
            }
            count = end
        }
    }

    /// Writes a number's digits into `text` from `start`; returns where they end.
    private static func writeDecimal(
        _ value: Int, into text: UnsafeMutableBufferPointer<UInt8>, at start: Int
    ) -> Int {
        guard value >= 0 else {
            // Only a damaged manifest read back has one; not worth a fast path.
            return text[start...].initialize(fromContentsOf: String(value).utf8)
        }
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        var value = value
        for position in stride(from: start + digits - 1, through: start, by: -1) {
            text[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            value /= 10
        }
        return start + digits
    }

    /// Reads a manifest; nil for the bare marker of an older build or anything unreadable.
    public init?(bytes: [UInt8]) {
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
