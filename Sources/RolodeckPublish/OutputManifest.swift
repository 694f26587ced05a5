import RolodeckCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `.rolodeck` file at the root of every output: it marks the folder as Rolodeck's, and
/// records the fingerprint of the inputs the site was built from and the size of every file.
///
/// When the next build has the same fingerprint, every listed file is still there with its
/// size and no newer than the manifest, and nothing else is (`intactFileCount`), the output is
/// already what the build would write, and the build can stop before rendering anything.
///
/// It may also record a digest of the statuses of the files the build read (`statuses`), which
/// vouch for that fingerprint: a build that finds its files' statuses unchanged can stop without
/// reading them. It is kept here, in the output, so that nothing stays beside the output between
/// builds; as a digest, so that the published folder names none of the site's files.
///
/// And a digest of what made the photos' files (`photos`: the tool and the image libraries it
/// ran), so that a later build made the same way can take those files from the output instead
/// of making each again, even when its inputs changed.
public struct OutputManifest: Equatable {
    /// The first line, for a person who opens the file.
    static let heading = "This folder is written by `rolodeck build`; each build replaces it."

    /// The fingerprint of the inputs, or nil when the build was not given one.
    var fingerprint: String?
    /// The digest of the statuses of the files read that vouch for the fingerprint, or nil.
    var statuses: String?
    /// The digest of what made the photos' files, or nil.
    public internal(set) var photos: String?
    /// Every file's path and size, sorted by path.
    public var files: [(path: String, size: Int)]

