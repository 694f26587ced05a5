/// The kinds of pieces the tokenizer splits a template into.
enum TokenKind: Equatable {
    case text
    case variable(escaped: Bool)
    case section
    case invertedSection
    case close
    case comment
    case setDelimiters
    case partial
    case parent
    case block

    /// Whether a tag of this kind may stand alone on a line and so remove that line.
    var canStandAlone: Bool {
        switch self {
        case .text, .variable: return false
        default: return true
        }
    }
}

/// One piece of template source: a run of text within one line, or a tag.
struct Token {
    /// What the piece is.
    var kind: TokenKind
    /// Byte offset of the first byte (the opening delimiter for tags).
    var start: Int
    /// Byte offset just past the last byte.
    var end: Int
    /// The tag's name: trimmed content after the sigil; dynamic names keep their `*`.
    var name = ""
    /// Whether a partial or parent name is dynamic (`{{>*name}}`).
    var isDynamic = false
    /// For a closing tag: the kind of the tag it closes, when the names match.
    var closes: TokenKind?
    /// Whether the tag stands alone on its line.
    var isStandalone = false
    /// Whitespace before a standalone tag on its line.
    var indentation: [UInt8] = []
    /// Whether the piece was removed as part of a standalone line.
    var isDropped = false
}

/// A compile error found before locations are known; `offset` is a byte offset in the source.
struct ParseIssue: Error {
    /// What went wrong.
    var reason: MustacheError.Reason
    /// Where it went wrong, as a byte offset into the template source.
    var offset: Int
}
