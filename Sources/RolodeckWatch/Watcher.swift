#if canImport(Glibc)
    import Glibc
#endif

/// Watches a site's files and hands out batches of changes, each ready for one rebuild.
///
/// On Linux it uses inotify through Glibc: one watch per folder of the store, `Templates/` and
/// `Public/`, and the site folder itself (for `rolodeck.json` and for those folders coming and
/// going). A folder created or moved in is watched with everything already in it; one deleted
/// or moved away is dropped; a tree root that disappears is looked for again every second. When
/// the kernel's event queue overflows, the batch stands for every file. When inotify cannot be
/// used (its limits are reached) or polling is asked for, every file is looked at with `stat`
/// once a second instead, and `takeNotices` says why.
///
/// Nothing is lost between batches: the kernel queues the events that happen during a rebuild,
/// and the next call returns them. Not thread-safe: one thread drives it.
public final class Watcher {
    /// How a watcher is set up.
    public struct Options: Sendable {
        /// Poll with `stat` instead of using inotify.
        var polling = false
        /// How often to poll, and to look for a watched folder that went away.
        var pollInterval: Duration = .seconds(1)
        /// How changes are gathered into batches.
        var coalescer = ChangeCoalescer()
        /// At most this many inotify watches (tests use it to hit the limit); nil for the system's.
        var watchLimit: Int?

        /// The defaults: inotify, polling once a second only as a fallback.
        public init(
            polling: Bool = false, pollInterval: Duration = .seconds(1),
            coalescer: ChangeCoalescer = ChangeCoalescer()
        ) {
            self.polling = polling
            self.pollInterval = pollInterval
            self.coalescer = coalescer
        }
    }

    /// How the watcher learns of changes.
    public enum Mode: Sendable, Equatable {
        /// inotify events.
        case inotify
        /// Looking at every file's status once per poll interval.
        case polling
    }

    /// What is watched.
    private(set) var scope: WatchScope
    /// How changes are learnt of.
    public private(set) var mode: Mode
    private let options: Options
    private var inotify: InotifyWatches?
    private var poller = FolderPoller()
    private var coalescer: ChangeCoalescer
    private var notices: [WatchError] = []
    private var missingTrees: Set<String> = []
    private var nextLook: ContinuousClock.Instant

    /// Starts watching; never fails (when inotify cannot be used it polls, and `takeNotices`
    /// says why).
    public init(scope: WatchScope, options: Options = Options()) {
        self.scope = scope
        self.options = options
        self.coalescer = options.coalescer
        self.nextLook = .now + options.pollInterval
        self.mode = options.polling ? .polling : .inotify
        if options.polling {
            _ = poller.scan(scope)
        } else {
            do {
                inotify = try InotifyWatches(limit: options.watchLimit)
                try watchEverything()
            } catch {
                fallBack(error)
            }
        }
    }

    /// Problems worth telling the user about since the last call (falling back to polling).
    public func takeNotices() -> [WatchError] {
        defer { notices = [] }
        return notices
    }

    /// Watches another scope (the config named another store or output folder).
    public func retarget(_ newScope: WatchScope) {
        guard newScope != scope else { return }
        scope = newScope
        missingTrees = []
        guard mode == .inotify else {
            poller = FolderPoller()
            _ = poller.scan(scope)
            return
        }
        do {
            inotify = try InotifyWatches(limit: options.watchLimit)
            try watchEverything()
        } catch {
            fallBack(error)
        }
    }

    /// Waits for the next batch of changes and returns it; nil when `stop` (a file descriptor,
    /// such as the reading end of a pipe a signal handler writes to) becomes readable, or when
    /// `timeout` passes first.
    public func nextBatch(stop: Int32? = nil, timeout: Duration? = nil) -> ChangeBatch? {
        let giveUp = timeout.map { ContinuousClock.now + $0 }
        while true {
            let now = ContinuousClock.now
            if let batch = coalescer.take(at: now) { return batch }
            if let giveUp, now >= giveUp { return nil }
            var wake = [coalescer.readyAt, giveUp].compactMap { $0 }
            if mode == .polling || !missingTrees.isEmpty { wake.append(nextLook) }
            let wait = wake.min().map { max(Duration.zero, $0 - now) }
            var descriptors: [pollfd] = []
            if let inotify {
                descriptors.append(pollfd(fd: inotify.descriptor, events: Int16(POLLIN), revents: 0))
            }
            if let stop { descriptors.append(pollfd(fd: stop, events: Int16(POLLIN), revents: 0)) }
            let milliseconds =
                wait.map { Int32(min(Double(Int32.max), ($0 / .milliseconds(1)).rounded(.up))) } ?? -1
            let ready = poll(&descriptors, nfds_t(descriptors.count), milliseconds)
            if ready < 0, errno != EINTR { return nil }
            if ready > 0, let stop, descriptors.contains(where: { $0.fd == stop && $0.revents != 0 }) {
                return nil
            }
            if let inotify, descriptors.first?.revents ?? 0 != 0 {
                handle(inotify.readEvents())
            }
            if ContinuousClock.now >= nextLook {
                nextLook = ContinuousClock.now + options.pollInterval
                look()
            }
        }
    }

