/// One instruction of a compiled template.
enum Node: Sendable {
    /// Literal text, with the offsets where source lines start (for partial indentation).
    case text(TextRun)
    /// A source line starts here, before a tag: indentation goes here.
    case lineStart
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case variable(Name, escaped: Bool)
    /// `{{#name}}…{{/name}}`.
    case section(Name, [Node])
    /// `{{^name}}…{{/name}}`.
    case invertedSection(Name, [Node])
    /// `{{>name}}`.
    case partial(PartialCall)
    /// `{{<name}}…{{/name}}`.
    case parent(ParentCall)
    /// `{{$name}}…{{/name}}` outside a parent: a slot with default content.
    case block(Block)
}

/// A dotted name, split once at compile time; no components means the implicit iterator `.`.
struct Name: Sendable {
    /// The dot-separated parts.
    let components: [String]

    /// Splits `string` at dots; `.` becomes the implicit iterator.
    init(_ string: String) {
        components = string == "." ? [] : string.split(separator: ".").map(String.init)
    }
}

/// Text to append, and where its source lines start; a class so a node copy is one retain.
final class TextRun: Sendable {
    /// UTF-8 bytes of the text.
    let bytes: [UInt8]
    /// Offsets into `bytes` where a source line starts; 0 only when the run starts a line.
    let lineStarts: [Int]

    /// Creates a text run.
    init(bytes: [UInt8], lineStarts: [Int]) {
        self.bytes = bytes
        self.lineStarts = lineStarts
    }
}
