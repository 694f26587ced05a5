import Foundation

/// A single self-overwriting "Rendering 1234/100000" line on a terminal, shown only once a
/// build has run for a moment, so short builds stay quiet.
final class ProgressLine: @unchecked Sendable {
    private let console: Console
    private let enabled: Bool
    private let started = ContinuousClock.now
    private var lastShown: ContinuousClock.Instant?
    private var visible = false

    /// A line on `console`'s standard error; shows nothing unless `enabled`.
    init(console: Console, enabled: Bool) {
        self.console = console
        self.enabled = enabled
    }

    /// Shows the count, at most ten times a second, after the first second.
    func update(_ done: Int, _ total: Int) {
        guard enabled else { return }
        let now = ContinuousClock.now
        guard now - started > .seconds(1) else { return }
        if let lastShown, now - lastShown < .milliseconds(100), done < total { return }
        lastShown = now
        visible = true
        console.writeToError("\r\u{1B}[KRendering \(done)/\(total) files")
    }

    /// Removes the line before the summary or an error is printed.
    func clear() {
        guard visible else { return }
        console.writeToError("\r\u{1B}[K")
        visible = false
    }
}
