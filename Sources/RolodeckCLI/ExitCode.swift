/// The exit statuses `rolodeck` returns; cron and scripts rely on them.
public enum ExitCode: Int32, Sendable {
    /// Everything worked.
    case success = 0
    /// The input was bad or the build failed; the messages say why.
    case failure = 1
    /// The command line was wrong (EX_USAGE from sysexits.h).
    case usage = 64
    /// A build was stopped by Ctrl-C (SIGINT): 128 + 2, as a shell reports it.
    case interrupted = 130
    /// A build was stopped by SIGTERM: 128 + 15.
    case terminated = 143
    /// A build was stopped by SIGHUP (its terminal closed): 128 + 1.
    case hungUp = 129
}
