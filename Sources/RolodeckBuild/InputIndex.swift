import RolodeckCore
import RolodeckPublish
import RolodeckStore

/// What a build read, file by file, with each file's status, summed up in one digest that the
/// output's manifest records beside the fingerprint it vouches for, so that the next build can
/// tell it has nothing to do from the files' statuses alone, without reading a store of 100,000
/// files (git's index does the same for a work tree).
///
/// The digest covers the date, the generator and every file's path, device, inode, size and
/// times: when a survey of the files gives the same digest (so no file changed, came or went),
/// the input is the one the fingerprint beside it was made from. A file changed less than
/// `margin` before the build read it could change again within the same clock tick unseen, so
/// the digest is only recorded when every file had been still for that long.
///
/// It is kept in the output's manifest, not in a file beside the output as it once was: nothing
/// stays beside the output between builds, and as a digest it names none of the site's files in
/// the published folder.
struct InputIndex: Equatable {
    /// The date ages were computed for.
    var today: String
    /// The digest of the generator's identity.
    var generator: String
    /// Every file read, by the path it was opened by.
    var statuses: [String: FileStatus]

    /// How long a file must have been unchanged when it was read for its status to vouch for it.
    static let margin: Int64 = 2_000_000_000

    static let heading = "rolodeck input statuses 1"

    /// Whether the files were all still for `margin` before `readAt` (nanoseconds since 1970).
    func isSettled(readAt: Int64, margin: Int64 = InputIndex.margin) -> Bool {
        statuses.values.allSatisfy { $0.modified + margin < readAt && $0.changed + margin < readAt }
    }

    /// The text the digest is made of: a heading, the date and the generator, then a line
    /// `<device> <inode> <size> <modified> <changed> <path>` for each file, sorted by the paths'
    /// UTF-8 bytes.
    ///
    /// Every build with nothing to do makes it for every input file (100,000 of a store of a
    /// file per card), so the lines are written as bytes, the numbers digit by digit, and the
    /// paths sorted by their bytes as the manifest sorts its own (`PathBytes`): interpolating
    /// strings and sorting them as Strings took 2 of the 5 billion instructions of such a build.
    var bytes: [UInt8] {
        var text = Array("\(Self.heading)\ntoday \(today)\ngenerator \(generator)\n".utf8)
        let entries = Array(statuses)
        text.reserveCapacity(text.count + entries.count * 100)
        func put(_ number: UInt64) {
            // The digits from the last, then turned round.
            let start = text.count
            var rest = number
            repeat {
                text.append(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            } while rest > 0
            text[start...].reverse()
            text.append(UInt8(ascii: " "))
        }
        func put(_ number: Int64) {
            if number < 0 { text.append(UInt8(ascii: "-")) }
            put(number.magnitude)
        }
        for index in PathBytes(entries.lazy.map(\.key)).sortedOrder() {
            let (path, status) = entries[index]
            put(status.device)
            put(status.inode)
            put(status.size)
            put(status.modified)
            put(status.changed)
            text += path.utf8
            text.append(UInt8(ascii: "\n"))
        }
        return text
    }

    /// The digest the output's manifest records.
    var digest: String { InputFingerprint.digest(bytes) }
}
