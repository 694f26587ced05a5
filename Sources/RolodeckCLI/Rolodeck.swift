import Foundation
import Synchronization
import RolodeckCore

/// The `rolodeck` command line: picks the command and runs it.
public enum Rolodeck {
    /// The version printed by `--version`.
    public static let version = "0.1.0"

    /// Whether the process ends as soon as its command returns (it was started by `main`), so a
    /// command may leave what it built for the exit to reclaim instead of freeing it object by
    /// object, which takes a third of a second at 100,000 contacts.
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
        guard let first = arguments.first else {
            console.print(help)
            return .success
        }
        let rest = Array(arguments.dropFirst())
        let command: Command
        switch first {
        case "--help", "-h", "help":
            if let topic = rest.first, let named = commands[topic] {
                console.print(named.help)
            } else {
                console.print(help)
            }
            return .success
        case "--version", "-V":
            console.print("rolodeck \(version)")
            return .success
        default:
            guard let named = commands[first] else {
                let hint =
                    Suggestion.closest(to: first, in: Array(commands.keys)).map { "; did you mean '\($0)'?" }
                    ?? ""
                let error =
                    first.hasPrefix("-")
                    ? UsageError(command: "", message: "unknown option '\(first)'\(hint)")
                    : UsageError(command: "", message: "unknown command '\(first)'\(hint)")
                error.lines.forEach(console.printError)
                return .usage
            }
            command = named
        }
        let parsed: Arguments
        do {
            parsed = try Arguments(
                parsing: rest, command: command.name, options: command.options,
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
