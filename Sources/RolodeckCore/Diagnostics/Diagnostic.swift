/// One problem found in the user's input: a store file, the config or a template.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    /// How serious a diagnostic is.
    public enum Severity: String, Sendable, Hashable {
        /// The build cannot go on with this input.
        case error
        /// The input is usable, but probably not what the user meant.
        case warning
    }

    /// Whether the diagnostic stops the build.
    public var severity: Severity
    /// Where the problem is, when it has a place.
    public var location: SourceLocation?
    /// What is wrong, in words a person acts on.
    public var message: String
    /// Whether the text could not be read at all here (a JSON syntax error). Such an error is
    /// listed before the others, which may follow from what could not be read.
    public var isSyntaxError = false
    /// Another place the message names (where the first of two records with one id is), so
    /// that whoever keeps the diagnostic knows a change to that place's file may change it.
    public var mentioned: SourceLocation?

    /// Creates a diagnostic.
    public init(_ severity: Severity, at location: SourceLocation?, _ message: String) {
        self.severity = severity
        self.location = location
        self.message = message
    }

    /// An error where the text could not be read at all.
    public static func syntaxError(at location: SourceLocation?, _ message: String) -> Diagnostic {
        var diagnostic = Diagnostic(.error, at: location, message)
        diagnostic.isSyntaxError = true
        return diagnostic
    }

    /// The diagnostic, noting that its message names `place`.
    public func mentioning(_ place: SourceLocation) -> Diagnostic {
        var diagnostic = self
        diagnostic.mentioned = place
        return diagnostic
    }

    /// `path:line:column: error: message`, or `error: message` without a location.
    public var description: String {
        if let location {
            return "\(location): \(severity.rawValue): \(message)"
        }
        return "\(severity.rawValue): \(message)"
    }
}

extension Array where Element == Diagnostic {
    /// Whether any diagnostic is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }

    /// The diagnostics in reading order: syntax errors first (the rest may follow from what
    /// could not be read: a group "does not exist" because `groups.json` did not parse), then by
    /// file, line and column; those without a place last.
    public func sortedByLocation() -> [Diagnostic] {
        enumerated().sorted { lhs, rhs in
            if lhs.element.isSyntaxError != rhs.element.isSyntaxError { return lhs.element.isSyntaxError }
            switch (lhs.element.location, rhs.element.location) {
            case let (l?, r?) where l != r: return l < r
            case (nil, _?): return false
            case (_?, nil): return true
            default: return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }
}
