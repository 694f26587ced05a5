import RolodeckCore
import RolodeckPublish

/// What one `build` or `rebuild` of a `SiteBuild` did, for the caller to report.
public struct BuildResult: Sendable {
    /// How a build ended.
    public enum Outcome: Sendable {
        /// No input file changed since the last rebuild; nothing was done.
        case unchanged
        /// The output was made from the same input by this same tool: `files` files, none read,
        /// rendered or written.
        case upToDate(files: Int)
        /// The output is up to date: what was written, left and removed.
        case published(PublishReport)
        /// The input is bad (or a template failed to render): nothing was written, and the last
        /// good site stays.
        case failed(DiagnosticError)
        /// The output could not be written; it is as it was.
        case notPublished(DiagnosticError)
        /// Stopped on request; the output is as it was.
        case cancelled
    }

    /// How many records the site was built from.
    public struct Counts: Sendable, Equatable {
        /// Contacts the site shows.
        public var contacts = 0
        /// Contacts in the store that the config hides.
        public var hidden = 0
        /// Contacts, groups and todos left out because they are marked private.
        public var leftOutAsPrivate = PrivateRecords()
        /// Groups in the store, but those left out as private (a config that hides the groups
        /// shows none of them, yet they are counted).
        public var groups = 0
        /// Todos the site shows.
        public var todos = 0
    }

    /// How it ended.
    public var outcome: Outcome
    /// The output folder; "" when the config could not be read.
    public var outputPath: String
    /// The input files that changed since the last rebuild, as messages name them; empty for a
    /// `build` and for the first rebuild.
    public var changedInputs: [String] = []
    /// Whether the whole site was rendered and published, rather than the touched pages.
    public var isWhole = false
    /// The output files written or removed, by path; empty after a whole publish, when any
    /// file may have changed.
    public var changedFiles: [String] = []
    /// Warnings; for a rebuild, only those the last good build did not have.
    public var warnings: [Diagnostic] = []
    /// How many contacts, groups and todos the site has.
    public var counts = Counts()

    /// A result with nothing else to say yet.
    public init(outcome: Outcome, outputPath: String) {
        self.outcome = outcome
        self.outputPath = outputPath
    }
}

extension BuildResult.Outcome {
    /// How rendering and publishing ended when they threw `error`: a diagnostic (a template that
    /// failed to render) leaves nothing written; anything else is an output that could not be
    /// written.
    static func failure(_ error: any Error) -> Self {
        if let error = error as? DiagnosticError { return .failed(error) }
        return .notPublished(DiagnosticError([Diagnostic(.error, at: nil, "\(error)")]))
    }
}
