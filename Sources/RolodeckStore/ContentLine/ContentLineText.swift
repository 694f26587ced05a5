import RolodeckCore

/// Reads content-line values as text for one card or calendar, warning once per kind of
/// problem (a bad charset or quoted-printable run) rather than once per line it spoils.
struct ContentLineText {
    private var reported: [ContentLineIssue.Reason] = []

    /// A value as text with its escapes decoded.
    mutating func unescaped(_ line: ContentLine, diagnostics: inout [Diagnostic]) -> String {
        TextValue.unescaped(raw(line, diagnostics: &diagnostics))
    }

    /// A value as text, escapes still in place (for values split at `;` or `,` first).
    mutating func raw(_ line: ContentLine, diagnostics: inout [Diagnostic]) -> String {
        let (text, problem) = line.text()
        if let problem, !reported.contains(problem) {
            reported.append(problem)
            diagnostics.append(Diagnostic(.warning, at: line.valueLocation, ContentLineIssue(problem).message))
        }
        return text
    }
}
