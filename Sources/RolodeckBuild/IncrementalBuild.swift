import Foundation
import RolodeckSite
import RolodeckCore
import RolodeckStore
import RolodeckSearch
import RolodeckPublish
import RolodeckPlan

#if canImport(Glibc)
    import Glibc
#endif

/// A site that is built once and then kept up to date, for `rolodeck watch` and `serve`: each
/// rebuild reads only the files that changed, decodes only the records that changed, plans the
/// directory anew, renders only the pages the change touches (`PageDependencies`) and writes
/// only the files whose bytes changed (`OutputPatcher`). The output is always what a whole
/// build of the same input would write, byte for byte, manifest included.
///
/// The first rebuild, a change to the config or the date, a change that touches most pages, a
/// new output folder, or an output that someone else changed (its manifest is not the one this
/// build wrote) are published whole by `Publisher` instead, atomically.
///
/// A rebuild whose input is bad reports its diagnostics and writes nothing; the last good site
/// stays, and the next rebuild compares with it. Not thread-safe: one thread drives it.
public final class IncrementalBuild {
    /// What the site on disk was built from.
    private struct Baseline: Sendable {
        var snapshot: SiteSnapshot
        var store: Store
        var outputPath: String
        var files: [String: Int]
        var manifest: ManifestIdentity
        var warnings: Set<String>
    }

    /// Tells the manifest this build wrote from one written by anyone else.
    private struct ManifestIdentity: Equatable, Sendable {
        var inode: UInt64
        var modified: Int64

        init?(outputPath: String) {
            var info = stat()
            guard stat(outputPath + "/" + Publisher.markerName, &info) == 0 else { return nil }
            inode = UInt64(info.st_ino)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        }
    }

    /// Thrown into a render to stop it.
    private struct Cancelled: Error {}

    private let reader: SiteReader
    private let generator: [UInt8]
    private let output: (SiteConfig) -> String
    private let storeCache = StoreDecodeCache()
    private let searchCache = SearchIndexCache()
    private var baseline: Baseline?
    private var lastInput: SiteInput?
    private var lastToday: PartialDate?

    /// Creates a build of the site in `folder` (`displayPath` is how messages name it).
    /// `generator` identifies this rolodeck for the manifest's fingerprint, as `build` does;
    /// `output` says where a site with a given config is written.
    public init(
        folder: URL, displayPath: String, generator: [UInt8], output: @escaping (SiteConfig) -> String
    ) {
        self.reader = SiteReader(folder: folder, displayPath: displayPath, cache: InputFileCache())
        self.generator = generator
        self.output = output
    }

    /// The output folder of the last good build.
    var outputPath: String? { baseline?.outputPath }

    /// The config the site was last read with (nil until it has been read without error).
    public private(set) var config: SiteConfig?

