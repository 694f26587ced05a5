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

    /// Keeps `value` alive until the process ends, so that the exit reclaims its memory at
    /// once rather than its deinitializers one object at a time.
    static func leaveToExit(_ value: Any) {
        final class Kept {
            let value: Any
            init(_ value: Any) { self.value = value }
        }
        _ = Unmanaged.passRetained(Kept(value))
    }

    /// Runs the process's command line and exits with its status.
    public static func main() -> Never {
        endsWithCommand.store(true, ordering: .relaxed)
        // Past a file-size limit (`ulimit -f`), a write fails with EFBIG and is reported as a full
        // disk is, where the signal's default ended the process with a core dump part-way through
        // a publish.
        signal(SIGXFSZ, SIG_IGN)
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
            return .text(versionLine)
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

    /// Every command, in the order help, the manual and the completions list them.
    static let commandList: [Command] = [
        BuildCommand.command, CheckCommand.command, InitCommand.command, ServeCommand.command,
        WatchCommand.command, CompletionCommand.command, ManpageCommand.command,
    ]

    /// Every command by name.
    static let commands: [String: Command] = Dictionary(
        uniqueKeysWithValues: commandList.map { ($0.name, $0) })

    /// The options `rolodeck` takes before a command.
    static let globalOptions: [OptionSpec] = [
        OptionSpec(name: "--help", short: "-h", value: nil, help: "Show help (also: rolodeck <command> --help)"),
        OptionSpec(name: "--version", short: "-V", value: nil, help: "Show the version and the source revision"),
    ]

    /// What the tool does, in one line: help's first line and the manual's NAME.
    static let purpose = "publish a contacts store as a browsable, searchable website"

    /// The exit statuses, for help and the manual.
    static let exitStatuses: [(ExitCode, String)] = [
        (.success, "success"), (.failure, "bad input or failed build"), (.usage, "wrong command line"),
        (.interrupted, "build stopped by Ctrl-C (SIGINT)"), (.terminated, "build stopped by SIGTERM"),
        (.hungUp, "build stopped by SIGHUP (its terminal closed)"),
    ]

    /// `--version`'s line: the version and, when the binary was built from a checkout, the
    /// revision (`git describe`).
    static var versionLine: String {
        "rolodeck \(version)" + (sourceRevision.map { " (\($0))" } ?? "")
    }

    /// `rolodeck --help`.
    static var help: String {
        var text = "rolodeck \(version): \(purpose)\n\nUsage: rolodeck <command> [options]\n\nCommands:\n"
        text += HelpTable.rows(commandList.map { ($0.name, $0.brief) })
        text += "\nOptions:\n" + HelpTable.rows(globalOptions.map(\.helpRow))
        text += "\nExit status: "
            + exitStatuses.map { "\($0.0.rawValue) \($0.1)" }.joined(separator: ", ") + "."
        return text
    }
}

/// One command: its name, options, help and what it does.
struct Command: Sendable {
    var name: String
    /// What the command does, in a few words: `rolodeck --help`'s list.
    var brief: String
    var summary: String
    var usage: String = ""
    var positionals: [String] = []
    /// What a shell offers to complete the positional arguments with.
    var completesPositionals: ValueCompletion = .nothing
    var options: [OptionSpec]
    var details: String = ""
    var run: @Sendable (Arguments, [String: String], Console) -> ExitCode

    /// The command's options and `--help`.
    var allOptions: [OptionSpec] { options + [.help] }

    /// How the command is written: `rolodeck build [--site DIR] …`.
    var synopsis: String { "rolodeck \(name)" + (usage.isEmpty ? "" : " " + usage) }

    /// The command's `--help` text.
    var help: String {
        var text = "\(summary)\n\nUsage: \(synopsis)\n\nOptions:\n"
        text += HelpTable.rows(allOptions.map(\.helpRow))
        if !details.isEmpty { text += "\n" + details + "\n" }
        return String(text.dropLast())
    }
}

extension OptionSpec {
    /// The option's names and value as help shows them (`-o, --out DIR`), and its help line.
    var helpRow: (String, String) {
        let names = [short, name].compactMap { $0 }.joined(separator: ", ")
        return (names + (value.map { " " + $0 } ?? ""), help)
    }
}

/// Two columns of help text: names, then what they mean, lined up.
enum HelpTable {
    /// The rows, indented by two spaces, each ending with a newline.
    static func rows(_ rows: [(String, String)]) -> String {
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { names, help in
            "  " + names + String(repeating: " ", count: width - names.count + 3) + help + "\n"
        }.joined()
    }
}
