/// The error a stage throws when the input had errors: every diagnostic it collected.
package struct DiagnosticError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, errors and warnings, in reading order.
    package var diagnostics: [Diagnostic]

    /// Wraps collected diagnostics.
    package init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.sortedByLocation()
    }

    /// One diagnostic per line.
    package var description: String {
        diagnostics.map(\.description).joined(separator: "\n")
    }
}
