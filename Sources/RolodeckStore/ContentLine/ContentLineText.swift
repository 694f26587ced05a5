import RolodeckCore

/// Reads content-line values as text for one file and collects the warnings of whoever reads its
/// records' fields; a bad charset or quoted-printable run is reported once per kind of problem
/// rather than once per line it spoils.
struct ContentLineText {
    /// The warnings so far.
    var diagnostics: [Diagnostic] = []
    private var reported: [ContentLineIssue.Reason] = []

    /// A value as text with its escapes decoded.
    mutating func unescaped(_ line: ContentLine) -> String {
        TextValue.unescaped(raw(line))
    }

    /// A value as text, escapes still in place (for values split at `;` or `,` first).
    mutating func raw(_ line: ContentLine) -> String {
        let (text, problem) = line.text()
        if let problem, !reported.contains(problem) {
            reported.append(problem)
            diagnostics.append(ContentLineIssue.warning(problem, at: line.valueLocation))
        }
        return text
    }
}

/// What reads the fields of a file's cards or todos from their content lines: values as text
/// through one `ContentLineText`, and its own warnings in the same list.
protocol ContentLineFields {
    /// The issue the reader reports.
    associatedtype Issue: ReaderIssue

    /// Reads the values and holds the warnings.
    var lineText: ContentLineText { get set }
}

extension ContentLineFields {
    /// Problems found in the records read so far.
    var diagnostics: [Diagnostic] { lineText.diagnostics }

    /// A value as text with its escapes decoded.
    mutating func text(_ line: ContentLine) -> String {
        lineText.unescaped(line)
    }

    /// A value as text, escapes still in place.
    mutating func rawText(_ line: ContentLine) -> String {
        lineText.raw(line)
    }

    /// A list value's items (`CATEGORIES:Work,Tennis`), each unescaped and trimmed.
    mutating func listItems(_ line: ContentLine) -> [String] {
        TextValue.split(rawText(line), at: ",").map(\.trimmingWhitespace)
    }

    /// Records a warning.
    mutating func report(_ reason: Issue.Reason, at location: SourceLocation) {
        lineText.diagnostics.append(Issue.warning(reason, at: location))
    }
}
