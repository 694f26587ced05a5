import Foundation
import Synchronization
import RolodeckBuild
import RolodeckCore
import RolodeckWatch

/// What `watch` and `serve` share: build the site, then rebuild it on every batch of changes,
/// printing one line per rebuild, until Ctrl-C. Driven by one thread; only `outputPath` is read
/// from others (the server's).
final class WatchSession: @unchecked Sendable {
    /// The site folder watched.
    let location: SiteLocation
    private let arguments: Arguments
    private let environment: [String: String]
    private let console: Console
    private let build: SiteBuild

    private let currentOutput: Mutex<String>

    /// The output folder, as the last config read names it; safe to read from any thread.
    var outputPath: String {
        get { currentOutput.withLock { $0 } }
        set { currentOutput.withLock { $0 = newValue } }
    }

    /// A session for the site the command line names, printing to `console`.
    init(_ arguments: Arguments, environment: [String: String], console: Console) {
        self.arguments = arguments
        self.environment = environment
        self.console = console
        let location = SiteLocation(arguments)
        self.location = location
        self.currentOutput = Mutex(location.output(arguments, config: SiteConfig()))
        self.build = location.uncheckedSiteBuild(arguments)
    }

    /// Says why the session cannot start (not a site, a bad `SOURCE_DATE_EPOCH`), or nil.
    func problem() -> DiagnosticError? {
        if let problem = location.problem() { return DiagnosticError([problem]) }
        if case .failure(let error) = Today.resolve(environment) { return error }
        return nil
    }

    /// Builds the site once, whatever its state; a failure is reported and the session goes on.
    func start() -> BuildResult {
        rebuild()
    }

    /// Watches and rebuilds until a stop is asked for; `rebuilt` hears every rebuild that did
    /// something (written or failed), after its line is printed.
    func watch(polling: Bool, stop: Int32, rebuilt: (BuildResult) -> Void) {
        let watcher = Watcher(scope: scope(), options: Watcher.Options(polling: polling))
        printNotices(watcher)
        let place = location.displayPath.isEmpty ? "the current folder" : location.displayPath
        let how = watcher.mode == .polling ? " (polling every second)" : ""
        console.print("Watching \(place) for changes\(how); press Ctrl-C to stop.")
        // A batch names what changed since the last rebuild began, but only from the second
        // one of a watcher on: what changed before the watcher started raised no event.
        var watchedScope = scope()
        var batchesAreComplete = false
        while !SignalTrap.isRequested, let batch = watcher.nextBatch(stop: stop), !SignalTrap.isRequested {
            let changed = batchesAreComplete && !batch.overflowed ? Set(batch.paths) : nil
            let result = rebuild(changed: changed)
            let newScope = scope()
            batchesAreComplete = newScope == watchedScope
            watchedScope = newScope
            watcher.retarget(newScope)
            printNotices(watcher)
            switch result.outcome {
            case .published, .failed, .notPublished: rebuilt(result)
            case .unchanged, .upToDate, .cancelled: break
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

    /// Brings the output up to date and prints one line: what changed, what was written, how
    /// long it took; or the diagnostics of a failed rebuild. `changed` is what changed since the
    /// last rebuild began, when the watcher knows it.
    private func rebuild(changed: Set<String>? = nil) -> BuildResult {
        let started = ContinuousClock.now
        let result = build.rebuild(today: today(), changed: changed, isCancelled: { SignalTrap.isRequested })
        if let config = build.config { outputPath = location.output(arguments, config: config) }
        BuildReport(console: console).rebuild(result, since: started, outputPath: outputPath)
        return result
    }
}
