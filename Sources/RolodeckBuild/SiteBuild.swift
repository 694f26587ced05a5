import Foundation
import RolodeckCore
import RolodeckPublish
import RolodeckSite
import RolodeckStore

/// The pipeline of one site folder, assembled once for every command: read the folder, load and
/// validate the store, config and templates, plan the directory, render the pages, publish them.
///
/// - `check` reads and loads, and writes nothing.
/// - `build` runs the whole pipeline once, as `rolodeck build` does.
/// - `rebuild` keeps what it built and, on every call, redoes only what the changed files touch,
///   as `watch` and `serve` do; its output is always what `build` writes, byte for byte.
///
/// The build never prints; each call returns a `BuildResult` for the caller to report. Not
/// thread-safe: one thread drives it.
public final class SiteBuild {
    /// Reads the site folder, without keeping files between calls (`rebuild` keeps its own).
    let reader: SiteReader
    /// Identifies the tool itself in the output's fingerprint: another rolodeck renders anew.
    let generator: [UInt8]
    /// Where a site with a given config is written.
    let output: (SiteConfig) -> String
    /// What `rebuild` keeps between calls; made by the first.
    var watched: WatchedState?

    /// Whether the process ends as soon as a `build` returns, so the build can leave the planned
    /// site for the exit to reclaim instead of freeing it object by object.
    public var leavesMemoryToExit = false

    /// How long the files read must have been still for their statuses to vouch for them in the
    /// index kept beside the output (`InputIndex`).
    var settleMargin = InputIndex.margin

    /// A build of the site in `folder` (`displayPath` is how messages name it). `generator`
    /// identifies this rolodeck in the output's fingerprint; `output` says where a site with a
    /// given config is written.
    public init(
        folder: URL, displayPath: String, generator: [UInt8], output: @escaping (SiteConfig) -> String
    ) {
        self.reader = SiteReader(folder: folder, displayPath: displayPath)
        self.generator = generator
        self.output = output
    }

    /// Reads and validates everything a build reads, writing nothing; throws every error found
    /// (with the warnings), or returns the loaded site with its warnings.
    public func check() throws(DiagnosticError) -> Site {
        let (input, warnings) = try reader.read()
        return try Site.load(input, earlier: warnings)
    }

    /// Builds the site once, ages as of `today`, and publishes it whole and atomically; stops
    /// early when the output was made from the same input by this same tool. `progress` hears
    /// how many files are written of how many, from when the total is known.
    public func build(today: PartialDate, progress: (@Sendable (Int, Int) -> Void)? = nil) -> BuildResult {
        let prepared: Prepared
        switch prepare(today: today) {
        case .done(let result): return result
        case .prepared(let ready): prepared = ready
        }
        var result = prepared.result
        let renderer = prepared.renderer
        do {
            let report = try publishWhole(
                renderer, outputPath: result.outputPath, fingerprint: prepared.fingerprint, progress: progress)
            result.outcome = .published(report)
            result.isWhole = true
            prepared.index?.write(besides: result.outputPath)
        } catch {
            result.outcome = .failure(error)
        }
        if leavesMemoryToExit { Self.neverRelease(renderer) }
        return result
    }

    /// Renders every page and publishes the whole site through `Publisher`, atomically.
    /// `progress` hears how many files are done; `isCancelled`, asked before each file is
    /// written, stops the build by throwing `Cancelled`.
    func publishWhole(
        _ renderer: SiteRenderer, outputPath: String, fingerprint: String,
        progress: (@Sendable (Int, Int) -> Void)? = nil, isCancelled: (@Sendable () -> Bool)? = nil
    ) throws -> PublishReport {
        try Publisher(outputPath: outputPath).publish(fingerprint: fingerprint) { writer in
            try renderer.render(progress: progress) { path, bytes in
                if let isCancelled, isCancelled() { throw Cancelled() }
                try writer.write(path, bytes)
            }
        }
    }

