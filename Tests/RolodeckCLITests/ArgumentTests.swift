import Testing
@testable import RolodeckCLI

@Suite struct ArgumentTests {
    /// Runs the command line in-process and captures what it prints.
    static func run(_ arguments: [String]) -> (status: ExitCode, out: String, err: String) {
        final class Buffer: @unchecked Sendable { var out = ""; var err = "" }
        let buffer = Buffer()
        let console = Console(out: { buffer.out += $0 }, error: { buffer.err += $0 })
        let status = Rolodeck.run(arguments, environment: [:], console: console)
        return (status, buffer.out, buffer.err)
    }

    struct UsageCase: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var stderr: String
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["build", "--frobnicate"], stderr: """
            rolodeck build: unknown option '--frobnicate'
            Run 'rolodeck build --help' for usage.

            """),
        UsageCase(arguments: ["build", "--quite"], stderr: """
            rolodeck build: unknown option '--quite'; did you mean '--quiet'?
            Run 'rolodeck build --help' for usage.

            """),
        UsageCase(arguments: ["build", "--out"], stderr: """
            rolodeck build: option '--out' needs a value (DIR)
            Run 'rolodeck build --help' for usage.

            """),
        UsageCase(arguments: ["build", "--site="], stderr: """
            rolodeck build: option '--site' needs a value (DIR)
            Run 'rolodeck build --help' for usage.

            """),
        UsageCase(arguments: ["build", "--quiet=yes"], stderr: """
            rolodeck build: option '--quiet' takes no value
            Run 'rolodeck build --help' for usage.

            """),
        UsageCase(arguments: ["build", "extra"], stderr: """
            rolodeck build: unexpected argument 'extra'
            Run 'rolodeck build --help' for usage.

            """),
        UsageCase(arguments: ["biuld"], stderr: """
            rolodeck: unknown command 'biuld'; did you mean 'build'?
            Run 'rolodeck --help' for usage.

            """),
        UsageCase(arguments: ["--verbose"], stderr: """
            rolodeck: unknown option '--verbose'
            Run 'rolodeck --help' for usage.

            """),
        UsageCase(arguments: ["init"], stderr: """
            rolodeck init: missing folder: rolodeck init DIR
            Run 'rolodeck init --help' for usage.

            """),
        UsageCase(arguments: ["check", "a", "b"], stderr: """
            rolodeck check: unexpected argument 'a'
            Run 'rolodeck check --help' for usage.

            """),
    ]

    @Test(arguments: usageCases)
    func usageErrorsExit64WithAHint(_ testCase: UsageCase) {
        let result = Self.run(testCase.arguments)
        #expect(result.status == .usage)
        #expect(result.err == testCase.stderr)
        #expect(result.out.isEmpty)
    }

    @Test(arguments: ["build", "check", "init"])
    func everyCommandHasHelp(_ command: String) {
        let result = Self.run([command, "--help"])
        #expect(result.status == .success)
        #expect(result.out.contains("Usage: rolodeck \(command)"))
        #expect(result.out.contains("-h, --help"))
        #expect(result.err.isEmpty)
    }

    @Test func versionAndTopLevelHelp() {
        #expect(Self.run(["--version"]).out.hasPrefix("rolodeck \(Rolodeck.version)"))
        let help = Self.run(["--help"])
        #expect(help.status == .success)
        for command in ["build", "check", "init"] {
            #expect(help.out.contains("  \(command) "))
        }
        #expect(Self.run(["help", "build"]).out.hasPrefix("Build the site"))
    }

    @Test func optionsAcceptBothSpellings() throws {
        let options = BuildCommand.command.options
        let spaced = try Arguments(parsing: ["--site", "a", "-o", "b", "-q"], command: "build", options: options, positionals: 0)
        let joined = try Arguments(parsing: ["--site=a", "--out=b", "--quiet"], command: "build", options: options, positionals: 0)
        for parsed in [spaced, joined] {
            #expect(parsed.value("--site") == "a")
            #expect(parsed.value("--out") == "b")
            #expect(parsed.has("--quiet"))
        }
    }
}
