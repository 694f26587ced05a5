/// The error a stage throws when the input had errors: every diagnostic it collected.
public struct DiagnosticError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, errors and warnings, in reading order.
    public var diagnostics: [Diagnostic]

    /// Wraps collected diagnostics.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sortedByLocation()
    }

    /// One diagnostic per line.
    public var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