    /// Thrown into a render to stop it.
    struct Cancelled: Error {}

    /// A loaded and planned site, ready to render, or how the build ended before that.
    private enum Preparation {
        /// The build ended before rendering: bad input, or an output that is up to date.
        case done(BuildResult)
        /// The site is planned and ready to render.
        case prepared(Prepared)
    }

    /// What renders and publishes a planned site, and the result so far.
    private struct Prepared {
        /// Renders the planned site.
        var renderer: SiteRenderer
        /// The fingerprint of the inputs, for the output's manifest.
        var fingerprint: String
        /// What the build did so far.
        var result: BuildResult
        /// The statuses of the files read, to keep beside the output once it is published; nil
        /// when some file changed too recently for its status to vouch for it.
        var index: InputIndex?
    }

    /// Reads, loads and plans the site. The files' bytes and the store are let go when this
    /// returns, before any page is rendered: the store file is as large as the store, and the
    /// planned directory holds its own copy of every contact.
    private func prepare(today: PartialDate) -> Preparation {
        let generatorDigest = InputFingerprint.digest(generator)
        if let result = upToDateByStatus(today: today, generator: generatorDigest) { return .done(result) }
        let input: SiteInput
        let readWarnings: [Diagnostic]
        let readAt = FileStatus.now()
        do {
            var reader = reader
            reader.notesStatuses = true
            (input, readWarnings) = try reader.read()
        } catch {
            return .done(BuildResult(outcome: .failed(error), outputPath: ""))
        }
        var result = BuildResult(outcome: .unchanged, outputPath: output(input.config))
        let fingerprint = InputFingerprint.of(input, today: today, generator: generator)
        let index = InputIndex(
            fingerprint: fingerprint, today: today.description, generator: generatorDigest,
            statuses: input.statuses)
        let settled = index.isSettled(readAt: readAt, margin: settleMargin) ? index : nil
        if let files = Publisher(outputPath: result.outputPath).upToDateFileCount(fingerprint: fingerprint) {
            result.outcome = .upToDate(files: files)
            settled?.write(besides: result.outputPath)
            return .done(result)
        }
        let site: Site
        do {
            site = try Site.load(input, earlier: readWarnings)
        } catch {
            result.outcome = .failed(error)
            return .done(result)
        }
        result.warnings = site.warnings
        result.counts = site.counts
        return .prepared(
            Prepared(renderer: site.renderer(today: today), fingerprint: fingerprint, result: result, index: settled))
    }

    /// The result of a build with nothing to do, told from the files' statuses alone: the index
    /// beside the output vouches for the same date, generator and files, and the output still
    /// has the fingerprint it names. Nil when the files must be read to tell.
    func upToDateByStatus(today: PartialDate, generator: String) -> BuildResult? {
        guard let (config, statuses) = reader.survey() else { return nil }
        let outputPath = output(config)
        guard let index = InputIndex.load(besides: outputPath), index.today == today.description,
            index.generator == generator, index.statuses == statuses,
            let files = Publisher(outputPath: outputPath).upToDateFileCount(fingerprint: index.fingerprint)
        else { return nil }
        return BuildResult(outcome: .upToDate(files: files), outputPath: outputPath)
    }

    /// Keeps `renderer` alive until the process ends.
    private static func neverRelease(_ renderer: SiteRenderer) {
        final class Kept {
            let renderer: SiteRenderer
            init(_ renderer: SiteRenderer) { self.renderer = renderer }
        }
        _ = Unmanaged.passRetained(Kept(renderer))
    }
}

extension Site {
    /// How many contacts the site shows and hides, and how many groups and todos it has.
    var counts: BuildResult.Counts {
        let hidden = hiddenContactCount
        return BuildResult.Counts(
            contacts: store.contacts.count - hidden, hidden: hidden, groups: store.groups.count,
            todos: store.todos.count)
    }
}
