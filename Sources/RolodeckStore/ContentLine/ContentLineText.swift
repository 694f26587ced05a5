import RolodeckCore

/// Reads content-line values as text for one file and collects the warnings of whoever reads its
/// records' fields; a bad charset or quoted-printable run is reported once per kind of problem
/// rather than once per line it spoils.
struct ContentLineText {
    /// The warnings so far.
    var diagnostics: [Diagnostic] = []
    private var reported: [ContentLineIssue.Reason] = []

    /// Whether a problem reported once a file was reported: another piece of the file may have
    /// reported it first.
    var reportedOnceAFile: Bool { !reported.isEmpty }

    /// Calls `body` with a value's text, escapes still in place: its bytes themselves when they
    /// are UTF-8 (most values), else the text its `CHARSET` (or windows-1252) reads them as.
    mutating func reading<Result>(_ line: ContentLine, _ body: (TextBytes) -> Result) -> Result {
        if line.encoding == .quotedPrintable {
            return QuotedPrintable.decode(line.value).withUnsafeBufferPointer { reading($0, of: line, body) }
        }
        return line.value.withUnsafeBufferPointer { reading($0, of: line, body) }
    }

    private mutating func reading<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, of line: ContentLine, _ body: (TextBytes) -> Result
    ) -> Result {
        let (decoded, problem) = TextDecoding.decode(bytes, charset: line.value(of: "CHARSET"))
        if let problem, !reported.contains(problem) {
            reported.append(problem)
            diagnostics.append(ContentLineIssue.warning(problem, at: line.valueLocation))
        }
        switch decoded {
        case .utf8(let isASCII):
            return body(TextBytes(bytes, isASCII: isASCII))
        case .text(let text):
            return TextBytes.reading(text, body)
        }
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
        lineText.reading(line, TextValue.unescaped)
    }

    /// A structured value's components (`N`, `ADR`), each a list of values when `lists` is true.
    mutating func components(_ line: ContentLine, lists: Bool) -> TextComponents {
        lineText.reading(line) { TextValue.components($0, lists: lists) }
    }

    /// A list value's items (`CATEGORIES:Work,Tennis`), each unescaped and trimmed.
    mutating func listItems(_ line: ContentLine) -> [String] {
        lineText.reading(line) { TextValue.split($0, at: UInt8(ascii: ",")) }.map(\.trimmingWhitespace)
    }

    /// Records a warning.
    mutating func report(_ reason: Issue.Reason, at location: SourceLocation) {
        lineText.diagnostics.append(Issue.warning(reason, at: location))
    }
}
