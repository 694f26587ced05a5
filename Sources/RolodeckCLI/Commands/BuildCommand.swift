import RolodeckBuild
import RolodeckCore
import RolodeckPublish

/// `rolodeck build`: the whole pipeline, published atomically into the output folder.
enum BuildCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "build",
        brief: "Build the site into its output folder (default: _site)",
        summary: "Build the site from its store into the output folder.",
        usage: "[--site DIR] [--out DIR] [--quiet]",
        options: [
            .site,
            .out,
            OptionSpec(
                name: "--quiet", short: "-q", value: nil, help: "Print only warnings and errors"),
        ],
        details: """
            Only files whose bytes changed are written; pages that no longer exist are removed. The new
            site replaces the old one in a single rename, so a failed or interrupted build leaves the
            previous output exactly as it was. Ctrl-C, SIGTERM or SIGHUP removes what the build had
            assembled and says whether the old site or the new one is in place (exit status 130, 143
            or 129). On a terminal, a line shows what the build is doing. Ages are computed for today,
            or for SOURCE_DATE_EPOCH when it is set.
            """,
        run: run)

    /// Runs `rolodeck build` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let started = ContinuousClock.now
        let report = BuildReport(console: console, quiet: arguments.has("--quiet"))
        let showsProgress = !report.quiet && console.errorIsTerminal
        // Until the build is about to write, a signal ends it from the handler, with this line.
        let clearsLine = showsProgress ? "\r\u{1B}[K" : ""
        SignalTrap.installForBuild { "\(clearsLine)build \($0); nothing was written\n" }
        let build: SiteBuild
        let today: PartialDate
        do throws(DiagnosticError) {
            build = try SiteLocation(arguments).siteBuild(arguments)
            today = try Today.resolve(environment).get()
        } catch {
            return report.fail(error)
        }
        build.leavesMemoryToExit = Rolodeck.endsWithCommand.load(ordering: .relaxed)
        let progress = ProgressLine(console: console, enabled: showsProgress)
        let control = PublishControl(
            willWrite: { SignalTrap.beginWriting() }, isCancelled: { SignalTrap.isRequested })
        let result = build.build(today: today, progress: { progress.update($0) }, control: control)
        progress.clear()
        if let signal = SignalTrap.signalReceived {
            return stopped(result, by: signal, report: report, since: started)
        }
        return report.build(result, since: started)
    }

    /// Prints what became of the output of a build that a signal stopped once it had begun to
    /// write: left as it was, or, when the signal came after the swap, the new site; returns 130
    /// for SIGINT, 143 for SIGTERM, 129 for SIGHUP.
    private static func stopped(
        _ result: BuildResult, by signal: Int32, report: BuildReport, since started: ContinuousClock.Instant
    ) -> ExitCode {
        let how = SignalTrap.stopped(by: signal)
        let output = result.outputPath
        switch result.outcome {
        case .published:
            _ = report.build(result, since: started)
            report.console.printError("build \(how); the new site had already been published in \(output)")
        case .failed, .notPublished:
            // Their own last line says what became of the output.
            _ = report.build(result, since: started)
            report.console.printError("build \(how)")
        case .cancelled, .upToDate, .unchanged:
            let what = output.isEmpty ? "nothing was written" : "\(output) was left as it was"
            report.console.printError("build \(how); \(what)")
        }
        return ExitCode(rawValue: SignalTrap.exitStatus(for: signal)) ?? .interrupted
    }
}
