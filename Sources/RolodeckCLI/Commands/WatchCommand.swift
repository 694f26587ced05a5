/// `rolodeck watch`: build, then rebuild on every change until Ctrl-C.
enum WatchCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "watch",
        brief: "Build, then rebuild on every change to the store, templates or config",
        summary:
            "Build the site, then rebuild it whenever the store, templates, static files or config change.",
        usage: "[--site DIR] [--out DIR] [--poll]",
        options: [
            .site,
            .out,
            .poll,
        ],
        details: """
            Each rebuild reads only the files that changed and writes only the pages they touch, and prints
            one line: what changed, how many files were written, and how long it took. The result is always
            what 'rolodeck build' would write. A broken file is reported with its line and column and the
            last good site stays in place; the next good save rebuilds. Ctrl-C stops.
            """,
        run: run)

    /// Runs `rolodeck watch` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let session = WatchSession(arguments, environment: environment, console: console)
        if let problem = session.problem() {
            _ = console.report(problem)
            return .failure
        }
        let stop = SignalTrap.install()
        _ = session.start(polling: arguments.has("--poll"))
        guard !SignalTrap.isRequested else { return .success }
        session.watch(polling: arguments.has("--poll"), stop: stop) { _ in }
        return .success
    }
}
