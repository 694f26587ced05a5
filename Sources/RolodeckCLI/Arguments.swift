import RolodeckCore

/// An option a command accepts: a flag (`--quiet`) or an option with a value (`--out DIR`).
struct OptionSpec: Sendable {
    /// The long name, with its dashes: `--out`.
    var name: String
    /// A one-letter alias, with its dash: `-o`.
    var short: String?
    /// The placeholder for the value (`DIR`); nil for a flag.
    var value: String?
    /// One line of help.
    var help: String
    /// What a shell offers to complete the value with.
    var completes: ValueCompletion = .nothing
}

/// What a shell's completion offers for an option's value or a positional argument; the
/// completion scripts (`rolodeck completion`) are written from it.
enum ValueCompletion: Sendable, Equatable {
    /// Nothing: the user types it (an address, a number).
    case nothing
    /// A folder's name.
    case folder
    /// One of these words.
    case words([String])
}

extension OptionSpec {
    /// `--site DIR`, which every command that reads a site takes.
    static let site = OptionSpec(
        name: "--site", short: "-s", value: "DIR", help: "The site folder (default: the current folder)",
        completes: .folder)
    /// `--out DIR`, for the commands that write the site.
    static let out = OptionSpec(
        name: "--out", short: "-o", value: "DIR",
        help: "Where the site is written (default: the config's output, _site)", completes: .folder)
    /// `--help`, which every command takes.
    static let help = OptionSpec(name: "--help", short: "-h", value: nil, help: "Show this help")
    /// `--poll`, for the commands that watch the site.
    static let poll = OptionSpec(
        name: "--poll", short: nil, value: nil,
        help: "Look for changes every second instead of using inotify (network file systems)")
}

/// What a command line says, once checked against the command's options.
struct Arguments {
    /// The options given with a value, by long name.
    var values: [String: String] = [:]
    /// The flags given, by long name.
    var flags: Set<String> = []
    /// The arguments that are not options, in order.
    var positionals: [String] = []

    /// The value of an option, by its long name.
    func value(_ name: String) -> String? { values[name] }

    /// Whether a flag was given, by its long name.
    func has(_ name: String) -> Bool { flags.contains(name) }
}

/// A mistake on the command line; printed with a one-line hint, exit status 64.
struct UsageError: Error, Equatable {
    /// The command the line was for; "" before one is known.
    var command: String
    /// What is wrong.
    var message: String

    /// The two lines printed: the mistake and where to read the usage.
    var lines: [String] {
        [
            "rolodeck\(command.isEmpty ? "" : " " + command): \(message)",
            "Run 'rolodeck\(command.isEmpty ? "" : " " + command) --help' for usage.",
        ]
    }
}

extension Arguments {
    /// Parses `arguments` against `options`; `--help` is always accepted. `--name=value` and
    /// `--name value` are both understood, and `--` ends the options.
    init(parsing arguments: [String], command: String, options: [OptionSpec], positionals maximum: Int)
        throws(UsageError)
    {
        var index = 0
        var onlyPositionals = false
        let all = options + [.help]
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                guard positionals.count < maximum else {
                    throw UsageError(command: command, message: "unexpected argument '\(argument)'")
                }
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            let name = parts[0]
            guard let option = all.first(where: { $0.name == name || $0.short == name }) else {
                let hint =
                    Suggestion.closest(to: name, in: all.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
                throw UsageError(command: command, message: "unknown option '\(name)'\(hint)")
            }
            if option.value == nil {
                guard parts.count == 1 else {
                    throw UsageError(command: command, message: "option '\(option.name)' takes no value")
                }
                flags.insert(option.name)
                continue
            }
            let value: String
            if parts.count == 2 {
                value = parts[1]
            } else if index < arguments.count, !arguments[index].hasPrefix("-") || arguments[index] == "-" {
                value = arguments[index]
                index += 1
            } else {
                throw UsageError(
                    command: command, message: "option '\(option.name)' needs a value (\(option.value!))")
            }
            guard !value.isEmpty else {
                throw UsageError(
                    command: command, message: "option '\(option.name)' needs a value (\(option.value!))")
            }
            values[option.name] = value
        }
    }
}
