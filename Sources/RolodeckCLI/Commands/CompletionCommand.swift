import RolodeckCore

/// `rolodeck completion SHELL`: the completion script for bash, zsh or fish.
enum CompletionCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "completion",
        brief: "Print the completion script for bash, zsh or fish",
        summary: "Print the shell completion script for bash, zsh or fish on standard output.",
        usage: "bash|zsh|fish",
        positionals: ["SHELL"],
        completesPositionals: .words(Completions.shells),
        options: [],
        details: """
            'make install' installs all three. To install one by hand for yourself:
              rolodeck completion bash > ~/.local/share/bash-completion/completions/rolodeck
              rolodeck completion zsh > ~/.zfunc/_rolodeck    (with ~/.zfunc on fpath)
              rolodeck completion fish > ~/.config/fish/completions/rolodeck.fish
            """,
        run: run)

    /// Runs `rolodeck completion` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        guard let shell = arguments.positionals.first else {
            UsageError(command: "completion", message: "missing shell: rolodeck completion bash|zsh|fish")
                .lines.forEach(console.printError)
            return .usage
        }
        guard let script = Completions.script(for: shell) else {
            let hint = Suggestion.closest(to: shell, in: Completions.shells).map { "; did you mean '\($0)'?" } ?? ""
            UsageError(
                command: "completion",
                message: "no completion for '\(shell)'\(hint); there is one for bash, zsh and fish"
            )
            .lines.forEach(console.printError)
            return .usage
        }
        console.writeToOutput(script)
        return .success
    }
}
