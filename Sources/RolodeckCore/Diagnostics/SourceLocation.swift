/// A position in a source file, 1-based, printed as `path:line:column`.
///
/// Columns count Unicode scalars from the start of the line, so a location points at the same
/// character in any editor whatever the script of the text before it.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The file's path as the user named it (relative to the working directory where possible).
    public internal(set) var path: String
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in Unicode scalars.
    var column: Int

    /// Creates a location from its parts.
    public init(path: String, line: Int, column: Int) {
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path:line:column`, the form compilers print and editors jump to.
    public var description: String { "\(path):\(line):\(column)" }

    /// Orders by path, then line, then column, so diagnostics print in reading order.
    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.path, lhs.line, lhs.column) < (rhs.path, rhs.line, rhs.column)
    }
}
