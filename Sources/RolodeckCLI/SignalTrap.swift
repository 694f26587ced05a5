import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Turns Ctrl-C (SIGINT) and SIGTERM into something a loop can wait for: a flag, and a byte in
/// a pipe whose reading end `poll` can watch. The first signal asks for a clean stop; the
/// handler then steps aside, so a second Ctrl-C ends the process at once.
enum SignalTrap {
    /// Whether a stop was asked for.
    static let requested = Atomic<Bool>(false)
    /// The pipe's writing end, for the handler; set before the handler is installed.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    nonisolated(unsafe) private static var readEnd: Int32 = -1

    /// Installs the handlers (once) and returns the descriptor that becomes readable on a signal.
    static func install() -> Int32 {
        if readEnd >= 0 { return readEnd }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return -1 }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = requested.load(ordering: .relaxed)  // initialized here, never first in the handler
        // A process inherits its parent's blocked signals (a test runner's thread may block them all).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for number in [SIGINT, SIGTERM] {
            signal(number) { number in
                SignalTrap.requested.store(true, ordering: .relaxed)
                var byte: UInt8 = 1
                _ = write(SignalTrap.writeEnd, &byte, 1)
                signal(number, SIG_DFL)
            }
        }
        return readEnd
    }

    /// Whether a stop was asked for.
    static var isRequested: Bool { requested.load(ordering: .relaxed) }
}