    /// Brings the output up to date with the site's files, for ages as of `today`.
    /// `isCancelled` is asked between pages; when it says yes, the rebuild stops and leaves the
    /// output as it was.
    public func rebuild(today: PartialDate, isCancelled: @escaping @Sendable () -> Bool = { false })
        -> Rebuild
    {
        let input: SiteInput
        let readWarnings: [Diagnostic]
        do {
            (input, readWarnings) = try reader.read()
        } catch {
            lastInput = nil
            return Rebuild(outcome: .failed(error), changedInputs: [])
        }
        config = input.config
        // The input of the last rebuild that ended, well or with bad input; after any other
        // ending (cancelled, the output could not be written) the same input is tried again.
        let changes = lastInput.map { Self.changes(from: $0, to: input, reader: reader) }
        if let changes, changes.isEmpty, today == lastToday {
            return Rebuild(outcome: .unchanged, changedInputs: [])
        }
        lastInput = input
        lastToday = today
        var result = Rebuild(outcome: .unchanged, changedInputs: changes ?? [])

        let site: Site
        do {
            site = try Site.load(input, earlier: readWarnings, storeCache: storeCache)
        } catch {
            result.outcome = .failed(error)
            return result
        }
        result.counts = (site.store.contacts.count, site.store.groups.count, site.store.todos.count)
        let known = baseline?.warnings ?? []
        result.warnings = site.warnings.filter { !known.contains($0.description) }
        guard !isCancelled() else {
            lastInput = nil
            result.outcome = .cancelled
            return result
        }
        let patched = baseline.flatMap { baseline in
            baseline.snapshot.config == site.config
                ? Directory.patching(baseline.snapshot.directory, from: baseline.store, to: site.store) : nil
        }
        let directory = patched ?? Directory(store: site.store, config: site.config)
        let renderer = SiteRenderer(
            directory: directory, theme: site.theme, today: today, searchCache: searchCache)
        let snapshot = SiteSnapshot(
            config: site.config, today: today, directory: directory, theme: site.theme,
            siteTemplates: input.templates.mapValues(\.bytes), search: renderer.search)
        let outputPath = output(site.config)
        let fingerprint = InputFingerprint.of(input, today: today, generator: generator)
        do {
            if let baseline, baseline.outputPath == outputPath,
                let identity = ManifestIdentity(outputPath: outputPath), identity == baseline.manifest,
                let patched = try patch(
                    from: baseline, to: snapshot, renderer: renderer, fingerprint: fingerprint,
                    isCancelled: isCancelled)
            {
                result.outcome = .published(patched.report)
                result.changedFiles = patched.changed
                Self.release(self.baseline, renderer)
                self.baseline = Baseline(
                    snapshot: snapshot, store: site.store, outputPath: outputPath, files: patched.files,
                    manifest: ManifestIdentity(outputPath: outputPath) ?? baseline.manifest,
                    warnings: Set(site.warnings.map(\.description)))
            } else {
                let report = try publishWhole(
                    renderer, outputPath: outputPath, fingerprint: fingerprint,
                    isCancelled: isCancelled)
                result.outcome = .published(report)
                result.isWhole = true
                Self.release(self.baseline, renderer)
                self.baseline = nil
                if let files = Self.manifestFiles(outputPath),
                    let identity = ManifestIdentity(outputPath: outputPath)
                {
                    self.baseline = Baseline(
                        snapshot: snapshot, store: site.store, outputPath: outputPath, files: files,
                        manifest: identity,
                        warnings: Set(site.warnings.map(\.description)))
                }
            }
        } catch is Cancelled {
            lastInput = nil
            result.outcome = .cancelled
            return result
        } catch let error as DiagnosticError {
            result.outcome = .failed(error)
            return result
        } catch {
            // The output may be half patched: the next rebuild publishes it whole.
            self.baseline = nil
            lastInput = nil
            result.outcome = .failed(DiagnosticError([Diagnostic(.error, at: nil, "\(error)")]))
            return result
        }
        return result
    }

    /// Lets go of what the last build kept on another thread: freeing the pages' data of a large
    /// site takes a tenth of a second, which the open pages need not wait for.
    private static func release(_ baseline: Baseline?, _ renderer: SiteRenderer) {
        releaser.async { withExtendedLifetime((baseline, renderer)) {} }
    }

    private static let releaser = DispatchQueue(label: "rolodeck.incremental-build.release", qos: .utility)

