import Foundation
import RolodeckStore

/// What identifies this build of rolodeck in an input fingerprint: its version and its own
/// binary, so that any other build of the tool (with another theme or other code) renders anew.
enum Generator {
    /// The digest of the binary's bytes, then a line naming the version. The digest, not the
    /// bytes: they were held for the whole run (12 MB of every build's peak) and hashed again
    /// into every fingerprint (on every save in watch), where their digest tells builds apart as
    /// well.
    static let identity: [UInt8] = {
        let ownPath = "/proc/self/exe"
        let path = FileManager.default.fileExists(atPath: ownPath) ? ownPath : CommandLine.arguments[0]
        let binary = InputFingerprint.digest(SiteReader.bytes(ofFileAt: path) ?? [])
        return Array("\(binary)\nrolodeck \(Rolodeck.version)\n".utf8)
    }()
}
