import CSystem
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-C (SIGINT), SIGTERM and SIGHUP (the terminal closed) into something a loop can
/// wait for: a flag, and a byte in a pipe whose reading end `poll` can watch. SIGHUP is left
/// alone when the process started with it ignored (`nohup`).
///
/// In `watch` and `serve` the first signal asks for a clean stop; the handler then steps aside,
/// so a second Ctrl-C ends the process at once.
///
/// A build (`installForBuild`) has two stages. Until it is about to write (`beginWriting`), it
/// has nothing to clean up: the handler itself prints why the build stopped and ends the process
/// at once, however long the step it is in (decoding a large store checks for nothing). From
/// then on the handler only asks for a stop, and the build removes its staging folder and says
/// what became of the output; later signals change nothing, so that the cleanup, which is short,
/// is never cut off half-way (SIGKILL still ends the process). The two stages meet in one atomic
/// compare-and-exchange: either the handler ends the process before anything is written, or the
/// build writes and the handler leaves the ending to it, never both.
enum SignalTrap {
    /// Whether a stop was asked for.
    static let requested = Atomic<Bool>(false)
    /// The first signal that came, or 0.
    static let received = Atomic<Int32>(0)
    /// The pipe's writing end, for the handler; set before the handler is installed.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// What the handler does with a signal, as the raw value of a `Stage`.
    private static let stage = Atomic<Int>(Stage.asksToStop.rawValue)

    /// What the handler does with a signal.
    private enum Stage: Int {
        /// `watch` and `serve`: set the flag, then step aside for the next signal.
        case asksToStop
        /// A build that has written nothing: print the message and end the process.
        case endsAtOnce
        /// A build that is writing: set the flag, and stay for later signals.
        case buildCleansUp
        /// The handler is ending the process.
        case ending
    }

    /// The signals that ask for a stop.
    static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// The messages the handler prints when it ends a build, for SIGINT, SIGTERM and SIGHUP;
    /// made before the handler is installed, in memory of their own that is never freed, since
    /// the handler may do no more than `write` them.
    nonisolated(unsafe) private static var endMessages = EndMessages()

    /// The bytes of the handler's messages, one for each signal.
    private struct EndMessages {
        var interrupt = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var terminate = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        var hangUp = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
    }

    /// Installs the handlers (once) for `watch` and `serve`, and returns the descriptor that
    /// becomes readable on a signal.
    static func install() -> Int32 {
        stage.store(Stage.asksToStop.rawValue, ordering: .sequentiallyConsistent)
        return installHandlers()
    }

    /// Installs the handlers, once; returns the pipe's reading end.
    private static func installHandlers() -> Int32 {
        if readEnd >= 0 { return readEnd }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        // Initialized here, never first in the handler.
        _ = requested.load(ordering: .relaxed)
        _ = received.load(ordering: .relaxed)
        _ = stage.load(ordering: .relaxed)
        _ = endMessages
        // A process inherits its parent's blocked signals (a test runner's thread may block them all).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        // A process started by `nohup` keeps SIGHUP ignored, as its user asked.
        let signals = handled.filter { $0 != SIGHUP || rolodeck_signal_is_ignored($0) == 0 }
        for number in signals { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in signals {
            signal(number) { number in
                _ = SignalTrap.received.compareExchange(expected: 0, desired: number, ordering: .relaxed)
                let ends = SignalTrap.stage.compareExchange(
                    expected: Stage.endsAtOnce.rawValue, desired: Stage.ending.rawValue,
                    ordering: .sequentiallyConsistent)
                if ends.exchanged {
                    let messages = SignalTrap.endMessages
                    let message =
                        number == SIGTERM
                        ? messages.terminate : number == SIGHUP ? messages.hangUp : messages.interrupt
                    _ = write(STDERR_FILENO, message.baseAddress, message.count)
                    _exit(SignalTrap.exitStatus(for: number))
                }
                SignalTrap.requested.store(true, ordering: .relaxed)
                var byte: UInt8 = 1
                _ = write(SignalTrap.writeEnd, &byte, 1)
                if SignalTrap.stage.load(ordering: .relaxed) == Stage.asksToStop.rawValue {
                    signal(number, SIG_DFL)
                }
            }
        }
        return readEnd
    }

    /// Installs the handlers for a build: until `beginWriting`, a signal prints
    /// `message(stopped(by:))` on standard error and ends the process with 128 + its number; from
    /// then on it asks for a stop.
    static func installForBuild(message: (String) -> String) {
        // Never freed: the handler may read it until the process ends.
        func kept(_ text: String) -> UnsafeBufferPointer<UInt8> {
            let bytes = Array(text.utf8)
            let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
            _ = buffer.initialize(from: bytes)
            return UnsafeBufferPointer(buffer)
        }
        endMessages = EndMessages(
            interrupt: kept(message(stopped(by: SIGINT))), terminate: kept(message(stopped(by: SIGTERM))),
            hangUp: kept(message(stopped(by: SIGHUP))))
        requested.store(false, ordering: .relaxed)
        received.store(0, ordering: .relaxed)
        stage.store(Stage.endsAtOnce.rawValue, ordering: .sequentiallyConsistent)
        _ = installHandlers()
    }

    /// Tells the handler that the build is about to write, so that a signal must now let it
    /// clean up. If the handler is already ending the process, waits for the end instead.
    static func beginWriting() {
        let moved = stage.compareExchange(
            expected: Stage.endsAtOnce.rawValue, desired: Stage.buildCleansUp.rawValue,
            ordering: .sequentiallyConsistent)
        guard !moved.exchanged, moved.original == Stage.ending.rawValue else { return }
        while true { pause() }
    }

    /// Whether a stop was asked for.
    static var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// The signal that asked for the stop, if one did.
    static var signalReceived: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    /// How a build stopped by `number` says it stopped: "build interrupted", "build terminated",
    /// "build stopped by SIGHUP".
    static func stopped(by number: Int32) -> String {
        switch number {
        case SIGINT: "interrupted"
        case SIGTERM: "terminated"
        case SIGHUP: "stopped by SIGHUP"
        default: "stopped by signal \(number)"
        }
    }

    /// The status a process stopped by `number` exits with, as a shell reports a process killed by
    /// it: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
    static func exitStatus(for number: Int32) -> Int32 {
        128 + number
    }
}
