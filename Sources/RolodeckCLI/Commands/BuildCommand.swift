import Foundation
import RolodeckSite
import RolodeckPublish
import RolodeckCore
import RolodeckStore

/// `rolodeck build`: the whole pipeline, published atomically into the output folder.
enum BuildCommand {
    static let command = Command(
        name: "build",
        summary: "Build the site from its store into the output folder.",
        usage: "[--site DIR] [--out DIR] [--quiet]",
        options: [
            .site,
            .out,
            OptionSpec(name: "--quiet", short: "-q", value: nil, help: "Print nothing unless the build fails"),
        ],
        details: """
            Only files whose bytes changed are written; pages that no longer exist are removed. The new
            site replaces the old one in a single rename, so a failed or interrupted build leaves the
            previous output exactly as it was. Ages are computed for today, or for SOURCE_DATE_EPOCH
            when it is set.
            """,
        run: run)

    /// How reading and planning the site ended.
    private enum Loading {
        /// Nothing to build: the exit code (bad input, or the output is up to date).
        case done(ExitCode)
        /// A planned site to render.
        case loaded(Loaded)
    }

    /// A planned site: what renders it, where it goes, and what the last line reports.
    private struct Loaded {
        var renderer: SiteRenderer
        var publisher: Publisher
        var fingerprint: String
        var counts: (contacts: Int, groups: Int, todos: Int)
    }

    /// Reads, loads and plans the site, and prints its warnings. The files' bytes and the store
    /// are dropped when this returns, before any page is rendered: at a million contacts the
    /// store file alone is 700 MB, and the planned directory has its own copy of every contact.
    private static func load(
        _ location: SiteLocation, _ arguments: Arguments, _ environment: [String: String], _ console: Console,
        quiet: Bool, started: ContinuousClock.Instant
    ) -> Loading {
        let today: PartialDate
        let input: SiteInput
        let configWarnings: [Diagnostic]
        do {
            today = try Today.resolve(environment).get()
            (input, configWarnings) = try location.read()
        } catch {
            return .done(fail(error, console: console, quiet: quiet))
        }
        let output = location.output(arguments, config: input.config)
        let publisher = Publisher(outputPath: output)
        // The same inputs as the build that made the output: nothing to read, render or write.
        let fingerprint = InputFingerprint.of(input, today: today, generator: Generator.identity)
        if let files = publisher.upToDateFileCount(fingerprint: fingerprint) {
            if !quiet {
                console.print("\(output) is up to date (\(files) files unchanged) in \(elapsed(since: started))")
            }
            return .done(.success)
        }
        let site: Site
        do {
            site = try Site.load(input, earlier: configWarnings)
        } catch {
            return .done(fail(error, console: console, quiet: quiet))
        }
        if !quiet { site.warnings.forEach(console.report) }
        let store = site.store
        return .loaded(
            Loaded(renderer: site.renderer(today: today), publisher: publisher, fingerprint: fingerprint,
                   counts: (store.contacts.count, store.groups.count, store.todos.count)))
    }

    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let quiet = arguments.has("--quiet")
        let started = ContinuousClock.now
        let location = SiteLocation(arguments)
        let loaded: Loaded
        switch load(location, arguments, environment, console, quiet: quiet, started: started) {
        case .done(let code): return code
        case .loaded(let site): loaded = site
        }
        let output = loaded.publisher.outputPath
        let renderer = loaded.renderer
        let progress = ProgressLine(console: console, enabled: !quiet && console.errorIsTerminal)
        let report: PublishReport
        do {
            report = try loaded.publisher.publish(fingerprint: loaded.fingerprint) { writer in
                try renderer.render(progress: { progress.update($0, $1) }) { path, bytes in
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
            let counts = loaded.counts
            console.print("Built \(counts.contacts) contacts, \(counts.groups) groups, \(counts.todos) todos "
                          + "into \(output): \(report.written) written, \(report.unchanged) unchanged, "
                          + "\(report.removed) removed in \(elapsed(since: started))")
        }
        if Rolodeck.endsWithCommand.load(ordering: .relaxed) { keepUntilExit(loaded) }
        return .success
    }

    /// Never lets go of `value`: the process is about to end, and its exit reclaims the memory
    /// at once.
    private static func keepUntilExit(_ value: Loaded) {
        final class Kept {
            let value: Loaded
            init(_ value: Loaded) { self.value = value }
        }
        _ = Unmanaged.passRetained(Kept(value))
    }

    /// "0.42 s".
    private static func elapsed(since start: ContinuousClock.Instant) -> String {
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return String(format: "%.2f s", seconds)
    }

    /// Prints every diagnostic and the closing line; returns the failure status.
    static func fail(_ error: DiagnosticError, console: Console, quiet: Bool) -> ExitCode {
        let count = console.report(error, quiet: quiet)
        console.printError("error: build failed with \(count) error\(count == 1 ? "" : "s"); nothing was written")
        return .failure
    }
}
