import RolodeckCore
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a command writes: standard output and standard error, or buffers in tests.
public final class Console: @unchecked Sendable {
    private let writeOut: (String) -> Void
    private let writeError: (String) -> Void
    /// Whether standard error is a terminal: colour and progress are shown only then.
    public let errorIsTerminal: Bool

    /// Creates a console from two writers.
    public init(
        errorIsTerminal: Bool = false, out: @escaping (String) -> Void, error: @escaping (String) -> Void
    ) {
        self.writeOut = out
        self.writeError = error
        self.errorIsTerminal = errorIsTerminal
    }

    /// The process's standard output and standard error.
    public static func standard() -> Console {
        Console(
            errorIsTerminal: isatty(STDERR_FILENO) == 1,
            out: { text in writeAll(STDOUT_FILENO, text) },
            error: { text in writeAll(STDERR_FILENO, text) })
    }

    /// Writes all of a text to a file descriptor, retrying after interruptions.
    private static func writeAll(_ descriptor: Int32, _ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return }
            bytes = bytes.dropFirst(count)
        }
    }

    /// Writes a line to standard output.
    public func print(_ line: String) { writeOut(line + "\n") }

    /// Writes text to standard output as it is (a script or page that ends with its own newline).
    public func writeToOutput(_ text: String) { writeOut(text) }

    /// Writes a line to standard error.
    public func printError(_ line: String) { writeError(line + "\n") }

    /// Writes text to standard error without a newline (progress).
    public func writeToError(_ text: String) { writeError(text) }

    /// Prints a diagnostic to standard error, with its severity coloured on a terminal.
    public func report(_ diagnostic: Diagnostic) {
        guard errorIsTerminal else {
            printError(diagnostic.description)
            return
        }
        let colour = diagnostic.severity == .error ? "\u{1B}[1;31m" : "\u{1B}[1;35m"
        let place = diagnostic.location.map { "\u{1B}[1m\($0):\u{1B}[0m " } ?? ""
        printError("\(place)\(colour)\(diagnostic.severity.rawValue):\u{1B}[0m \(diagnostic.message)")
    }

    /// Prints every diagnostic of a failed stage, warnings too (`--quiet` silences only the line
    /// a success ends with), and returns how many errors there were, for the closing line.
    func report(_ failure: DiagnosticError) -> Int {
        failure.diagnostics.forEach(report)
        return failure.diagnostics.count { $0.severity == .error }
    }
}
