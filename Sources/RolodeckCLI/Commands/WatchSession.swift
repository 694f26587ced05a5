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
    /// The watcher `start` started, with the folders it watched then.
    private var watcher: (Watcher, WatchScope)?

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

    /// Starts watching the site (polling when asked to), then builds it once, whatever its
    /// state; a failure is reported and the session goes on.
    ///
    /// The watcher starts before the build reads anything, so whatever changes from then on
    /// raises an event: the first batch already names everything that changed since the build
    /// began, and the first save after a start reads and decodes only what it changed (at
    /// 100,000 files, 0.3 s rather than 1.3 s). Until then the watcher watches the folders the
    /// default config names; when the site's config names others, the first batch is taken
    /// for incomplete.
    func start(polling: Bool) -> BuildResult {
        // Before the first build, so that its freed memory is kept for the first save too.
        FreedMemory.keep()
        let scope = scope()
        watcher = (Watcher(scope: scope, options: Watcher.Options(polling: polling)), scope)
        return rebuild()
    }

    /// Watches and rebuilds until a stop is asked for; `rebuilt` hears every rebuild that did
    /// something (written or failed), after its line is printed.
    func watch(polling: Bool, stop: Int32, rebuilt: (BuildResult) -> Void) {
        // A batch names what changed since the last rebuild began, when the watcher watched
        // the same folders while that rebuild read: not when it started after, nor when the
        // config named other folders.
        let (watcher, startScope) =
            self.watcher ?? (Watcher(scope: scope(), options: Watcher.Options(polling: polling)), nil)
        var watchedScope = scope()
        var batchesAreComplete = startScope == watchedScope
        watcher.retarget(watchedScope)
        printNotices(watcher)
        let place = location.displayPath.isEmpty ? "the current folder" : location.displayPath
        let how = watcher.mode == .polling ? " (polling every second)" : ""
        console.print("Watching \(place) for changes\(how); press Ctrl-C to stop.")
        // What the first build freed is kept for the first save.
        var keepsFreedMemory = true
        // What the next save would make first is made once no change has come for a moment.
        var prepared = false
        var warmed = false
        while !SignalTrap.isRequested {
            let timeout = !prepared ? Self.preparingPause : keepsFreedMemory ? FreedMemory.idleTime : nil
            let batch = watcher.nextBatch(stop: stop, timeout: timeout)
            if SignalTrap.isRequested { break }
            guard let batch else {
                if !prepared {
                    build.prepareForSaves()
                    if !warmed {
                        // The memory the first save takes new, faulted in now: the buffer of the
                        // largest store file's read and the rest. Each save after it frees what
                        // the one after takes.
                        FreedMemory.warm(
                            largestFile: build.largestInputFileSize, contacts: build.publishedContactCount)
                        warmed = true
                    }
                    prepared = true
                    continue
                }
                // No change for a while: what the rebuilds freed goes back to the system.
                guard keepsFreedMemory else { break }
                FreedMemory.giveBack()
                keepsFreedMemory = false
                continue
            }
            keepsFreedMemory = true
            prepared = false
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
        build.stopRebuilding()
        console.print("Stopped watching.")
    }

    /// How long no change must have come before the watch makes what the next save would
    /// make first (`SiteBuild.prepareForSaves`): long enough that a burst of saves is not
    /// slowed by it, short enough that the first save a person makes finds it done.
    static let preparingPause = Duration.milliseconds(200)

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
