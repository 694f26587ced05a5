import Foundation
import RolodeckCore
import Synchronization
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
    /// Made on first use: hashing the binary took 11 ms before `check` (which writes nothing,
    /// so has no fingerprint) could start reading.
    lazy var generator: [UInt8] = makeGenerator()
    private let makeGenerator: () -> [UInt8]
    /// Where a site with a given config is written.
    let output: (SiteConfig) -> String
    /// What `rebuild` keeps between calls; made by the first.
    var watched: WatchedState?
    /// The smallest file `rebuild` writes through a spare copy (tests lower it to have small
    /// sites' `contacts.vcf` go that way).
    var spareMinimumSize = 1 << 20

    /// `SOURCE_DATE_EPOCH`, which sets the pages' "last updated" date in place of the store's
    /// newest file; read from the environment, as the command reads today from it.
    public var sourceDateEpoch: Int? = LastUpdated.sourceDateEpoch()

    /// Whether the process ends as soon as a `build` or `check` returns, so it can leave the
    /// planned site or the files read for the exit to reclaim instead of freeing them object by
    /// object.
    public var leavesMemoryToExit = false

    /// How long the files read must have been still for their statuses to vouch for them in the
    /// output's manifest (`InputIndex`).
    var settleMargin = InputIndex.margin

    /// A build of the site in `folder` (`displayPath` is how messages name it). `generator`
    /// identifies this rolodeck in the output's fingerprint, and is made when a build first needs
    /// it; `output` says where a site with a given config is written.
    public init(
        folder: URL, displayPath: String, generator: @autoclosure @escaping () -> [UInt8],
        output: @escaping (SiteConfig) -> String
    ) {
        self.reader = SiteReader(folder: folder, displayPath: displayPath)
        self.makeGenerator = generator
        self.output = output
    }

    /// Reads and validates everything a build reads, writing nothing; throws every error found
    /// (with the warnings), or returns the loaded site with its warnings.
    ///
    /// Each photo is checked by making its files with libvips, as a build does, unless the
    /// output holds them made the same way (`readingPublishedPhotos`): a check of 10,000
    /// photos took 31 s, as long as a cold build.
    public func check() throws(DiagnosticError) -> Site {
        let (input, warnings) = try reader.read()
        // The files read (100,000 of them in a store of a file per card) are left for the exit
        // when it comes next, not freed one by one.
        if leavesMemoryToExit { Self.neverRelease(input) }
        let photoCache = readingPublishedPhotos(from: output(input.config))
        defer { photoCache.stopReadingPublished() }
        return try Site.load(input, earlier: warnings, photoCache: photoCache)
    }

    /// Builds the site once, ages as of `today`, and publishes it whole and atomically; stops
    /// early when the output was made from the same input by this same tool.
    ///
    /// `progress` hears each step as it starts, and the files as they are written. `control`
    /// follows the publish and stops the build: asked between steps and between files, until
    /// the new site is swapped in (see `PublishControl`); a stopped build is `.cancelled`, and
    /// the output is as it was.
    public func build(
        today: PartialDate, progress: (@Sendable (BuildProgress) -> Void)? = nil,
        control: PublishControl = .none
    ) -> BuildResult {
        let prepared: Prepared
        switch prepare(today: today, progress: progress, control: control) {
        case .done(let result): return result
        case .prepared(let ready): prepared = ready
        }
        var result = prepared.result
        let renderer = prepared.renderer
        do {
            let report = try publishWhole(
                renderer, outputPath: result.outputPath, fingerprint: prepared.fingerprint,
                statuses: prepared.statuses, photos: prepared.photos, progress: progress, control: control)
            result.outcome = .published(report)
            result.isWhole = true
            result.warnings += report.warnings.map { Diagnostic(.warning, at: nil, $0.description) }
        } catch is Cancelled, is Publisher.Cancelled {
            result.outcome = .cancelled
        } catch {
            result.outcome = .failure(error)
        }
        if leavesMemoryToExit { Self.neverRelease(renderer) }
        return result
    }

    /// Renders every page and publishes the whole site through `Publisher`, atomically, with
    /// `statuses` and `photos` (`photosMaker`) in its manifest if given. `progress` hears how
    /// many files are done; `control`, asked before each file is written, stops the build by
    /// throwing `Cancelled`.
    func publishWhole(
        _ renderer: SiteRenderer, outputPath: String, fingerprint: String, statuses: String? = nil,
        photos: String? = nil, progress: (@Sendable (BuildProgress) -> Void)? = nil,
        control: PublishControl = .none
    ) throws -> PublishReport {
        var publishing = control
        publishing.waiting = {
            progress?(.waiting)
            control.waiting()
        }
        return try Publisher(outputPath: outputPath, control: publishing).publish(
            fingerprint: fingerprint, statuses: statuses, photos: photos
        ) { writer in
            progress?(.rendering(done: 0, total: nil))
            // The renderer knows the total only once the search index is built; the files are
            // counted here from the first.
            let done = Atomic(0)
            let total = Atomic(-1)
            @Sendable func count() {
                let count = done.add(1, ordering: .relaxed).newValue
                if let progress, count % 256 == 0 {
                    let known = total.load(ordering: .relaxed)
                    progress(.rendering(done: count, total: known >= 0 ? known : nil))
                }
            }
            try renderer.render(progress: { _, count in total.store(count, ordering: .relaxed) }) {
                path, bytes in
                if control.isCancelled() { throw Cancelled() }
                try writer.write(path, bytes)
                count()
            } emitParts: { path, parts in
                if control.isCancelled() { throw Cancelled() }
                try writer.write(path, parts: parts)
                count()
            }
            progress?(.publishing(files: done.load(ordering: .relaxed)))
        }
    }

    /// Thrown into a render to stop it.
    struct Cancelled: Error {}

    /// Why the site is not published into `outputPath`: the store or the site folder lies
    /// inside it. Each build replaces the output whole, so the build would delete them with
    /// the old site (a store moved into `_site/` was gone after the next build). Links are
    /// resolved first; nil when the output does not exist yet, or holds neither.
    func outputRefusal(_ outputPath: String, config: SiteConfig) -> DiagnosticError? {
        guard let output = AbsolutePath.resolved(outputPath) else { return nil }
        let what: String
        if let site = reader.resolvedFolder, AbsolutePath.isWithin(site, output) {
            what = "the site folder"
        } else if let resolved = reader.resolvedStore(config), AbsolutePath.isWithin(resolved, output) {
            let store = config.store.hasPrefix("/") ? config.store : reader.display(config.store)
            what = "the store (\(store))"
        } else {
            return nil
        }
        return DiagnosticError([
            Diagnostic(
                .error, at: nil,
                "\(what) lies inside the output \(outputPath), which every build replaces whole: "
                    + "publishing would delete it; move it out of the output, or choose another output "
                    + "(\"output\" in rolodeck.json, or --out)")
        ])
    }

    /// The digest of what makes the photos' files: this rolodeck (`generator`) and the
    /// libraries libvips brought into the process (`SitePhotos.libraries`). An intact output
    /// whose manifest records it holds at each photo's names what this build would make of that
    /// photo (`Publisher.photosMadeBy`), so a build whose inputs changed takes them from there
    /// rather than making every thumbnail again (23 s at 10,000 photos). Loads libvips: ask
    /// only for a site with photos.
    static func photosMaker(generator: [UInt8]) -> String? {
        SitePhotos.libraries.map { InputFingerprint.digest(generator + $0) }
    }

    /// A cache that, until `stopReadingPublished`, takes the photos' files from the output at
    /// `outputPath` when a build made the same way as this one wrote them (`photosMaker`);
    /// whether one did is asked when a photo first needs it, so a store without photos never
    /// loads libvips for it.
    func readingPublishedPhotos(_ cache: PhotoCache = PhotoCache(), from outputPath: String) -> PhotoCache {
        let generator = generator
        cache.readPublished(from: outputPath) {
            Self.photosMaker(generator: generator).map { Publisher(outputPath: outputPath).photosMadeBy($0) }
                ?? false
        }
        return cache
    }

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
        /// The digest of the statuses of the files read, for the output's manifest; nil when some
        /// file changed too recently for its status to vouch for it.
        var statuses: String?
        /// The digest of what made the photos' files, for the output's manifest; nil without
        /// photos.
        var photos: String?
    }

    /// Reads, loads and plans the site. The files' bytes are let go once the site is loaded,
    /// before the directory is planned, and the store when this returns, before any page is
    /// rendered: the store's files are as large as the store, and the planned directory holds
    /// its own copy of every contact.
    private func prepare(
        today: PartialDate, progress: (@Sendable (BuildProgress) -> Void)?, control: PublishControl
    ) -> Preparation {
        progress?(.reading)
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
        if let refusal = outputRefusal(result.outputPath, config: input.config) {
            result.outcome = .failed(refusal)
            return .done(result)
        }
        let lastUpdated = LastUpdated.day(storeModified: input.storeModified, sourceDateEpoch: sourceDateEpoch)
        let fingerprint = InputFingerprint.of(input, today: today, lastUpdated: lastUpdated, generator: generator)
        let index = InputIndex(today: today.description, generator: generatorDigest, statuses: input.statuses)
        let settled = index.isSettled(readAt: readAt, margin: settleMargin) ? index.digest : nil
        if let files = Publisher(outputPath: result.outputPath).upToDateFileCount(fingerprint: fingerprint) {
            result.outcome = .upToDate(files: files)
            if let settled {
                // A failure only costs the next build a full read, so it is not reported.
                _ = try? Publisher(outputPath: result.outputPath, control: control)
                    .record(statuses: settled, fingerprint: fingerprint)
            }
            return .done(result)
        }
        if control.isCancelled() {
            result.outcome = .cancelled
            return .done(result)
        }
        progress?(.decoding)
        let site: Site
        do {
            // The last output's photo files, when made as this build makes them.
            let photoCache = readingPublishedPhotos(from: result.outputPath)
            defer { photoCache.stopReadingPublished() }
            site = try Site.load(input, earlier: readWarnings, photoCache: photoCache)
        } catch {
            result.outcome = .failed(error)
            return .done(result)
        }
        // The files' bytes and statuses go before the directory is planned, not with the
        // renderer's start: at the peak, not after it.
        _ = consume input
        _ = consume index
        result.warnings = site.warnings
        result.counts = site.counts
        if control.isCancelled() {
            result.outcome = .cancelled
            return .done(result)
        }
        progress?(.sorting(contacts: site.store.contacts.count))
        let renderer = site.renderer(today: today, lastUpdated: lastUpdated)
        if control.isCancelled() {
            result.outcome = .cancelled
            return .done(result)
        }
        return .prepared(
            Prepared(
                renderer: renderer, fingerprint: fingerprint, result: result, statuses: settled,
                photos: renderer.writesPhotos ? Self.photosMaker(generator: generator) : nil))
    }

    /// The result of a build with nothing to do, told from the files' statuses alone: the
    /// output's manifest records the digest of the same date, generator and file statuses, and
    /// the output is intact. Nil when the files must be read to tell.
    ///
    /// Both halves are a `stat` of every file, 100,000 inputs and 206,000 outputs in a store of
    /// a file per card: the output is looked at on a thread of its own while the inputs are
    /// surveyed here, each on every core, so that the walk of the store's folders, which one
    /// core does, overlaps the output's files.
    func upToDateByStatus(today: PartialDate, generator: String) -> BuildResult? {
        guard let (config, configStatus) = reader.surveyConfig() else { return nil }
        let outputPath = output(config)
        let recorded = Mutex<(statuses: String, files: Int)?>(nil)
        var files: FileStatusDigest?
        ParallelWork.alongside({
            let found = Publisher(outputPath: outputPath).recordedStatuses()
            recorded.withLock { $0 = found }
        }) {
            files = reader.surveyFiles(for: config)
        }
        guard var statuses = files, let (digest, count) = recorded.withLock({ $0 }) else { return nil }
        statuses.add(configStatus)
        let index = InputIndex(today: today.description, generator: generator, files: statuses)
        guard index.digest == digest else { return nil }
        return BuildResult(outcome: .upToDate(files: count), outputPath: outputPath)
    }

    /// Keeps `value` alive until the process ends.
    private static func neverRelease(_ value: Any) {
        final class Kept {
            let value: Any
            init(_ value: Any) { self.value = value }
        }
        _ = Unmanaged.passRetained(Kept(value))
    }
}

extension Site {
    /// How many contacts the site shows and hides, and how many groups and todos it has.
    public var counts: BuildResult.Counts {
        let hidden = hiddenContactCount + privateRecords.contacts
        return BuildResult.Counts(
            contacts: store.contacts.count - hidden, hidden: hiddenContactCount,
            leftOutAsPrivate: privateRecords, groups: store.groups.count, todos: store.todos.count)
    }
}
