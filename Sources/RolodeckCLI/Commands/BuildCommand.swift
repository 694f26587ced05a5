import RolodeckBuild
import RolodeckCore

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
                name: "--quiet", short: "-q", value: nil, help: "Print nothing unless the build fails"),
        ],
        details: """
            Only files whose bytes changed are written; pages that no longer exist are removed. The new
            site replaces the old one in a single rename, so a failed or interrupted build leaves the
            previous output exactly as it was. Ages are computed for today, or for SOURCE_DATE_EPOCH
            when it is set.
            """,
        run: run)

    /// Runs `rolodeck build` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let started = ContinuousClock.now
        let report = BuildReport(console: console, quiet: arguments.has("--quiet"))
        let build: SiteBuild
        let today: PartialDate
        do throws(DiagnosticError) {
            build = try SiteLocation(arguments).siteBuild(arguments)
            today = try Today.resolve(environment).get()
        } catch {
            return report.fail(error)
        }
        build.leavesMemoryToExit = Rolodeck.endsWithCommand.load(ordering: .relaxed)
        let progress = ProgressLine(console: console, enabled: !report.quiet && console.errorIsTerminal)
        let result = build.build(today: today) { progress.update($0, $1) }
        progress.clear()
        return report.build(result, since: started)
    }
}
