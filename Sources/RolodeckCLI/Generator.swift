import Foundation

/// What identifies this build of rolodeck in an input fingerprint: its version and its own
/// binary, so that any other build of the tool (with another theme or other code) renders anew.
enum Generator {
    static let identity: [UInt8] = {
        var bytes = Array("rolodeck \(Rolodeck.version)\n".utf8)
        let path = FileManager.default.fileExists(atPath: "/proc/self/exe") ? "/proc/self/exe" : CommandLine.arguments[0]
        if let binary = FileManager.default.contents(atPath: path) {
            bytes += binary
        }
        return bytes
    }()
}
