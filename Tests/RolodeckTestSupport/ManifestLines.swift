import Foundation

/// The output manifest (`.rolodeck`) as the tests compare it.
package enum ManifestLines {
    /// The manifest without its `statuses` line. A build writes that line only when the files it
    /// read had not changed in the last 2 s (git's racily-clean rule), so whether two builds of
    /// the same input both have it depends on how soon after an edit each ran; under load, a
    /// watch rebuild and the whole build it is compared with fall on different sides.
    package static func withoutStatuses(_ manifest: Data) -> Data {
        let lines = String(decoding: manifest, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
        return Data(lines.filter { !$0.hasPrefix("statuses ") }.joined(separator: "\n").utf8)
    }
}
