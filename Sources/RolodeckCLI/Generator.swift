import Foundation
import RolodeckStore

/// What identifies this build of rolodeck in an input fingerprint: its version and its own
/// binary, so that any other build of the tool (with another theme or other code) renders anew.
enum Generator {
    /// The binary's bytes, then a line naming the version.
    static let identity: [UInt8] = {
        let ownPath = "/proc/self/exe"
        let path = FileManager.default.fileExists(atPath: ownPath) ? ownPath : CommandLine.arguments[0]
        // The version goes after the binary, so that the binary's bytes are not moved to make room.
        var bytes = SiteReader.bytes(ofFileAt: path) ?? []
        bytes += Array("\nrolodeck \(Rolodeck.version)\n".utf8)
        return bytes
    }()
}
