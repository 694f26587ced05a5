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
            site = try SiteLocation(arguments).siteBuild(arguments).check()
        } catch {
            let count = console.report(error)
            console.printError("error: check found \(count) error\(count == 1 ? "" : "s")")
            return .failure
        }
        // Warnings even when quiet, as `build` prints them: only the summary is silenced.
        site.warnings.forEach(console.report)
        guard !quiet else { return .success }
        let warnings = site.warnings.count
        console.print(
            "OK: \(site.store.contacts.count) contacts, \(site.store.groups.count) groups, "
                + "\(site.store.todos.count) todos, \(site.theme.templates.templateNames.count) templates"
                + (warnings > 0 ? " (\(warnings) warning\(warnings == 1 ? "" : "s"))" : ""))
        return .success
    }
}
