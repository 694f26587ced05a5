/// `rolodeck manpage`: the manual page in roff, as `make install` installs it.
enum ManpageCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "manpage",
        brief: "Print the manual page (roff; read it with 'man -l -')",
        summary: "Print the manual page, rolodeck(1), in roff on standard output.",
        options: [],
        details: "'make install' installs it; to read it without installing: rolodeck manpage | man -l -",
        run: run)

    /// Runs `rolodeck manpage`; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        console.writeToOutput(ManPage.roff())
        return .success
    }
}
