import Foundation
import Synchronization
import RolodeckBuild
import RolodeckCore
import RolodeckWatch

/// What `watch` and `serve` share: build the site, then rebuild it on every batch of changes,
/// printing one line per rebuild, until Ctrl-C. Driven by one thread; only `outputPath` is read
/// from others (the server's).
final class WatchSession: @unchecked Sendable {
    let location: SiteLocation
    private let arguments: Arguments
    private let environment: [String: String]
    private let console: Console
    private let build: IncrementalBuild

    private let currentOutput: Mutex<String>

    /// The output folder, as the last config read names it; safe to read from any thread.
    var outputPath: String {
        get { currentOutput.withLock { $0 } }
        set { currentOutput.withLock { $0 = newValue } }
    }

    init(_ arguments: Arguments, environment: [String: String], console: Console) {
        self.arguments = arguments
        self.environment = environment
        self.console = console
        let location = SiteLocation(arguments)
        self.location = location
        self.currentOutput = Mutex(location.output(arguments, config: SiteConfig()))
        self.build = IncrementalBuild(
            folder: location.folder, displayPath: location.displayPath,
            generator: Generator.identity
        ) { location.output(arguments, config: $0) }
    }

    /// Says why the session cannot start (not a site, a bad `SOURCE_DATE_EPOCH`), or nil.
    func problem() -> DiagnosticError? {
        if let problem = location.problem() { return DiagnosticError([problem]) }
        if case .failure(let error) = Today.resolve(environment) { return error }
        return nil
    }

    /// Builds the site once, whatever its state; a failure is reported and the session goes on.
    func start() -> Rebuild {
        let started = ContinuousClock.now
        let result = build.rebuild(today: today(), isCancelled: { SignalTrap.isRequested })
        if let config = build.config { outputPath = location.output(arguments, config: config) }
        report(result, started: started)
        return result
    }

    /// Watches and rebuilds until a stop is asked for; `rebuilt` hears every rebuild that did
    /// something (written or failed), after its line is printed.
    func watch(polling: Bool, stop: Int32, rebuilt: (Rebuild) -> Void) {
        let watcher = Watcher(scope: scope(), options: Watcher.Options(polling: polling))
        printNotices(watcher)
        let place = location.displayPath.isEmpty ? "the current folder" : location.displayPath
        let how = watcher.mode == .polling ? " (polling every second)" : ""
        console.print("Watching \(place) for changes\(how); press Ctrl-C to stop.")
        while !SignalTrap.isRequested, watcher.nextBatch(stop: stop) != nil, !SignalTrap.isRequested {
            let started = ContinuousClock.now
            let result = build.rebuild(today: today(), isCancelled: { SignalTrap.isRequested })
            if let config = build.config { outputPath = location.output(arguments, config: config) }
            report(result, started: started)
            watcher.retarget(scope())
            printNotices(watcher)
            switch result.outcome {
            case .published, .failed: rebuilt(result)
            case .unchanged, .cancelled: break
            }
        }
        console.print("Stopped watching.")
    }

    private func today() -> PartialDate {
        (try? Today.resolve(environment).get()) ?? PartialDate(daysSince1970: 0)
    }

    private func scope() -> WatchScope {
        WatchScope(
            siteFolder: location.folder, store: build.config?.store ?? SiteConfig().store, output: outputPath)
    }

    private func printNotices(_ watcher: Watcher) {
        for notice in watcher.takeNotices() {
            console.report(Diagnostic(.warning, at: nil, notice.description))
        }
    }

    /// One line per rebuild: what changed, what was written, how long it took; or the
    /// diagnostics of a failed one.
    private func report(_ result: Rebuild, started: ContinuousClock.Instant) {
        result.warnings.forEach(console.report)
        let time = Self.elapsed(since: started)
        switch result.outcome {
        case .unchanged, .cancelled:
            return
        case .published(let written):
            if result.changedInputs.isEmpty {
                let counts = result.counts
                console.print(
                    "Built \(counts.contacts) contacts, \(counts.groups) groups, \(counts.todos) todos into "
                        + "\(outputPath): \(written.written) written, \(written.unchanged) unchanged, "
                        + "\(written.removed) removed in \(time)")
            } else {
                let whole = result.isWhole ? "whole site rebuilt, " : ""
                console.print(
                    "\(Self.describe(result.changedInputs)) changed: \(whole)\(written.written) "
                        + "file\(written.written == 1 ? "" : "s") written, \(written.removed) removed in \(time)"
                )
            }
        case .failed(let error):
            let count = console.report(error, quiet: false)
            let what =
                result.changedInputs.isEmpty
                ? "build" : "rebuild after \(Self.describe(result.changedInputs)) changed"
            console.printError(
                "error: \(what) failed with \(count) error\(count == 1 ? "" : "s"); "
                    + "\(outputPath) was left as it was")
        }
    }

    /// "store/contacts.json", "a.vcf and b.vcf", "a.vcf, b.vcf and 998 more files".
    static func describe(_ paths: [String]) -> String {
        switch paths.count {
        case 0: return "nothing"
        case 1: return paths[0]
        case 2: return paths[0] + " and " + paths[1]
        case 3: return paths[0] + ", " + paths[1] + " and " + paths[2]
        default: return paths[0] + ", " + paths[1] + " and \(paths.count - 2) more files"
        }
    }

    /// "0.42 s".
    static func elapsed(since start: ContinuousClock.Instant) -> String {
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return String(format: "%.2f s", seconds)
    }
}
