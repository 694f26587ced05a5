import Testing
@testable import RolodeckWatch

/// How changes are gathered into batches, driven with made-up instants: no clock, no sleeping.
@Suite struct ChangeCoalescerTests {
    /// One change at a time (in milliseconds after the start), or an overflow.
    enum Input: Sendable {
        case change(String, at: Int, ChangeCoalescer.Writing? = nil)
        case overflow(at: Int)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var inputs: [Input]
        /// When (ms) the batch is ready, and what it holds.
        var readyAt: Int?
        var paths: [String]
        var overflowed = false
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(label: "nothing, no batch", inputs: [], readyAt: nil, paths: []),
        Case(
            label: "a file removed, ready when the files have been still for 50 ms",
            inputs: [.change("a", at: 0, .closed)], readyAt: 50, paths: ["a"]),
        Case(
            label: "one save, ready 10 ms after it finished",
            inputs: [.change("a", at: 0, .saved)], readyAt: 10, paths: ["a"]),
        Case(
            label: "an editor's rename dance is one batch",
            inputs: [
                .change("a~", at: 0), .change("a", at: 1), .change("a", at: 2, .open),
                .change("a", at: 3, .saved),
            ],
            readyAt: 13, paths: ["a", "a~"]),
        Case(
            label: "a change after a save waits the whole 50 ms",
            inputs: [.change("a", at: 0, .saved), .change("a~", at: 5, .closed)], readyAt: 55,
            paths: ["a", "a~"]),
        Case(
            label: "a burst of a thousand files, 1 ms apart, is one batch",
            inputs: (0..<1000).map { .change("f\($0)", at: $0, .closed) }, readyAt: 1049,
            paths: (0..<1000).map { "f\($0)" }.sorted()),
        Case(
            label: "a burst of a thousand saves, 1 ms apart, is one batch",
            inputs: (0..<1000).map { .change("f\($0)", at: $0, .saved) }, readyAt: 1009,
            paths: (0..<1000).map { "f\($0)" }.sorted()),
        Case(
            label: "a file still being written is waited for, up to a second",
            inputs: [.change("big", at: 0, .open), .change("big", at: 100, .open)], readyAt: 1100,
            paths: ["big"]),
        Case(
            label: "until it is closed",
            inputs: [.change("big", at: 0, .open), .change("big", at: 100, .saved)], readyAt: 110,
            paths: ["big"]),
        Case(
            label: "a stream that never stops is cut after three seconds",
            inputs: (0..<400).map { .change("s", at: $0 * 10) }, readyAt: 3000, paths: ["s"]),
        Case(
            label: "lost events stand for every file",
            inputs: [.change("a", at: 0), .overflow(at: 5)], readyAt: 55, paths: ["a"], overflowed: true),
        Case(
            label: "lost events after a save wait the whole 50 ms",
            inputs: [.change("a", at: 0, .saved), .overflow(at: 5)], readyAt: 55, paths: ["a"],
            overflowed: true),
    ]

    @Test(arguments: cases)
    func batches(_ test: Case) {
        let start = ContinuousClock.now
        var coalescer = ChangeCoalescer()
        for input in test.inputs {
            switch input {
            case .change(let path, let at, let writing):
                coalescer.record(path, at: start + .milliseconds(at), writing: writing)
            case .overflow(let at): coalescer.recordOverflow(at: start + .milliseconds(at))
            }
        }
        #expect(coalescer.readyAt == test.readyAt.map { start + .milliseconds($0) })
        guard let readyAt = test.readyAt else {
            #expect(coalescer.take(at: start + .seconds(100)) == nil)
            return
        }
        #expect(coalescer.take(at: start + .milliseconds(readyAt - 1)) == nil)
        #expect(
            coalescer.take(at: start + .milliseconds(readyAt))
                == ChangeBatch(paths: test.paths, overflowed: test.overflowed))
        // Taken: the coalescer starts over.
        #expect(coalescer.readyAt == nil)
    }
}
