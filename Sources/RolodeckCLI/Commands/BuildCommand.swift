import Foundation
import RolodeckKit

/// `rolodeck build`: the whole pipeline, published atomically into the output folder.
enum BuildCommand {
    static let command = Command(
        name: "build",
        summary: "Build the site from its store into the output folder.",
        usage: "[--site DIR] [--out DIR] [--quiet]",
        options: [
            OptionSpec(name: "--site", short: "-s", value: "DIR", help: "The site folder (default: the current folder)"),
            OptionSpec(name: "--out", short: "-o", value: "DIR",
                       help: "Where the site is written (default: the config's output, _site)"),
            OptionSpec(name: "--quiet", short: "-q", value: nil, help: "Print nothing unless the build fails"),
        ],
        details: """
            Only files whose bytes changed are written; pages that no longer exist are removed. The new
            site replaces the old one in a single rename, so a failed or interrupted build leaves the
            previous output exactly as it was. Ages are computed for today, or for SOURCE_DATE_EPOCH
            when it is set.
            """,
        run: run)

    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let quiet = arguments.has("--quiet")
        let started = ContinuousClock.now
        let location = SiteLocation(arguments)
        let site: Site
        let today: PartialDate
        do {
            today = try Today.resolve(environment).get()
            site = try location.load()
        } catch {
            return fail(error, console: console, quiet: quiet)
        }
        if !quiet { site.warnings.forEach(console.report) }
        let output = location.output(arguments, config: site.config)
        let progress = ProgressLine(console: console, enabled: !quiet && console.errorIsTerminal)
        let report: PublishReport
        do {
            report = try Publisher(outputPath: output).publish { writer in
                try site.render(today: today, progress: progress.update) { path, bytes in
                    try writer.write(path, bytes)
                }
            }
        } catch let error as DiagnosticError {
            progress.clear()
            return fail(error, console: console, quiet: quiet)
        } catch {
            progress.clear()
            console.report(Diagnostic(.error, at: nil, "\(error)"))
            console.printError("error: build failed; \(output) was left as it was")
            return .failure
        }
        progress.clear()
        if !quiet {
            let elapsed = (ContinuousClock.now - started).components
            let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
            let store = site.store
            console.print("Built \(store.contacts.count) contacts, \(store.groups.count) groups, \(store.todos.count) todos "
                          + "into \(output): \(report.written) written, \(report.unchanged) unchanged, "
                          + "\(report.removed) removed in \(String(format: "%.2f", seconds)) s")
        }
        return .success
    }

    /// Prints every diagnostic and the closing line; returns the failure status.
    static func fail(_ error: DiagnosticError, console: Console, quiet: Bool) -> ExitCode {
        let count = console.report(error, quiet: quiet)
        console.printError("error: build failed with \(count) error\(count == 1 ? "" : "s"); nothing was written")
        return .failure
    }
}
