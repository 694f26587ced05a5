/// A template mistake or rendering failure, located in a template by name, line and column.
public struct MustacheError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The kinds of section-like tags that must be closed with `{{/name}}`.
    public enum SectionKind: Equatable, Sendable {
        /// A section, `{{#name}}`.
        case section
        /// An inverted section, `{{^name}}`.
        case invertedSection
        /// A parent (inheritance) tag, `{{<name}}`.
        case parent
        /// A block tag, `{{$name}}`.
        case block
    }

    /// What went wrong; `message` holds the wording.
    public enum Reason: Equatable, Sendable {
        /// A section-like tag that is never closed.
        case unclosedSection(SectionKind, name: String)
        /// A closing tag whose name differs from the innermost open section.
        case mismatchedClosingTag(expected: String, found: String)
        /// A closing tag while no section is open.
        case unexpectedClosingTag(name: String)
        /// A tag whose closing delimiter never comes.
        case unclosedTag(expectedDelimiter: String)
        /// A tag with nothing but whitespace between its delimiters.
        case emptyTagName
        /// A tag name containing whitespace or an empty dotted part.
        case invalidTagName(String)
        /// A set-delimiter tag that does not end with `=`.
        case delimiterTagMissingEquals
        /// A set-delimiter tag without exactly two delimiters.
        case wrongDelimiterCount(Int)
        /// A new delimiter that contains `=`.
        case invalidDelimiter(String)
        /// A partial that does not exist (strict mode); `dynamicName` is set for `{{>*name}}`.
        case missingPartial(String, dynamicName: String?)
        /// A parent template that does not exist (strict mode); `dynamicName` is set for `{{<*name}}`.
        case missingParent(String, dynamicName: String?)
        /// A dynamic name that resolved to no value (strict mode).
        case unresolvedDynamicName(String)
        /// `render` was asked for a template the library does not hold.
        case templateNotFound(String)
        /// Partials or parents nested deeper than the limit, usually endless recursion.
        case recursionLimitExceeded(Int)
    }

    /// The name of the template the error is in.
    public let templateName: String
    /// The 1-based line of the error, or 0 when it has no position.
    public let line: Int
    /// The 1-based column in Characters of the line, or 0 when it has no position.
    public let column: Int
    /// What went wrong.
    public let reason: Reason

    /// Creates an error at a position in a template.
    public init(templateName: String, line: Int, column: Int, reason: Reason) {
        self.templateName = templateName
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// The human-readable explanation, without the location.
    public var message: String {
        switch reason {
        case .unclosedSection(let kind, let name):
            let what: String
            switch kind {
            case .section: what = "section {{#\(name)}}"
            case .invertedSection: what = "inverted section {{^\(name)}}"
            case .parent: what = "parent {{<\(name)}}"
            case .block: what = "block {{$\(name)}}"
            }
            return "unclosed \(what): no {{/\(name)}} follows"
        case .mismatchedClosingTag(let expected, let found):
            return "closing tag {{/\(found)}} does not match the open section '\(expected)'; "
                + "expected {{/\(expected)}}"
        case .unexpectedClosingTag(let name):
            return "closing tag {{/\(name)}} has no open section to close"
        case .unclosedTag(let delimiter):
            return "unclosed tag: no '\(delimiter)' ends the tag that starts here"
        case .emptyTagName:
            return "empty tag: the tag has no name"
        case .invalidTagName(let name):
            return "invalid tag name '\(name)': names cannot contain whitespace or empty dotted parts"
        case .delimiterTagMissingEquals:
            return "invalid set-delimiter tag: it must end with '=', as in {{=<% %>=}}"
        case .wrongDelimiterCount(let count):
            return "invalid set-delimiter tag: expected 2 delimiters separated by whitespace, found \(count)"
        case .invalidDelimiter(let delimiter):
            return "invalid delimiter '\(delimiter)': delimiters cannot contain '='"
        case .missingPartial(let name, let dynamicName):
            let via = dynamicName.map { " (name taken from '*\($0)')" } ?? ""
            return "partial '\(name)' not found\(via)"
        case .missingParent(let name, let dynamicName):
            let via = dynamicName.map { " (name taken from '*\($0)')" } ?? ""
            return "parent template '\(name)' not found\(via)"
        case .unresolvedDynamicName(let name):
            return "dynamic name '*\(name)' does not resolve to a template name"
        case .templateNotFound(let name):
            return "no template named '\(name)'"
        case .recursionLimitExceeded(let limit):
            return "partials nested more than \(limit) levels deep; does a partial include itself endlessly?"
        }
    }

    /// `name:line:column: error: message`, or `name: error: message` without a position.
    public var description: String {
        let place = line > 0 ? "\(templateName):\(line):\(column)" : templateName
        return "\(place): error: \(message)"
    }
}