    /// Polls, or looks again for folders that went away.
    private func look() {
        let now = ContinuousClock.now
        if mode == .polling {
            for path in poller.scan(scope) { coalescer.record(path, at: now) }
            return
        }
        guard let inotify else { return }
        for tree in missingTrees.sorted() {
            do {
                let added = try inotify.watchTree(tree, scope: scope)
                if !added.isEmpty {
                    missingTrees.remove(tree)
                    coalescer.record(tree, at: now)
                    for folder in added { recordContents(of: folder, at: now) }
                }
            } catch {
                fallBack(error)
                return
            }
        }
    }

    /// Watches the site folder and every tree, noting the trees that do not exist yet.
    private func watchEverything() throws(WatchError) {
        guard let inotify else { return }
        try inotify.watch(scope.siteFolder)
        for tree in scope.trees {
            _ = try inotify.watchTree(tree, scope: scope)
            if !inotify.isWatching(tree) { missingTrees.insert(tree) }
        }
    }

    private func handle(_ events: [InotifyWatches.Event]) {
        guard let inotify else { return }
        let now = ContinuousClock.now
        do {
            for event in events {
                guard let folder = event.folder else {
                    // Events were lost: anything may have changed, and folders may be unwatched.
                    coalescer.recordOverflow(at: now)
                    try watchEverything()
                    continue
                }
                if event.name.isEmpty {
                    if event.has(IN_DELETE_SELF) || event.has(IN_MOVE_SELF) {
                        inotify.unwatchTree(folder)
                        if scope.trees.contains(folder) {
                            missingTrees.insert(folder)
                            coalescer.record(folder, at: now)
                        }
                    }
                    continue
                }
                let path = folder + "/" + event.name
                if scope.isRelevant(event.name, in: folder, isFolder: event.isFolder) {
                    let writing: ChangeCoalescer.Writing? =
                        event.has(IN_CLOSE_WRITE) || (event.has(IN_MOVED_TO) && !event.isFolder)
                        ? .saved
                        : event.has(IN_MODIFY)
                            ? .open : event.has(IN_DELETE) || event.has(IN_MOVED_FROM) ? .closed : nil
                    coalescer.record(path, at: now, writing: writing)
                }
                guard event.isFolder else { continue }
                if event.has(IN_CREATE) || event.has(IN_MOVED_TO) {
                    let added = try inotify.watchTree(path, scope: scope)
                    if !added.isEmpty { missingTrees.remove(path) }
                    // What was put in the folders before they were watched raised no event.
                    for folder in added { recordContents(of: folder, at: now) }
                } else if event.has(IN_MOVED_FROM) || event.has(IN_DELETE) {
                    inotify.unwatchTree(path)
                    if scope.trees.contains(path) { missingTrees.insert(path) }
                }
            }
        } catch {
            coalescer.recordOverflow(at: now)
            fallBack(error)
        }
    }

    /// Records the relevant files of a folder that was just watched as changed.
    private func recordContents(of folder: String, at now: ContinuousClock.Instant) {
        for entry in InotifyWatches.entries(of: folder) where !entry.isFolder {
            if scope.isRelevant(entry.name, in: folder, isFolder: false) {
                coalescer.record(folder + "/" + entry.name, at: now)
            }
        }
    }

    /// Switches to polling, after saying why.
    private func fallBack(_ error: WatchError) {
        notices.append(error)
        inotify = nil
        mode = .polling
        missingTrees = []
        poller = FolderPoller()
        _ = poller.scan(scope)
        nextLook = ContinuousClock.now + options.pollInterval
    }
}
