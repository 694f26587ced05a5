import Foundation
import RolodeckCore
import RolodeckStore

/// What a build read, file by file, with each file's status, kept beside the output so that
/// the next build can tell it has nothing to do from the files' statuses alone, without
/// reading a store of 100,000 files (git's index does the same for a work tree).
///
/// It vouches for the input fingerprint it names: when the date, the generator and every
/// file's device, inode, size and times are as recorded, and no file came or went, the input
/// is the one that fingerprint was made from. A file changed less than `margin` before the
/// build read it could change again within the same clock tick unseen, so an index is only
/// written when every file had been still for that long.
///
/// It lives beside the output (`.<output>.rolodeck-inputs`, like the build's lock), not in it:
/// the output is published, and the index names the store's files.
struct InputIndex: Equatable {
    /// The input fingerprint the statuses vouch for.
    var fingerprint: String
    /// The date ages were computed for.
    var today: String
    /// The digest of the generator's identity.
    var generator: String
    /// Every file read, by the path it was opened by.
    var statuses: [String: FileStatus]

    /// How long a file must have been unchanged when it was read for its status to vouch for it.
    static let margin: Int64 = 2_000_000_000

    static let heading = "rolodeck input index 1"

    /// The index's path for an output folder.
    static func path(besides outputPath: String) -> String {
        var output = outputPath
        while output.count > 1, output.hasSuffix("/") { output.removeLast() }
        guard let slash = output.lastIndex(of: "/") else { return "." + output + ".rolodeck-inputs" }
        let parent = output[..<slash]
        return (parent.isEmpty ? "" : parent) + "/." + output[output.index(after: slash)...] + ".rolodeck-inputs"
    }

    /// Whether the files were all still for `margin` before `readAt` (nanoseconds since 1970).
    func isSettled(readAt: Int64, margin: Int64 = InputIndex.margin) -> Bool {
        statuses.values.allSatisfy { $0.modified + margin < readAt && $0.changed + margin < readAt }
    }

    /// The index's text: a heading, the fingerprint, date and generator, then a line
    /// `<device> <inode> <size> <modified> <changed> <path>` for each file, sorted by path.
    var bytes: [UInt8] {
        var text = "\(Self.heading)\nfingerprint \(fingerprint)\ntoday \(today)\ngenerator \(generator)\n"
        for (path, status) in statuses.sorted(by: { $0.key < $1.key }) {
            text += "\(status.device) \(status.inode) \(status.size) \(status.modified) \(status.changed) \(path)\n"
        }
        return Array(text.utf8)
    }

    /// Creates an index.
    init(fingerprint: String, today: String, generator: String, statuses: [String: FileStatus]) {
        self.fingerprint = fingerprint
        self.today = today
        self.generator = generator
        self.statuses = statuses
    }

    /// Reads an index's text; nil for anything that is not one.
    init?(bytes: [UInt8]) {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        func value(_ line: Int, _ key: String) -> String? {
            guard lines.count > line else { return nil }
            let text = String(decoding: lines[line], as: UTF8.self)
            return text.hasPrefix(key + " ") ? String(text.dropFirst(key.count + 1)) : nil
        }
        guard lines.first.map({ String(decoding: $0, as: UTF8.self) }) == Self.heading,
            let fingerprint = value(1, "fingerprint"), let today = value(2, "today"),
            let generator = value(3, "generator")
        else { return nil }
        var statuses: [String: FileStatus] = [:]
        statuses.reserveCapacity(lines.count)
        for line in lines.dropFirst(4) where !line.isEmpty {
            let fields = line.split(separator: UInt8(ascii: " "), maxSplits: 5, omittingEmptySubsequences: false)
            guard fields.count == 6, let device = UInt64(Self.text(fields[0])), let inode = UInt64(Self.text(fields[1])),
                let size = Int64(Self.text(fields[2])), let modified = Int64(Self.text(fields[3])),
                let changed = Int64(Self.text(fields[4]))
            else { return nil }
            statuses[String(decoding: fields[5], as: UTF8.self)] = FileStatus(
                device: device, inode: inode, size: size, modified: modified, changed: changed)
        }
        self.init(fingerprint: fingerprint, today: today, generator: generator, statuses: statuses)
    }

    private static func text(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    /// The index beside `outputPath`, or nil when there is none or it cannot be read.
    static func load(besides outputPath: String) -> InputIndex? {
        SiteReader.bytes(ofFileAt: path(besides: outputPath)).flatMap(InputIndex.init(bytes:))
    }

    /// Writes the index beside `outputPath` (a new file renamed over the old one); a failure
    /// only costs the next build a full read, so it is not reported.
    func write(besides outputPath: String) {
        try? Data(bytes).write(to: URL(fileURLWithPath: Self.path(besides: outputPath)), options: .atomic)
    }
}
