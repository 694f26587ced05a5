/// Gathers file changes into batches, so that a burst (an editor's save, a `git checkout`, a
/// sync tool rewriting the store) becomes one rebuild rather than hundreds.
///
/// A batch is ready once no change has come for `quiet`, or only for `afterSave` when the last
/// change finished a save (a file closed after writing, or renamed into place: the last step of
/// every editor's save); while a file has been written to but not yet closed, the batch waits up
/// to `settle` for it; and however long a stream of changes goes on, a batch is never held back
/// more than `maximum` after its first change. A pure value: the watcher feeds it changes and
/// instants, and the tests do the same without a clock.
public struct ChangeCoalescer: Sendable {
    /// How long the files must be still before a batch is ready.
    var quiet: Duration
    /// How long the files must be still after a change that finished a save.
    var afterSave: Duration
    /// How long to wait for a file that is still being written.
    var settle: Duration
    /// The longest a change waits for the ones after it.
    var maximum: Duration

    private var paths: Set<String> = []
    private var writing: Set<String> = []
    private var first: ContinuousClock.Instant?
    private var last: ContinuousClock.Instant?
    private var lastSaved = false
    private var overflowed = false

    /// Creates a coalescer.
    public init(
        quiet: Duration = .milliseconds(50), afterSave: Duration = .milliseconds(10),
        settle: Duration = .seconds(1), maximum: Duration = .seconds(3)
    ) {
        self.quiet = quiet
        self.afterSave = afterSave
        self.settle = settle
        self.maximum = maximum
    }

    /// What a write event says about the file.
    enum Writing: Sendable {
        /// The file was written to and is still open for writing.
        case open
        /// The file is no longer written to (it was removed or renamed away).
        case closed
        /// A save of the file finished: it was closed after writing, or renamed into place.
        case saved
    }

    /// Records a change of `path` at `instant`; `writing` tells the state of a written file.
    mutating func record(
        _ path: String, at instant: ContinuousClock.Instant, writing state: Writing? = nil
    ) {
        paths.insert(path)
        switch state {
        case .open: writing.insert(path)
        case .closed, .saved: writing.remove(path)
        case nil: break
        }
        first = first ?? instant
        last = instant
        lastSaved = state == .saved
    }

    /// Records that changes were lost (the kernel's event queue overflowed): the batch stands
    /// for every file.
    mutating func recordOverflow(at instant: ContinuousClock.Instant) {
        overflowed = true
        first = first ?? instant
        last = instant
        lastSaved = false
    }

    /// When the batch gathered so far is ready; nil when there is none.
    var readyAt: ContinuousClock.Instant? {
        guard let first, let last else { return nil }
        let settled = last + (!writing.isEmpty ? settle : lastSaved ? afterSave : quiet)
        return min(settled, first + maximum)
    }

    /// The batch, if it is ready at `now`; the coalescer starts over.
    mutating func take(at now: ContinuousClock.Instant) -> ChangeBatch? {
        guard let readyAt, readyAt <= now else { return nil }
        let batch = ChangeBatch(paths: paths.sorted(), overflowed: overflowed)
        paths = []
        writing = []
        first = nil
        last = nil
        overflowed = false
        return batch
    }
}

/// Changes gathered into one rebuild.
public struct ChangeBatch: Sendable, Equatable {
    /// The absolute paths of the files and folders that changed, sorted.
    public var paths: [String]
    /// Whether events were lost, so any file may have changed.
    public var overflowed: Bool

    /// Creates a batch.
    init(paths: [String], overflowed: Bool = false) {
        self.paths = paths
        self.overflowed = overflowed
    }
}
