import Synchronization
import Testing
import RolodeckBuild
@testable import RolodeckCLI

/// The progress line of `rolodeck build` on a terminal: every step of the build, each drawn
/// over the last, and nothing once it is cleared or when it is not enabled.
@Suite struct ProgressLineTests {
    /// What was written to standard error.
    final class Written: Sendable {
        private let text = Mutex("")
        func append(_ more: String) { text.withLock { $0 += more } }
        var all: String { text.withLock { $0 } }
    }

    /// A console whose standard error is a terminal, with what was written to it.
    static func console() -> (Console, Written) {
        let written = Written()
        let console = Console(errorIsTerminal: true, out: { _ in }, error: { written.append($0) })
        return (console, written)
    }

    @Test func everyStepIsShownOverTheLast() {
        let (console, written) = Self.console()
        let line = ProgressLine(console: console, enabled: true, delay: nil)
        let steps: [BuildProgress] = [
            .reading, .decoding, .sorting(contacts: 50_000), .waiting, .rendering(done: 0, total: nil),
            .rendering(done: 256, total: nil), .rendering(done: 512, total: 52_123), .publishing(files: 52_123),
        ]
        #expect(line.draw())
        for step in steps {
            line.update(step)
            #expect(line.draw())
            // Drawn again unchanged: nothing more is written.
            #expect(line.draw())
        }
        line.clear()
        line.update(.reading)
        #expect(!line.draw())
        let clear = "\r\u{1B}[K"
        #expect(written.all == [
            "Reading the site", "Decoding the store", "Sorting 50000 contacts",
            "Waiting for another build of this output to finish",
            "Rendering 0 files (building the search index)", "Rendering 256 files (building the search index)",
            "Rendering 512/52123 files", "Publishing 52123 files",
        ].map { clear + $0 }.joined() + clear)
    }

    /// Only the steps a drawing finds are shown: the many updates of the pages between two
    /// drawings cost no output.
    @Test func updatesBetweenDrawingsAreNotShown() {
        let (console, written) = Self.console()
        let line = ProgressLine(console: console, enabled: true, delay: nil)
        for done in stride(from: 0, through: 2048, by: 256) {
            line.update(.rendering(done: done, total: 4000))
        }
        line.draw()
        line.clear()
        #expect(written.all == "\r\u{1B}[KRendering 2048/4000 files\r\u{1B}[K")
    }

    /// With `--quiet` or on a pipe the line is not enabled: nothing at all, not even a clear.
    @Test func aLineNotEnabledShowsNothing() {
        let (console, written) = Self.console()
        let line = ProgressLine(console: console, enabled: false, delay: nil)
        line.update(.reading)
        line.draw()
        line.clear()
        #expect(written.all.isEmpty)
    }

    /// A line cleared before it was ever drawn writes nothing: a short build stays quiet.
    @Test func aLineNeverDrawnClearsNothing() {
        let (console, written) = Self.console()
        let line = ProgressLine(console: console, enabled: true, delay: nil)
        line.update(.reading)
        line.clear()
        #expect(written.all.isEmpty)
    }
}
