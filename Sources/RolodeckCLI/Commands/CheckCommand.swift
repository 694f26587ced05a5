import RolodeckBuild
import RolodeckCore
import RolodeckSite

/// `rolodeck check`: validate everything a build reads, write nothing.
enum CheckCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "check",
        brief: "Validate the store, the config and the templates; write nothing",
        summary: "Validate the store, the config and the templates without writing anything.",
        usage: "[--site DIR] [--quiet]",
        options: [
            .site,
            OptionSpec(
                name: "--quiet", short: "-q", value: nil, help: "Print only warnings and errors"),
        ],
        run: run)

    /// Runs `rolodeck check` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        let quiet = arguments.has("--quiet")
        let site: Site
        do throws(DiagnosticError) {
            let build = try SiteLocation(arguments).siteBuild(arguments)
            build.leavesMemoryToExit = Rolodeck.endsWithCommand.load(ordering: .relaxed)
            site = try build.check()
        } catch {
            let count = console.report(error)
            console.printError("error: check found " + BuildReport.count(count, "error"))
            return .failure
        }
        // The process ends with the command: the loaded store is left for the exit to reclaim
        // instead of freed object by object (a tenth of a check of 100,000 files).
        if Rolodeck.endsWithCommand.load(ordering: .relaxed) { Rolodeck.leaveToExit(site) }
        // Warnings even when quiet, as `build` prints them: only the summary is silenced.
        site.warnings.forEach(console.report)
        guard !quiet else { return .success }
        let records = BuildReport.records(site.counts)
        let templates = BuildReport.count(site.theme.templates.templateNames.count, "template")
        let warnings =
            site.warnings.isEmpty ? "" : " (" + BuildReport.count(site.warnings.count, "warning") + ")"
        console.print("OK: \(records), \(templates)\(warnings)")
        return .success
    }
}
