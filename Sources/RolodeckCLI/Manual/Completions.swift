/// The shell completion scripts `rolodeck completion` prints, written from the same command and
/// option definitions the command line is parsed with.
enum Completions {
    /// The shells there is a script for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for a shell named in `shells`.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash()
        case "zsh": zsh()
        case "fish": fish()
        default: nil
        }
    }

    private static var commands: [Command] { Rolodeck.commandList }

    // MARK: bash

    /// For bash's programmable completion (`complete -F`).
    static func bash() -> String {
        func words(_ list: [String]) -> String { list.joined(separator: " ") }
        func reply(_ completion: ValueCompletion, indent: String) -> String {
            switch completion {
            case .nothing: return "\(indent)return\n"
            case .folder: return "\(indent)_rolodeck_reply -d\n\(indent)return\n"
            case .words(let list): return "\(indent)_rolodeck_reply -W \"\(words(list))\"\n\(indent)return\n"
            }
        }
        var cases = ""
        for command in commands {
            cases += "    \(command.name))\n"
            let valued = command.allOptions.filter { $0.value != nil }
            if !valued.isEmpty {
                cases += "        case $previous in\n"
                for option in valued {
                    let names = [option.name, option.short].compactMap { $0 }.joined(separator: "|")
                    cases += "        \(names))\n" + reply(option.completes, indent: "            ") + "            ;;\n"
                }
                cases += "        esac\n"
            }
            let names = command.allOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
            cases += "        if [[ $current == -* ]]; then\n"
            cases += "            _rolodeck_reply -W \"\(words(names))\"\n"
            cases += "            return\n"
            cases += "        fi\n"
            if !command.positionals.isEmpty {
                cases += reply(command.completesPositionals, indent: "        ")
            }
            cases += "        ;;\n"
        }
        let first = commands.map(\.name) + Rolodeck.globalOptions.flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
        return """
            # bash completion for rolodeck; written by `rolodeck completion bash` (rolodeck \(Rolodeck.version)).

            # Sets COMPREPLY to what compgen offers for the word being completed.
            _rolodeck_reply() {
                if [[ $1 == -d ]]; then
                    compopt -o filenames 2>/dev/null
                fi
                mapfile -t COMPREPLY < <(compgen "$@" -- "$current")
            }

            _rolodeck() {
                local current=${COMP_WORDS[COMP_CWORD]}
                local previous=
                if ((COMP_CWORD > 1)); then
                    previous=${COMP_WORDS[COMP_CWORD - 1]}
                fi
                # `--out=DIR`: bash splits the word at the '=', so the option is two words back.
                if [[ $current == = ]]; then
                    previous=${COMP_WORDS[COMP_CWORD - 1]}
                    current=
                elif [[ $previous == = ]] && ((COMP_CWORD > 2)); then
                    previous=${COMP_WORDS[COMP_CWORD - 2]}
                fi
                COMPREPLY=()
                if ((COMP_CWORD == 1)); then
                    _rolodeck_reply -W "\(words(first))"
                    return
                fi
                case ${COMP_WORDS[1]} in
            \(cases)    esac
            }

            complete -F _rolodeck rolodeck

            """
    }

    // MARK: zsh

    /// For zsh's completion system (`#compdef`), as `_rolodeck` on `fpath`.
    static func zsh() -> String {
        func quoted(_ text: String) -> String { "'" + text.replacing("'", with: "'\\''") + "'" }
        func explanation(_ text: String) -> String {
            text.replacing("\\", with: "\\\\").replacing("[", with: "\\[").replacing("]", with: "\\]")
        }
        func action(_ completion: ValueCompletion) -> String {
            switch completion {
            case .nothing: " "
            case .folder: "_files -/"
            case .words(let list): "(" + list.joined(separator: " ") + ")"
            }
        }
        func specs(_ option: OptionSpec) -> [String] {
            let names = [option.short, option.name].compactMap { $0 }
            let exclusion = option.name == "--help" || option.name == "--version"
                ? "(- *)" : "(" + names.joined(separator: " ") + ")"
            return names.map { name in
                var spec = exclusion + name
                if option.value != nil { spec += name.hasPrefix("--") ? "=" : "+" }
                spec += "[" + explanation(option.help) + "]"
                if let value = option.value { spec += ":" + value + ":" + action(option.completes) }
                return quoted(spec)
            }
        }
        var cases = ""
        for command in commands {
            var lines = command.allOptions.flatMap(specs)
            if let positional = command.positionals.first {
                lines.append(quoted("1:" + positional + ":" + action(command.completesPositionals)))
            }
            cases += "        \(command.name))\n"
            cases += "            _arguments -s \\\n"
            cases += lines.map { "                " + $0 }.joined(separator: " \\\n") + "\n"
            cases += "            ;;\n"
        }
        let list = commands.map { "        " + quoted($0.name + ":" + $0.brief) }.joined(separator: "\n")
        let global = Rolodeck.globalOptions.flatMap(specs).map { "        " + $0 + " \\\n" }.joined()
        return """
            #compdef rolodeck
            # zsh completion for rolodeck; written by `rolodeck completion zsh` (rolodeck \(Rolodeck.version)).

            local context state state_descr line
            typeset -A opt_args

            _arguments -C \\
            \(global)        '1:command:->command' \\
                    '*:: :->argument'

            case $state in
            command)
                local -a commands
                commands=(
            \(list)
                )
                _describe -t commands 'rolodeck command' commands
                ;;
            argument)
                case $words[1] in
            \(cases)    esac
                ;;
            esac

            """
    }

    // MARK: fish

    /// For fish (`complete -c rolodeck …`), as `rolodeck.fish` in a completions folder.
    static func fish() -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
        }
        func line(_ condition: String, _ option: OptionSpec) -> String {
            var parts = ["complete -c rolodeck -n", quoted(condition)]
            if let short = option.short { parts += ["-s", String(short.dropFirst())] }
            parts += ["-l", String(option.name.dropFirst(2))]
            if option.value != nil {
                parts.append("-x")
                switch option.completes {
                case .nothing: break
                case .folder: parts += ["-a", quoted("(__fish_complete_directories (commandline -ct))")]
                case .words(let list): parts += ["-a", quoted(list.joined(separator: " "))]
                }
            }
            parts += ["-d", quoted(option.help)]
            return parts.joined(separator: " ")
        }
        var lines = [
            "# fish completion for rolodeck; written by `rolodeck completion fish` (rolodeck \(Rolodeck.version)).",
            "",
            "complete -c rolodeck -f",
        ]
        lines += Rolodeck.globalOptions.map { line("__fish_use_subcommand", $0) }
        for command in commands {
            lines.append(
                "complete -c rolodeck -n __fish_use_subcommand -a \(command.name) -d \(quoted(command.brief))")
        }
        for command in commands {
            let condition = "__fish_seen_subcommand_from \(command.name)"
            lines += command.allOptions.map { line(condition, $0) }
            switch command.completesPositionals {
            case .nothing: break
            case .folder:
                lines.append(
                    "complete -c rolodeck -n \(quoted(condition)) -a "
                        + quoted("(__fish_complete_directories (commandline -ct))"))
            case .words(let list):
                lines.append("complete -c rolodeck -n \(quoted(condition)) -a \(quoted(list.joined(separator: " ")))")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
