import Foundation
import RolodeckServe
import RolodeckBuild
import RolodeckCore
import RolodeckWatch

/// `rolodeck serve`: watch, and preview the site over HTTP with live reload.
enum ServeCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "serve",
        brief: "Build, watch, and preview on http://127.0.0.1:8000 with live reload",
        summary: "Build and watch the site, and preview it on http://127.0.0.1:8000 with live reload.",
        usage: "[--site DIR] [--out DIR] [--host ADDRESS] [--port N] [--allow-host NAMES] [--poll] [--open]",
        options: [
            .site,
            .out,
            OptionSpec(
                name: "--host", short: nil, value: "ADDRESS",
                help: "The address to listen on (default: 127.0.0.1, this machine only)"),
            OptionSpec(
                name: "--port", short: "-p", value: "N",
                help: "The port to listen on (default: 8000; 0 picks a free one)"),
            OptionSpec(
                name: "--allow-host", short: nil, value: "NAMES",
                help: "Also answer requests for these host names, comma-separated (a preview on a LAN)"),
            .poll,
            OptionSpec(
                name: "--open", short: nil, value: nil,
                help: "Open the preview in the default browser once it is ready (with xdg-open)"),
        ],
        details: """
            Rebuilds like 'rolodeck watch', and every open page reloads when a rebuild changes it. When a
            rebuild fails, open pages show its errors with their file, line and column until the next good
            one. The pages are sent with a small live-reload script added; the files on disk never have it.
            The server is for previewing on this machine: it answers GET and HEAD with files of the output
            folder only. It answers only requests addressed to localhost, to an IP address or to the name
            given with --host, and refuses others with 403, so that no web site can read the preview by
            pointing a name of its own at this machine (DNS rebinding); --allow-host adds names to answer
            for, such as this machine's name on a LAN.
            """,
        run: run)

    /// Runs `rolodeck serve` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let host = arguments.value("--host") ?? "127.0.0.1"
        let portText = arguments.value("--port") ?? "8000"
        guard let port = Int(portText), (0...65535).contains(port) else {
            UsageError(
                command: "serve", message: "option '--port' needs a number from 0 to 65535, not '\(portText)'"
            )
            .lines.forEach(console.printError)
            return .usage
        }
        // One value, comma-separated: a repeated option keeps only its last value.
        let allowedHosts = (arguments.value("--allow-host") ?? "").split(separator: ",").map {
            String($0).trimmingWhitespace
        }
        if let bad = allowedHosts.first(where: { !HostPolicy.isName($0) }) {
            UsageError(
                command: "serve",
                message:
                    "option '--allow-host' needs host names without a port, separated by commas, not '\(bad)'"
            )
            .lines.forEach(console.printError)
            return .usage
        }
        let session = WatchSession(arguments, environment: environment, console: console)
        if let problem = session.problem() {
            _ = console.report(problem)
            return .failure
        }
        let server: HTTPServer
        do {
            server = try HTTPServer(host: host, port: port, allowedHosts: allowedHosts) { session.outputPath }
        } catch {
            console.report(Diagnostic(.error, at: nil, error.description))
            return .failure
        }
        if !server.isLoopback {
            console.report(
                Diagnostic(
                    .warning, at: nil,
                    "serving on \(host), where other machines can reach it; the "
                        + "preview server is meant for this machine, and a contacts directory is personal data. "
                        + "Other machines open it by this machine's IP address, or by a name given with --allow-host"
                ))
        }
        let stop = SignalTrap.install()
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.run()
            stopped.signal()
        }
        defer {
            server.stop()
            stopped.wait()
        }
        tell(server, session.start(polling: arguments.has("--poll")))
        guard !SignalTrap.isRequested else { return .success }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        console.print("Serving \(session.outputPath) at http://\(shownHost):\(server.port)/")
        if arguments.has("--open") {
            BrowserOpener.open(
                BrowserOpener.address(host: host, port: server.port), environment: environment,
                console: console)
        }
        session.watch(polling: arguments.has("--poll"), stop: stop) { tell(server, $0) }
        return .success
    }

    /// Passes a rebuild on to the open pages.
    private static func tell(_ server: HTTPServer, _ result: BuildResult) {
        switch result.outcome {
        case .published:
            server.siteRebuilt(changedPaths: result.isWhole ? nil : result.changedFiles)
        case .failed(let error), .notPublished(let error):
            server.rebuildFailed(error.diagnostics)
        case .unchanged, .upToDate, .cancelled:
            break
        }
    }
}
