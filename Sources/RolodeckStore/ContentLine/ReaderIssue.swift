import RolodeckCore

/// What the issues of the vCard and iCalendar readers share: a reason, worded in one `message`
/// switch by each conforming type. Every one is a warning: it costs at most the line, value or
/// record it is about, and the rest of the file is still read.
protocol ReaderIssue: Error, Sendable, Equatable {
    /// Everything that can be wrong, as far as this reader is concerned.
    associatedtype Reason: Sendable, Equatable

    /// What is wrong.
    var reason: Reason { get }
    /// The message the user reads.
    var message: String { get }

    /// Creates an issue.
    init(reason: Reason)
}

extension ReaderIssue {
    /// Creates an issue.
    init(_ reason: Reason) {
        self.init(reason: reason)
    }

    /// The warning the user reads for `reason` at `location`.
    static func warning(_ reason: Reason, at location: SourceLocation) -> Diagnostic {
        Diagnostic(.warning, at: location, Self(reason).message)
    }
}
