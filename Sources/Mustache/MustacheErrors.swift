/// Every mistake found while compiling a template library, sorted by template, line and column.
public struct MustacheErrors: Error, Equatable, Sendable, CustomStringConvertible {
    /// The individual errors; never empty when thrown.
    public let errors: [MustacheError]

    /// Creates the list, sorting it by template name, line and column.
    public init(_ errors: [MustacheError]) {
        self.errors = errors.sorted { lhs, rhs in
            if lhs.templateName != rhs.templateName { return lhs.templateName < rhs.templateName }
            if lhs.line != rhs.line { return lhs.line < rhs.line }
            return lhs.column < rhs.column
        }
    }

    /// One error description per line.
    public var description: String {
        errors.map(\.description).joined(separator: "\n")
    }
}