    /// Whether two manifests have the same fingerprint and list the same files and sizes.
    public static func == (lhs: OutputManifest, rhs: OutputManifest) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.statuses == rhs.statuses && lhs.photos == rhs.photos
            && lhs.files.elementsEqual(rhs.files) { $0 == $1 }
    }

    /// The file's text.
    var bytes: [UInt8] {
        let paths = PathBytes(files.lazy.map(\.path))
        return OutputManifest.encode(
            head: OutputManifest.head(fingerprint: fingerprint, statuses: statuses, photos: photos),
            paths: paths, sizes: files.map(\.size), order: Array(files.indices))
    }

    /// The text of the manifest listing `files`, given in any order: they are listed as
    /// `sorted` orders them. Quicker than sorting and then making `bytes`, which this does
    /// over one buffer of the paths; a build does it after its last page, when the other core
    /// has nothing left to do.
    static func bytes(
        fingerprint: String?, statuses: String? = nil, photos: String? = nil,
        listing files: [(path: String, size: Int)]
    ) -> [UInt8] {
        let paths = PathBytes(files.lazy.map(\.path))
        return encode(
            head: head(fingerprint: fingerprint, statuses: statuses, photos: photos), paths: paths,
            sizes: files.map(\.size), order: paths.sortedOrder())
    }

    /// Paths and sizes in the manifest's order: by the paths' UTF-8 bytes, which is quicker to
    /// compare than `String`'s order and the same for the ASCII paths of pages.
    static func sorted(_ files: [(path: String, size: Int)]) -> [(path: String, size: Int)] {
        PathBytes(files.lazy.map(\.path)).sortedOrder().map { files[$0] }
    }

    /// `head`, then a line `<size> <path>` for each file in `order`.
    private static func encode(head: [UInt8], paths: PathBytes, sizes: [Int], order: [Int]) -> [UInt8] {
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

    /// The lines before the list of files: the heading, and with a fingerprint, the fingerprint,
    /// the statuses' digest and the photos' maker's, each on its line when given.
    static func head(fingerprint: String?, statuses: String?, photos: String?) -> [UInt8] {
        var head = Array((OutputManifest.heading + "\n").utf8)
        guard let fingerprint else { return head }
        head += ("inputs " + fingerprint + "\n").utf8
        if let statuses { head += ("statuses " + statuses + "\n").utf8 }
        if let photos { head += ("photos " + photos + "\n").utf8 }
        return head
    }

    /// Writes a number's digits into `text` from `start`; returns where they end.
    static func writeDecimal(
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
    /// The lines are cut by their bytes: an output of 100,000 pages lists as many files, and a
    /// build with nothing to do reads it before anything else.
    public init?(bytes: [UInt8]) {
        guard let header = Self.header(of: bytes) else { return nil }
        let listStart = header.listStart
        self.fingerprint = header.fingerprint
        self.statuses = header.statuses
        self.photos = header.photos
        var files: [(String, Int)] = []
        let parsed: Bool = bytes.withUnsafeBufferPointer { text in
            var start = listStart
            while start < text.count {
                let end = Self.lineEnd(in: text, from: start)
                defer { start = end + 1 }
                guard end > start else { continue }
                var size = 0
                var position = start
                while position < end, text[position] &- UInt8(ascii: "0") < 10, size < Int.max / 10 - 9 {
                    size = size * 10 + Int(text[position] &- UInt8(ascii: "0"))
                    position += 1
                }
                guard position > start, position < end, text[position] == UInt8(ascii: " ") else { return false }
                files.append((String(decoding: UnsafeBufferPointer(rebasing: text[(position + 1)..<end]),
                                     as: UTF8.self), size))
            }
            return true
        }
        guard parsed else { return nil }
        self.files = files
    }

    /// The fingerprint a manifest's second line records, read without the list of files; nil
    /// when the bytes are not a manifest.
    static func fingerprint(in bytes: [UInt8]) -> String? {
        header(of: bytes)?.fingerprint
    }

    /// The digest of the statuses a manifest records, read without the list of files; nil when
    /// it records none or the bytes are not a manifest.
    static func statuses(in bytes: [UInt8]) -> String? {
        header(of: bytes)?.statuses
    }

    /// The digest of what made the photos' files that a manifest records, read without the
    /// list of files; nil when it records none or the bytes are not a manifest.
    static func photos(in bytes: [UInt8]) -> String? {
        header(of: bytes)?.photos
    }

    /// The manifest `bytes` with `statuses` recorded in it (in place of any it had), its other
    /// lines and its files as they were; nil when the bytes are not a manifest.
    static func recording(statuses: String, in bytes: [UInt8]) -> [UInt8]? {
        guard let header = header(of: bytes) else { return nil }
        let head = Self.head(fingerprint: header.fingerprint, statuses: statuses, photos: header.photos)
        return head + bytes[min(header.listStart, bytes.count)...]
    }

    /// What a manifest's lines before its list of files record.
    struct Header {
        /// The fingerprint of the inputs.
        var fingerprint: String
        /// The digest of the files' statuses, when recorded.
        var statuses: String?
        /// The digest of what made the photos' files, when recorded.
        var photos: String?
        /// Where the list of files starts.
        var listStart: Int
    }

    /// The fingerprint the heading and the second line record, and what the optional lines
    /// after it record, `statuses` and then `photos` (a file's line starts with a digit, never
    /// with a word); nil when the bytes are not a manifest.
    static func header(of bytes: [UInt8]) -> Header? {
        bytes.withUnsafeBufferPointer { text -> Header? in
            let heading = Array(OutputManifest.heading.utf8)
            let first = lineEnd(in: text, from: 0)
            guard first == heading.count, text[..<first].elementsEqual(heading) else { return nil }
            func line(from start: Int) -> (text: String, end: Int) {
                let end = lineEnd(in: text, from: start)
                let line = UnsafeBufferPointer(rebasing: text[min(start, end)..<end])
                return (String(decoding: line, as: UTF8.self), end)
            }
            let second = line(from: first + 1)
            guard second.text.hasPrefix("inputs ") else { return nil }
            var header = Header(
                fingerprint: String(second.text.dropFirst("inputs ".count)), listStart: second.end + 1)
            /// The value of the optional line `key` at the list's start, which it then follows.
            func optional(_ key: String) -> String? {
                let next = line(from: header.listStart)
                guard next.text.hasPrefix(key + " ") else { return nil }
                header.listStart = next.end + 1
                return String(next.text.dropFirst(key.count + 1))
            }
            header.statuses = optional("statuses")
            header.photos = optional("photos")
            return header
        }
    }

    /// Where the line starting at `start` ends: its newline, or the end of the text.
    static func lineEnd(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < text.count else { return text.count }
        return text[start...].firstIndex(of: UInt8(ascii: "\n")) ?? text.count
    }

    /// Creates a manifest.
    init(
        fingerprint: String?, statuses: String? = nil, photos: String? = nil,
        files: [(path: String, size: Int)]
    ) {
        self.fingerprint = fingerprint
        self.statuses = statuses
        self.photos = photos
        self.files = files
    }
}
