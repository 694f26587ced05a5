import Foundation
import RolodeckCore

/// Opens a page in the user's browser with `xdg-open` (`serve --open`): the desktop's own choice
/// of browser, as freedesktop.org's tools define it.
enum BrowserOpener {
    /// The program that opens a URL in the default browser.
    static let program = "xdg-open"

    /// Starts `xdg-open URL` without waiting for the browser; a missing or failing `xdg-open` is
    /// a warning that names the URL to open by hand, never an error: the preview runs either way.
    static func open(_ url: String, environment: [String: String], console: Console) {
        guard let executable = find(program, path: environment["PATH"]) else {
            console.report(
                Diagnostic(
                    .warning, at: nil,
                    "cannot open a browser: \(program) is not on PATH; open \(url) yourself"))
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = [url]
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { finished in
            guard finished.terminationReason != .exit || finished.terminationStatus != 0 else { return }
            console.report(
                Diagnostic(
                    .warning, at: nil,
                    "\(program) \(url) failed (exit status \(finished.terminationStatus)); open it yourself"))
        }
        do {
            try process.run()
        } catch {
            console.report(
                Diagnostic(.warning, at: nil, "cannot run \(executable): \(error); open \(url) yourself"))
        }
    }

    /// The first executable file called `name` in the folders of a PATH value.
    static func find(_ name: String, path: String?) -> String? {
        for folder in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where !folder.isEmpty {
            let candidate = folder + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The address a browser on this machine reaches a server listening on `host` at: a
    /// wildcard address is reached through loopback.
    static func address(host: String, port: Int) -> String {
        let reachable =
            switch host {
            case "0.0.0.0", "": "127.0.0.1"
            case "::", "[::]": "[::1]"
            default: host.contains(":") ? "[\(host)]" : host
            }
        return "http://\(reachable):\(port)/"
    }
}
