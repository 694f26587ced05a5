import Foundation
import Synchronization
import RolodeckCore

/// The `rolodeck` command line: picks the command and runs it.
public enum Rolodeck {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Whether the process ends as soon as its command returns (it was started by `main`), so a
    /// command may leave what it built for the exit to reclaim instead of freeing it object by
    /// object.
    static let endsWithCommand = Atomic<Bool>(false)

    /// Runs the process's command line and exits with its status.
    public static func main() -> Never {
        endsWithCommand.store(true, ordering: .relaxed)
        let status = run(
            Array(CommandLine.arguments.dropFirst()),
            environment: ProcessInfo.processInfo.environment, console: .standard())
        exit(status.rawValue)
    }

    /// Runs a command line (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], environment: [String: String], console: Console) -> ExitCode
    {
        switch request(arguments) {
        case .text(let text):
            console.print(text)
            return .success
        case .mistake(let error):
            error.lines.forEach(console.printError)
            return .usage
        case .command(let command):
            return run(
                command, arguments: Array(arguments.dropFirst()), environment: environment, console: console)
        }
    }

    /// What a command line's first argument asks for.
    enum Request {
        /// Text to print: help, or the version.
        case text(String)
        /// An option or a command there is none of.
        case mistake(UsageError)
        /// A command to run with the arguments after it.
        case command(Command)
    }

    /// What a command line asks for: its first argument names a command, asks for help (on the
    /// command named after it, if any) or the version, or is a mistake. An empty one asks for help.
    static func request(_ arguments: [String]) -> Request {
        guard let first = arguments.first else { return .text(help) }
        switch first {
        case "--help", "-h", "help":
            return .text(arguments.dropFirst().first.flatMap { commands[$0]?.help } ?? help)
        case "--version", "-V":
            return .text("rolodeck \(version)")
        default:
            if let command = commands[first] { return .command(command) }
            let hint =
                Suggestion.closest(to: first, in: Array(commands.keys)).map { "; did you mean '\($0)'?" }
                ?? ""
            let kind = first.hasPrefix("-") ? "option" : "command"
            return .mistake(UsageError(command: "", message: "unknown \(kind) '\(first)'\(hint)"))
        }
    }

    /// Parses a command's arguments and runs it, or prints its help when they ask for it.
    static func run(
        _ command: Command, arguments: [String], environment: [String: String], console: Console
    )
        -> ExitCode
    {
        let parsed: Arguments
        do {
            parsed = try Arguments(
                parsing: arguments, command: command.name, options: command.options,
                positionals: command.positionals.count)
        } catch {
            error.lines.forEach(console.printError)
            return .usage
        }
        if parsed.has("--help") {
            console.print(command.help)
            return .success
        }
        return command.run(parsed, environment, console)
    }

    /// Every command by name.
    static let commands: [String: Command] = Dictionary(
        uniqueKeysWithValues: [
            BuildCommand.command, CheckCommand.command, InitCommand.command, ServeCommand.command,
            WatchCommand.command,
        ]
        .map { ($0.name, $0) })

    static let help = """
        rolodeck \(version): publish a contacts store as a browsable, searchable website

        Usage: rolodeck <command> [options]

        Commands:
          build    Build the site into its output folder (default: _site)
          check    Validate the store, the config and the templates; write nothing
          init     Create a new site folder with a small sample store
          serve    Build, watch, and preview on http://127.0.0.1:8000 with live reload
          watch    Build, then rebuild on every change to the store, templates or config

        Options:
          -h, --help       Show help (also: rolodeck <command> --help)
          -V, --version    Show the version

        Exit status: 0 success, 1 bad input or failed build, 64 wrong command line.
        """
}

/// One command: its name, options, help and what it does.
struct Command: Sendable {
    var name: String
    var summary: String
    var usage: String
    var positionals: [String] = []
    var options: [OptionSpec]
    var details: String = ""
    var run: @Sendable (Arguments, [String: String], Console) -> ExitCode

    /// The command's `--help` text.
    var help: String {
        var text = "\(summary)\n\nUsage: rolodeck \(name) \(usage)\n\nOptions:\n"
        let rows =
            options.map { option -> (String, String) in
                let names = [option.short, option.name].compactMap { $0 }.joined(separator: ", ")
                return (names + (option.value.map { " " + $0 } ?? ""), option.help)
            } + [("-h, --help", "Show this help")]
        let width = rows.map(\.0.count).max() ?? 0
        for (names, help) in rows {
            text += "  " + names + String(repeating: " ", count: width - names.count + 3) + help + "\n"
        }
        if !details.isEmpty { text += "\n" + details + "\n" }
        return String(text.dropLast())
    }
}
