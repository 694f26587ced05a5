/// The manual page, `rolodeck(1)`, in roff (man(7) macros), written from the same command and
/// option definitions the command line is parsed with.
enum ManPage {
    /// The whole page.
    static func roff() -> String {
        var page = Roff()
        page.macro("TH", "ROLODECK", "1", "", "rolodeck \(Rolodeck.version)", "User Commands")
        page.section("NAME")
        page.line("rolodeck \\- " + Roff.escape(Rolodeck.purpose))

        page.section("SYNOPSIS")
        page.line(".B rolodeck")
        page.line(".I command")
        page.line(".RI [ options ]")
        page.line(".br")
        page.line(".B rolodeck")
        page.line(".BR \(Roff.escape("--help")) \" | \" \(Roff.escape("--version"))")

        page.section("DESCRIPTION")
        for (index, paragraph) in ManualText.description.enumerated() {
            if index > 0 { page.line(".PP") }
            page.text(paragraph)
        }

        page.section("COMMANDS")
        for command in Rolodeck.commandList {
            page.line(".SS \(Roff.quoted(command.synopsis))")
            page.text(command.summary)
            if !command.details.isEmpty {
                page.line(".PP")
                page.text(command.details)
            }
            for option in command.allOptions { page.option(option) }
        }

        page.section("OPTIONS")
        page.text("Before a command:")
        for option in Rolodeck.globalOptions { page.option(option) }

        page.section("ENVIRONMENT")
        for (name, meaning) in ManualText.environment {
            page.line(".TP")
            page.line(".B \(name)")
            page.text(meaning)
        }

        page.section("FILES")
        for (path, meaning) in ManualText.files {
            page.line(".TP")
            page.line(".I \(Roff.quoted(path))")
            page.text(meaning)
        }

        page.section("EXIT STATUS")
        for (code, meaning) in Rolodeck.exitStatuses {
            page.line(".TP")
            page.line(".B \(code.rawValue)")
            page.text(meaning.prefix(1).uppercased() + meaning.dropFirst() + ".")
        }

        page.section("EXAMPLES")
        for (command, meaning) in ManualText.examples {
            page.line(".TP")
            page.line(".B \(Roff.quoted(command))")
            page.text(meaning)
        }

        page.section("SEE ALSO")
        page.text("The documentation in the docs/ folder of Rolodeck's source, and man(1) for reading this page.")
        return page.text
    }
}

/// roff text, built line by line, with the escaping man(7) needs.
private struct Roff {
    private(set) var text = ""

    /// A line as it is: a request or text already escaped.
    mutating func line(_ line: String) { text += line + "\n" }

    /// A request with quoted arguments.
    mutating func macro(_ name: String, _ arguments: String...) {
        line("." + name + arguments.map { " " + Roff.quoted($0) }.joined())
    }

    /// A section heading.
    mutating func section(_ title: String) { macro("SH", title) }

    /// Running text, escaped, one roff line per source line.
    mutating func text(_ paragraph: String) {
        for part in paragraph.split(separator: "\n", omittingEmptySubsequences: false) {
            line(Roff.escapeLine(String(part)))
        }
    }

    /// An option as a tagged paragraph: its names in bold, its value in italics, then its help.
    mutating func option(_ option: OptionSpec) {
        line(".TP")
        let names = [option.short, option.name].compactMap { $0 }.map { "\\fB" + Roff.escape($0) + "\\fR" }
        line(names.joined(separator: ", ") + (option.value.map { " \\fI" + Roff.escape($0) + "\\fR" } ?? ""))
        text(option.help)
    }

    /// Text with roff's special characters made literal: backslashes, and hyphens as the minus
    /// signs options are written with.
    static func escape(_ text: String) -> String {
        text.replacing("\\", with: "\\e").replacing("-", with: "\\-")
    }

    /// A text line that does not start a request (a leading dot or quote would).
    static func escapeLine(_ text: String) -> String {
        let escaped = escape(text)
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    /// An argument of a request, in double quotes.
    static func quoted(_ text: String) -> String {
        "\"" + escape(text).replacing("\"", with: "\\(dq") + "\""
    }
}
