import Testing
@testable import RolodeckCLI

/// `--help`, the manual page and the completion scripts are written from the same command and
/// option definitions; these tests check that each of them names every command and option.
@Suite struct ManualTests {
    /// Every command, with each option's long and short name.
    static var namesByCommand: [(command: String, options: [String])] {
        Rolodeck.commandList.map { command in
            (command.name, command.allOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) })
        }
    }

    @Test func topLevelHelpListsEveryCommandAndOption() {
        let help = ArgumentTests.run(["--help"]).out
        for command in Rolodeck.commandList {
            #expect(help.contains("\n  \(command.name) "), "help lacks \(command.name)")
            #expect(help.contains(command.brief))
        }
        for option in Rolodeck.globalOptions {
            #expect(help.contains(option.name) && help.contains(option.short!))
        }
    }

    @Test(arguments: Rolodeck.commandList.map(\.name))
    func commandHelpListsEveryOption(_ name: String) {
        let result = ArgumentTests.run([name, "--help"])
        #expect(result.status == .success)
        let options = Self.namesByCommand.first { $0.command == name }!.options
        for option in options {
            #expect(result.out.contains(option), "\(name) --help lacks \(option)")
        }
    }

    @Test func manualDescribesEveryCommandAndOption() {
        let page = ManPage.roff()
        #expect(page.hasPrefix(".TH \"ROLODECK\" \"1\""))
        for (command, options) in Self.namesByCommand {
            let heading = page.split(separator: "\n").first { $0.hasPrefix(".SS \"rolodeck \(command)") }
            #expect(heading != nil, "the manual has no section for \(command)")
            // The options of a command follow its heading, up to the next one.
            let section = page.components(separatedBy: ".SS \"rolodeck \(command)")[1]
                .components(separatedBy: "\n.SS ")[0].components(separatedBy: "\n.SH ")[0]
            for option in options {
                #expect(
                    section.contains("\\fB" + option.replacing("-", with: "\\-") + "\\fR"),
                    "the manual's \(command) lacks \(option)")
            }
        }
        for option in Rolodeck.globalOptions {
            #expect(page.contains("\\fB" + option.name.replacing("-", with: "\\-") + "\\fR"))
        }
    }

    @Test func roffEscapesWhatWouldBeRequests() {
        let page = ManPage.roff()
        // Every line that starts with a dot is a request the page meant; text never does.
        let requests = Set(
            page.split(separator: "\n").filter { $0.hasPrefix(".") }.map { $0.prefix { $0 != " " } })
        #expect(requests.isSubset(of: [".TH", ".SH", ".SS", ".TP", ".PP", ".B", ".I", ".RI", ".BR", ".br"]))
        #expect(!page.contains("--"), "hyphens are written as \\- in roff")
    }

    @Test func bashCompletionOffersEveryCommandAndOption() throws {
        let script = try #require(Completions.script(for: "bash"))
        #expect(script.contains("complete -F _rolodeck rolodeck"))
        for (command, options) in Self.namesByCommand {
            let branch = try #require(
                script.components(separatedBy: "\n    \(command))\n").dropFirst().first?
                    .components(separatedBy: "\n        ;;\n").first,
                "no bash branch for \(command)")
            for option in options {
                #expect(branch.contains(option), "bash's \(command) lacks \(option)")
            }
        }
    }

    @Test func zshCompletionOffersEveryCommandAndOption() throws {
        let script = try #require(Completions.script(for: "zsh"))
        #expect(script.hasPrefix("#compdef rolodeck\n"))
        for (command, options) in Self.namesByCommand {
            #expect(script.contains("'\(command):"), "zsh's command list lacks \(command)")
            let branch = try #require(
                script.components(separatedBy: "\n        \(command))\n").dropFirst().first?
                    .components(separatedBy: "\n            ;;\n").first,
                "no zsh branch for \(command)")
            for option in options {
                #expect(branch.contains(")\(option)"), "zsh's \(command) lacks \(option)")
            }
        }
    }

    @Test func fishCompletionOffersEveryCommandAndOption() throws {
        let script = try #require(Completions.script(for: "fish"))
        let lines = script.split(separator: "\n")
        for (command, options) in Self.namesByCommand {
            #expect(lines.contains { $0.hasPrefix("complete -c rolodeck -n __fish_use_subcommand -a \(command) ") })
            let mine = lines.filter { $0.contains("'__fish_seen_subcommand_from \(command)'") }
            for option in options {
                let flag = option.hasPrefix("--") ? "-l \(option.dropFirst(2))" : "-s \(option.dropFirst())"
                #expect(mine.contains { $0.contains(" \(flag) ") }, "fish's \(command) lacks \(option)")
            }
        }
    }

    @Test func completionCommandRefusesAnUnknownShell() {
        let result = ArgumentTests.run(["completion", "bsah"])
        #expect(result.status == .usage)
        #expect(result.err.contains("no completion for 'bsah'; did you mean 'bash'?"))
        #expect(ArgumentTests.run(["completion"]).status == .usage)
        #expect(ArgumentTests.run(["completion", "fish"]).out == Completions.fish())
    }

    @Test func versionNamesTheSourceRevisionWhenThereIsOne() {
        let line = ArgumentTests.run(["--version"]).out
        #expect(line == Rolodeck.versionLine + "\n")
        #expect(line.hasPrefix("rolodeck \(Rolodeck.version)"))
        if let revision = sourceRevision {
            #expect(line.contains("(\(revision))"))
        }
    }
}
