import Foundation
import RolodeckBuild
import Synchronization

/// A single self-overwriting line on a terminal that says what a build is doing: "Reading the
/// site", "Decoding the store", "Sorting 50000 contacts", "Rendering 1234/100000 files",
/// "Publishing 100000 files".
///
/// It appears only once a build has run for a moment, so short builds stay quiet, and from then
/// on follows every step. A step may report nothing for seconds (decoding a large store), so the
/// build only notes where it is (`update`, cheap enough for every file, from any thread) and a
/// thread of the line's own draws what changed, at most ten times a second.
final class ProgressLine: Sendable {
    /// What the line shows and what it showed.
    private struct State {
        /// Where the build is, as last noted.
        var current: BuildProgress?
        /// The text on the terminal now.
        var shown: String?
        /// Whether the build is done with the line; nothing is drawn after that.
        var finished = false
    }

    private let console: Console
    private let enabled: Bool
    private let state = Mutex(State())

    /// A line on `console`'s standard error; shows nothing unless `enabled`. It starts drawing
    /// `delay` after it is made; with no delay it draws only when `draw` is called (for tests).
    init(console: Console, enabled: Bool, delay: Duration? = .seconds(1)) {
        self.console = console
        self.enabled = enabled
        guard enabled, let delay else { return }
        Thread.detachNewThread { [self] in
            Thread.sleep(forTimeInterval: Self.seconds(delay))
            while draw() {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// Notes where the build is; the line shows it at its next drawing.
    func update(_ progress: BuildProgress) {
        guard enabled else { return }
        state.withLock { $0.current = progress }
    }

    /// Shows where the build is, if that changed since the last drawing; returns false once the
    /// line is cleared for good.
    @discardableResult
    func draw() -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            guard let current = state.current else { return true }
            let text = Self.text(current)
            if text != state.shown {
                console.writeToError("\r\u{1B}[K" + text)
                state.shown = text
            }
            return true
        }
    }

    /// Removes the line before the summary or an error is printed; nothing is drawn after this.
    func clear() {
        state.withLock { state in
            state.finished = true
            if state.shown != nil { console.writeToError("\r\u{1B}[K") }
            state.shown = nil
        }
    }

    /// What the line says for a step.
    static func text(_ progress: BuildProgress) -> String {
        switch progress {
        case .reading: return "Reading the site"
        case .decoding: return "Decoding the store"
        case .sorting(let contacts): return "Sorting \(contacts) contact\(contacts == 1 ? "" : "s")"
        case .waiting: return "Waiting for another build of this output to finish"
        case .rendering(let done, nil): return "Rendering \(done) files (building the search index)"
        case .rendering(let done, let total?): return "Rendering \(done)/\(total) files"
        case .publishing(let files): return "Publishing \(files) files"
        }
    }

    /// A duration in seconds, for `Thread.sleep`.
    private static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