    /// Writes the pages the change touched, or returns nil when so many are touched that
    /// publishing the whole site is as quick (and atomic).
    private func patch(
        from baseline: Baseline, to snapshot: SiteSnapshot, renderer: SiteRenderer, fingerprint: String,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws
        -> (report: PublishReport, files: [String: Int], changed: [String])?
    {
        let pages = renderer.pages
        var paths: Set<String> = []
        paths.reserveCapacity(pages.count)
        for page in pages { paths.insert(renderer.path(of: page)) }
        let changed = PageDependencies.changedPages(from: baseline.snapshot, to: snapshot, renderer: renderer)
        let listed = Set(changed)
        // Anything the output does not have yet is written, whatever the rules say.
        let touched =
            changed + pages.filter { !listed.contains($0) && baseline.files[renderer.path(of: $0)] == nil }
        guard touched.count * 2 <= pages.count else { return nil }
        let removed = baseline.files.keys.filter { !paths.contains($0) }.sorted()
        var files = baseline.files
        let patcher = OutputPatcher(outputPath: baseline.outputPath)
        var written: [String] = []
        let report = try patcher.patch(fingerprint: fingerprint, files: &files, removing: removed) { writer in
            try ParallelWork.forEach(touched.count, batch: 8) { index in
                if isCancelled() { throw Cancelled() }
                let page = touched[index]
                try writer.write(renderer.path(of: page), try renderer.render(page))
            }
            written = writer.writtenPaths
        }
        return (report, files, (written + removed).sorted())
    }

    /// Renders and publishes every page through `Publisher`.
    private func publishWhole(
        _ renderer: SiteRenderer, outputPath: String, fingerprint: String,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws -> PublishReport {
        try Publisher(outputPath: outputPath).publish(fingerprint: fingerprint) { writer in
            try renderer.render { path, bytes in
                if isCancelled() { throw Cancelled() }
                try writer.write(path, bytes)
            }
        }
    }

    /// Every file the output's manifest lists, with its size.
    private static func manifestFiles(_ outputPath: String) -> [String: Int]? {
        guard let folder = DirectoryHandle.open(outputPath),
            let bytes = folder.contents(of: Publisher.markerName),
            let manifest = OutputManifest(bytes: bytes)
        else { return nil }
        var files: [String: Int] = [:]
        for file in manifest.files { files[file.path] = file.size }
        return files
    }

    /// The input files whose bytes changed, came or went, as messages name them.
    static func changes(from old: SiteInput, to new: SiteInput, reader: SiteReader) -> [String] {
        var changed: Set<String> = []
        if old.configBytes != new.configBytes { changed.insert(reader.display(SiteConfig.fileName)) }
        var oldStore: [String: StoreFile] = [:]
        for file in old.storeFiles { oldStore[file.source.path] = file }
        var newStore: Set<String> = []
        for file in new.storeFiles {
            newStore.insert(file.source.path)
            guard let before = oldStore[file.source.path] else {
                changed.insert(file.source.path)
                continue
            }
            if before.source.bytes != file.source.bytes || before.layout != file.layout {
                changed.insert(file.source.path)
            } else if before.collection != file.collection {
                let folder = file.source.path.split(separator: "/", omittingEmptySubsequences: false)
                    .dropLast()
                changed.insert(folder.joined(separator: "/") + "/displayname")
            }
        }
        changed.formUnion(oldStore.keys.filter { !newStore.contains($0) })
        for name in Set(old.templates.keys).union(new.templates.keys)
        where old.templates[name]?.bytes != new.templates[name]?.bytes {
            changed.insert((new.templates[name] ?? old.templates[name])!.path)
        }
        for path in Set(old.assets.keys).union(new.assets.keys) where old.assets[path] != new.assets[path] {
            changed.insert(reader.display("Public/" + path))
        }
        return changed.sorted()
    }
}

/// What one rebuild of an `IncrementalBuild` did.
public struct Rebuild: Sendable {
    /// How a rebuild ended.
    public enum Outcome: Sendable {
        /// No input file changed since the last rebuild; nothing was done.
        case unchanged
        /// The output is up to date: what was written, left and removed.
        case published(PublishReport)
        /// The input is bad, or the output could not be written; the last good site stays.
        case failed(DiagnosticError)
        /// Stopped on request; the output is as it was.
        case cancelled
    }

    /// How it ended.
    public var outcome: Outcome
    /// The input files that changed since the last rebuild, as messages name them; empty for
    /// the first.
    public var changedInputs: [String]
    /// Whether the whole site was rendered and published, rather than the touched pages.
    public var isWhole = false
    /// The output files written or removed, by path; empty after a whole publish, when any
    /// file may have changed.
    public var changedFiles: [String] = []
    /// Warnings that the last good build did not have.
    public var warnings: [Diagnostic] = []
    /// How many contacts, groups and todos the site has.
    public var counts: (contacts: Int, groups: Int, todos: Int) = (0, 0, 0)

    /// Creates a result.
    init(outcome: Outcome, changedInputs: [String]) {
        self.outcome = outcome
        self.changedInputs = changedInputs
    }
}
