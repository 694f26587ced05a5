import RolodeckCore
import RolodeckStore

/// What a build read, file by file, with each file's status, summed up in one digest that the
/// output's manifest records beside the fingerprint it vouches for, so that the next build can
/// tell it has nothing to do from the files' statuses alone, without reading a store of 100,000
/// files (git's index does the same for a work tree).
///
/// The digest covers the date, the generator and every file's path, device, inode, size and
/// times (`FileStatusDigest`): when a survey of the files gives the same digest (so no file
/// changed, came or went), the input is the one the fingerprint beside it was made from. A
/// file changed less than `margin` before the build read it could change again within the same
/// clock tick unseen, so the digest is only recorded when every file had been still for that
/// long.
///
/// It is kept in the output's manifest, not in a file beside the output as it once was: nothing
/// stays beside the output between builds, and as a digest it names none of the site's files in
/// the published folder.
struct InputIndex: Equatable {
    /// The date ages were computed for.
    var today: String
    /// The digest of the generator's identity.
    var generator: String
    /// Every file read, by the path it was opened by, summed up.
    var files: FileStatusDigest

    /// How long a file must have been unchanged when it was read for its status to vouch for it.
    static let margin: Int64 = 2_000_000_000

    static let heading = "rolodeck input statuses 2"

    /// The index of the files a read noted (`SiteInput.statuses`).
    init(today: String, generator: String, statuses: [String: FileStatus]) {
        var files = FileStatusDigest()
        for (path, status) in statuses {
            files.add(status, path: path)
        }
        self.init(today: today, generator: generator, files: files)
    }

    /// The index of files summed up already (`SiteReader.survey`).
    init(today: String, generator: String, files: FileStatusDigest) {
        self.today = today
        self.generator = generator
        self.files = files
    }

    /// Whether the files were all still for `margin` before `readAt` (nanoseconds since 1970).
    func isSettled(readAt: Int64, margin: Int64 = InputIndex.margin) -> Bool {
        files.count == 0 || files.newest + margin < readAt
    }

    /// The text the digest is made of: a heading, the date, the generator, and the files'
    /// count and sums. The files are summed, not listed in order: an unchanged rebuild of a
    /// store of a file per card looks at 100,000 files on both cores, and sorting their paths
    /// and writing a line for each took a third of its instructions.
    var bytes: [UInt8] {
        Array("\(Self.heading)\ntoday \(today)\ngenerator \(generator)\nfiles \(files.summary)\n".utf8)
    }

    /// The digest the output's manifest records.
    var digest: String { InputFingerprint.digest(bytes) }
}
