import Foundation
import RolodeckCore
import RolodeckPlan
import RolodeckPublish
import RolodeckSearch
import RolodeckSite
import RolodeckStore

#if canImport(Glibc)
    import Glibc
#endif

/// What `rebuild` keeps between calls: the files read and records decoded before, the search
/// index's contacts, and what the site on disk was built from.
final class WatchedState {
    /// Reads only the files that changed since the last call.
    let reader: SiteReader
    /// Decodes only the store files and records that changed.
    let storeCache = StoreDecodeCache()
    /// Collects search terms only for contacts that changed.
    let searchCache = SearchIndexCache()
    /// Writes only the vCards of contacts that changed.
    let cardCache = VCardCache()
    /// Makes the files only of photos that are new.
    let photoCache = PhotoCache()
    /// Compiles the templates only when they or the static files changed.
    let themeCache = ThemeCache()
    /// Makes only the birthday calendar's events that changed.
    let birthdayEvents = BirthdayEventCache()
    /// Writes only the bytes that changed of the large files (`contacts.vcf`), into old copies.
    let spares: SpareFiles
    /// Hashes only the store files that changed for the input's fingerprint.
    let storeDigests = StoreDigests()
    /// What the site on disk was built from; nil until a build was published.
    var baseline: Baseline?
    /// The input of the last rebuild that ended, well or with bad input; after any other ending
    /// (cancelled, the output could not be written) the same input is tried again.
    var lastInput: SiteInput?
    /// The date of `lastInput`'s rebuild.
    var lastToday: PartialDate?
    /// The "last updated" date of `lastInput`'s rebuild.
    var lastUpdated: PartialDate?
    /// The config the site was last read with.
    var config: SiteConfig?

    /// State for rebuilds that read with `reader`, keeping the files it reads in `cache`, and
    /// spares of files of at least `spareMinimumSize` bytes.
    init(reader: SiteReader, cache: InputFileCache, spareMinimumSize: Int) {
        spares = SpareFiles(minimumSize: spareMinimumSize)
        var reader = reader
        reader.cache = cache
        self.reader = reader
    }
}

/// What the site on disk was built from.
struct Baseline: Sendable {
    /// What the pages were rendered from, for `PageDependencies`.
    var snapshot: SiteSnapshot
    /// The number of the store cache's decode the directory was planned from: a save whose
    /// decode patched that one's store patches the directory with the contacts it replaced
    /// (`Directory.patching`). The store itself is not kept: the next save's decode patches
    /// it in place, which would copy every contact while this held it too.
    var storeGeneration: Int
    /// The output folder.
    var outputPath: String
    /// Every output file's size, by path.
    var files: [String: Int]
    /// The manifest the build wrote.
    var manifest: ManifestIdentity
    /// The manifest's text as the last patch wrote it; nil when it is to be read from the output.
    var manifestText: [UInt8]? = nil
    /// The digest of what made the output's photo files that the manifest records
    /// (`SiteBuild.photosMaker`), or nil.
    var photos: String?
    /// The warnings the build reported, so a rebuild reports only new ones.
    var warnings: Set<String>
}

/// Tells the manifest this build wrote from one written by anyone else.
struct ManifestIdentity: Equatable, Sendable {
    /// The manifest file's inode.
    var inode: UInt64
    /// Its modification time, in nanoseconds since 1970.
    var modified: Int64

    /// The identity of the manifest in `outputPath`; nil when there is none.
    init?(outputPath: String) {
        var info = stat()
        guard stat(outputPath + "/" + Publisher.markerName, &info) == 0 else { return nil }
        inode = UInt64(info.st_ino)
        modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }
}

extension SiteBuild {
    /// The config the site was last read with by `rebuild` (nil until it has been read without
    /// error).
    public var config: SiteConfig? { watched?.config }

    /// Makes now what the next `rebuild` would otherwise make first, when the last one read
    /// the whole store: the position of each store file by path, and of each record by id.
    /// For a watch with nothing to do: the first save after a start, or after a file came or
    /// went, then takes as long as the saves after it.
    public func prepareForSaves() {
        guard let watched else { return }
        watched.reader.cache?.indexListing()
        watched.storeCache.prepareForPatches()
    }

    /// The size of the largest file the rebuilds read and keep (0 before the first): a save of
    /// that file reads it again, into a buffer this large.
    public var largestInputFileSize: Int { watched?.reader.cache?.largestFileSize ?? 0 }

    /// How many contacts the site the last rebuild published lists (0 before one did).
    public var publishedContactCount: Int { watched?.baseline?.snapshot.directory.entries.count ?? 0 }

    /// Removes what `rebuild` keeps beside the output between calls (the spare copies of large
    /// files): for when the watch stops.
    public func stopRebuilding() {
        watched?.spares.removeAll()
    }

    /// Brings the output up to date with the site's files, ages as of `today`, redoing only
    /// what the changed files touch: it reads only the files that changed, decodes only the
    /// records that changed, plans the directory anew (or patches it), renders only the pages
    /// the change touches (`PageDependencies`) and writes only the files whose bytes changed
    /// (`OutputPatcher`).
    ///
    /// The first rebuild, a change to the config or the date, a change that touches most pages,
    /// a new output folder, or an output someone else changed (its manifest is not the one this
    /// build wrote) publish the whole site instead, atomically. A rebuild whose input is bad
    /// writes nothing; the last good site stays, and the next rebuild compares with it.
    /// `isCancelled` is asked between pages; when it says yes, the rebuild stops and leaves
    /// the output as it was.
    ///
    /// `changed` names the files and folders that changed since the last call began, as
    /// absolute paths (a watcher's batch); nil when anything may have changed. Store files it
    /// does not name are then taken as they were, unread.
    public func rebuild(
        today: PartialDate, changed: Set<String>? = nil,
        isCancelled: @escaping @Sendable () -> Bool = { false }
    )
        -> BuildResult
    {
        let state =
            watched
            ?? WatchedState(
                reader: reader, cache: InputFileCache(), spareMinimumSize: spareMinimumSize)
        watched = state
        let input: SiteInput
        let readWarnings: [Diagnostic]
        do {
            (input, readWarnings) = try state.reader.read(changed: changed)
        } catch {
            state.lastInput = nil
            return BuildResult(outcome: .failed(error), outputPath: state.baseline?.outputPath ?? "")
        }
        state.config = input.config
        let changes = state.lastInput.map { Self.changes(from: $0, to: input, reader: state.reader) }
        var result = BuildResult(outcome: .unchanged, outputPath: output(input.config))
        if let refusal = outputRefusal(result.outputPath, config: input.config) {
            // Asked again on the next call, whatever changes.
            state.lastInput = nil
            result.outcome = .failed(refusal)
            return result
        }
        let lastUpdated = LastUpdated.day(
            storeModified: input.storeModified, sourceDateEpoch: sourceDateEpoch)
        if let changes, changes.isEmpty, today == state.lastToday, lastUpdated == state.lastUpdated {
            return result
        }
        state.lastInput = input
        state.lastToday = today
        state.lastUpdated = lastUpdated
        result.changedInputs = changes ?? []

        let fingerprint = InputFingerprint.of(
            input, today: today, lastUpdated: lastUpdated, generator: generator,
            storeDigests: state.storeDigests)
        // Before a first publish, the output may be one a build made as this one makes photos
        // wrote (a watch started on a site built before): its photo files are what libvips
        // would make, and are read back. Whether it is, is looked at only when a photo needs it.
        if state.baseline == nil {
            _ = readingPublishedPhotos(state.photoCache, from: result.outputPath)
        }
        let site: Site
        do {
            defer { state.photoCache.stopReadingPublished() }
            site = try Site.load(
                input, earlier: readWarnings, storeCache: state.storeCache, photoCache: state.photoCache,
                themeCache: state.themeCache)
        } catch {
            result.outcome = .failed(error)
            return result
        }
        result.counts = site.counts
        let known = state.baseline?.warnings ?? []
        result.warnings = site.warnings.filter { !known.contains($0.description) }
        guard !isCancelled() else {
            state.lastInput = nil
            result.outcome = .cancelled
            return result
        }
        publish(
            site, input: input, storeChanges: state.storeCache.lastChanges, today: today,
            lastUpdated: lastUpdated, fingerprint: fingerprint, into: &result, state: state,
            isCancelled: isCancelled)
        return result
    }

    /// Plans and renders the loaded site, and publishes the pages the change touched, or the
    /// whole site; records the new baseline.
    private func publish(
        _ site: Site, input: SiteInput, storeChanges: StoreDecodeCache.StoreChanges, today: PartialDate,
        lastUpdated: PartialDate?, fingerprint: String,
        into result: inout BuildResult,
        state: WatchedState, isCancelled: @escaping @Sendable () -> Bool
    ) {
        var baseline = state.baseline
        // The sizes of the output's files are moved out of the baseline while the output is
        // patched, so that updating them copies nothing (206,000 paths at 100,000 contacts);
        // they go back when the baseline is kept.
        var files = baseline?.files ?? [:]
        baseline?.files = [:]
        state.baseline?.files = [:]
        // The manifest's text likewise, so that patching it copies nothing (8 MB).
        var manifestText = baseline?.manifestText
        baseline?.manifestText = nil
        state.baseline?.manifestText = nil
        // The directory is patched when the store is the one it was planned from with a few
        // contacts replaced; when one of them moves (a name changed), it is moved into place.
        let replaced = baseline.flatMap { baseline in
            baseline.snapshot.config == site.config && storeChanges.base == baseline.storeGeneration
                && !storeChanges.replacedOthers
                ? (baseline.snapshot.directory, storeChanges.contacts) : nil
        }
        let patched = replaced.flatMap { Directory.patching($0, replacing: $1, in: site.store) }
        let directory =
            patched?.directory ?? replaced.flatMap { Directory.moving($0, replacing: $1, in: site.store) }
            ?? Directory(store: site.store, config: site.config)
        let base = baseline.flatMap { baseline in
            patched.map { SiteRenderer.Base(snapshot: baseline.snapshot, changedEntries: $0.changedEntries) }
        }
        let renderer = SiteRenderer(
            directory: directory, theme: site.theme, today: today, lastUpdated: lastUpdated,
            searchCache: state.searchCache, base: base, cardCache: state.cardCache,
            birthdayEventCache: state.birthdayEvents, photos: site.photos,
            earlier: base == nil ? baseline?.snapshot : nil)
        let snapshot = SiteSnapshot(
            config: site.config, renderer: renderer, theme: site.theme,
            siteTemplates: input.templates.mapValues(\.bytes))
        let outputPath = result.outputPath
        let warnings = Set(site.warnings.map(\.description))
        let photos = renderer.writesPhotos ? Self.photosMaker(generator: generator) : nil
        do {
            if let baseline, baseline.outputPath == outputPath,
                let identity = ManifestIdentity(outputPath: outputPath), identity == baseline.manifest,
                let patch = try patch(
                    from: baseline, files: &files, manifest: &manifestText, to: snapshot, renderer: renderer,
                    changedEntries: patched?.changedEntries,
                    fingerprint: fingerprint, photos: Self.patchedPhotos(photos, baseline: baseline),
                    isCancelled: isCancelled)
            {
                result.outcome = .published(patch.report)
                result.changedFiles = patch.changed
                Self.release(state.baseline, renderer)
                state.baseline = Baseline(
                    snapshot: snapshot, storeGeneration: storeChanges.generation, outputPath: outputPath,
                    files: files,
                    manifest: ManifestIdentity(outputPath: outputPath) ?? baseline.manifest,
                    manifestText: manifestText, photos: Self.patchedPhotos(photos, baseline: baseline),
                    warnings: warnings)
            } else {
                let report = try publishWhole(
                    renderer, outputPath: outputPath, fingerprint: fingerprint, photos: photos,
                    control: PublishControl(isCancelled: isCancelled))
                result.outcome = .published(report)
                result.isWhole = true
                result.warnings += report.warnings.map { Diagnostic(.warning, at: nil, $0.description) }
                Self.release(state.baseline, renderer)
                state.baseline = nil
                if let manifest = Self.manifest(outputPath),
                    let identity = ManifestIdentity(outputPath: outputPath)
                {
                    state.baseline = Baseline(
                        snapshot: snapshot, storeGeneration: storeChanges.generation,
                        outputPath: outputPath, files: manifest.files,
                        manifest: identity, photos: manifest.photos, warnings: warnings)
                    // An output found up to date was not rendered: the cards and the birthday
                    // events the next save reuses are made now, off the rebuilds' path (at once
                    // when they were rendered). Then the large files get spares, as a save
                    // leaves them.
                    let spares = state.spares
                    Self.cardMaker.async {
                        renderer.makeCards()
                        Self.primeSpares(spares, of: renderer, outputPath: outputPath)
                    }
                }
            }
        } catch is Cancelled, is Publisher.Cancelled {
            state.lastInput = nil
            state.baseline?.files = files
            result.outcome = .cancelled
        } catch {
            result.outcome = .failure(error)
            if case .notPublished = result.outcome {
                // The output may be half patched: the next rebuild publishes it whole.
                state.baseline = nil
                state.lastInput = nil
            } else {
                // Nothing was written (a template failed to render).
                state.baseline?.files = files
            }
        }
    }

    /// Makes spares of the large files a save writes through them (`contacts.vcf`, the
    /// birthday calendar, the manifest), as `renderer` made them, when the output holds those
    /// bytes: the first save after a whole publish then writes into them only what it changes.
    /// The calendar is made here when the build did not render it (an output found up to
    /// date), so that its events are kept for the first save too; the cache keeps them only if
    /// no save made a calendar meanwhile (`BirthdayEventCache.ticket`).
    private static func primeSpares(_ spares: SpareFiles, of renderer: SiteRenderer, outputPath: String) {
        let files = [SitePage.directoryCard, .birthdaysCalendar].compactMap { page in
            renderer.parts(of: page).map { (path: renderer.path(of: page), parts: $0) }
        }
        // A spare not made costs the first save the time it cost before, no more.
        try? OutputPatcher(outputPath: outputPath).primeSpares(spares, files: files)
    }

    /// Lets go of what the last build kept on another thread: freeing the pages' data of a large
    /// site takes long enough to notice, and the open pages need not wait for it.
    private static func release(_ baseline: Baseline?, _ renderer: SiteRenderer) {
        releaser.async { withExtendedLifetime((baseline, renderer)) {} }
    }

    /// The queue `release` frees on, below the rebuilds' priority.
    private static let releaser = DispatchQueue(label: "rolodeck.site-build.release", qos: .utility)

    /// The queue a whole build's cards are made on for the saves after it, below the rebuilds'
    /// priority.
    static let cardMaker = DispatchQueue(label: "rolodeck.site-build.cards", qos: .utility)

    /// Writes the pages the change touched, or returns nil when so many are touched that
    /// publishing the whole site is as quick (and atomic). `files` are the sizes of the output's
    /// files (the baseline's), updated for what is written and removed; `manifest` the text of
    /// its manifest, as `OutputPatcher.patch` takes it. `changedEntries` names the entries that
    /// changed when the directory was patched from the baseline's.
    ///
    /// The pages are written while the search index is still being built on its own thread,
    /// then its files: a save's pages (and `contacts.vcf`) do not wait for the index.
    private func patch(
        from baseline: Baseline, files: inout [String: Int], manifest: inout [UInt8]?,
        to snapshot: SiteSnapshot,
        renderer: SiteRenderer,
        changedEntries: [Int]?, fingerprint: String, photos: String?,
        isCancelled: @escaping @Sendable () -> Bool
    ) throws -> (report: PublishReport, changed: [String])? {
        /// Thrown from within the patch once the search files show it touches too much: the pages
        /// already written under temporary names are discarded.
        struct TooMany: Error {}
        // The cards the last whole build left to be made: waited for, not made twice at once.
        Self.cardMaker.sync {}
        var kept = 0
        var pageCount = 0
        // The contacts' rows, compared once for the entries, the pages and the search files.
        let rows = PageDependencies.RowWeighing(
            old: baseline.snapshot.directory, new: snapshot.directory, changedEntries: changedEntries)
        // The pages a change touches among `compared`, given the output's `files`; counts what
        // it leaves alone in `kept`.
        func touched(among compared: [SitePage], files known: [String: Int]) -> [SitePage] {
            var found = PageDependencies.changedPages(
                from: baseline.snapshot, to: snapshot, renderer: renderer, among: compared,
                changedEntries: changedEntries, rows: rows)
            let listed = Set(found)
            // Anything the output does not have yet is written, whatever the rules say.
            for page in compared {
                if known[renderer.path(of: page)] != nil {
                    kept += 1
                } else if !listed.contains(page) {
                    found.append(page)
                }
            }
            pageCount += compared.count
            return found
        }
        @Sendable func write(_ pages: [SitePage], with writer: PatchWriter) throws {
            try ParallelWork.forEach(pages.count, batch: 8) { index in
                if isCancelled() { throw Cancelled() }
                let page = pages[index]
                if let parts = renderer.parts(of: page) {
                    try writer.write(
                        renderer.path(of: page), parts: parts, differ: renderer.partsDiffer(page))
                } else {
                    try writer.write(renderer.path(of: page), try renderer.render(page))
                }
            }
        }
        // Only the changed entries' own pages when the others' need no weighing: they are the
        // baseline's, at the same paths, and the output has them.
        let entries = PageDependencies.entriesToCompare(
            from: baseline.snapshot, to: snapshot, changedEntries: changedEntries, rows: rows)
        let before = renderer.pagesBeforeSearch(ofEntries: entries)
        let leftOut = entries.map { 2 * (snapshot.directory.entries.count - $0.count) } ?? 0
        kept += leftOut
        pageCount += leftOut
        var written: [String] = []
        var removed: [String] = []
        let patcher = OutputPatcher(outputPath: baseline.outputPath)
        let report: PublishReport
        do {
            report = try patcher.patch(
                fingerprint: fingerprint, photos: photos, files: &files, manifest: &manifest,
                spares: watched?.spares
            ) {
                writer, known in
                // `contacts.vcf` holds every contact's card. A save that changes a card's length
                // shifts every byte after it, so its spare is written from there to the end: 15
                // to 45 ms at 100,000 contacts. It is written on a thread of its own while the
                // other pages and the search files are made and written; when a card is known to
                // have changed, from before the pages' rules are weighed.
                let everyCardFirst = before.contains(.directoryCard) && renderer.partsDiffer(.directoryCard)
                var search: [SitePage] = []
                try ParallelWork.alongside(throwing: {
                    if everyCardFirst { try write([.directoryCard], with: writer) }
                }) {
                    let pages = touched(among: before, files: known)
                    // Most of a site is pages: when they alone are too many, nothing is written.
                    guard pages.count * 2 <= pageCount else { throw TooMany() }
                    try write(pages.filter { !everyCardFirst || $0 != .directoryCard }, with: writer)
                    search = renderer.searchFiles
                    let searchPages = touched(among: search, files: known)
                    guard (pages.count + searchPages.count) * 2 <= pageCount else { throw TooMany() }
                    try write(searchPages, with: writer)
                }
                written = writer.writtenPaths
                // When the output has exactly the files it keeps, it has no other to remove (the
                // common case: a save that adds no page), and the set of every path is not needed.
                let missing = known.count - kept
                if missing > 0 {
                    removed = Self.removedPaths(
                        missing: missing, among: known, search: search, before: before, baseline: baseline,
                        snapshot: snapshot, renderer: renderer)
                }
                return removed
            }
        } catch is TooMany {
            return nil
        }
        return (report, (written + removed).sorted())
    }

    /// The `missing` files of the output (`known`) that no page of `renderer` has any more,
    /// sorted; `before` and `search` are the pages a patch listed. Most often a search piece
    /// went: when the search files the baseline had and no page has now account for every file
    /// missing, they are the ones, found without listing every path of the site (a contact's
    /// files are under `contacts/`, never where a search file was); or those and the files of
    /// the contacts whose slugs went.
    private static func removedPaths(
        missing: Int, among known: [String: Int], search: [SitePage], before: [SitePage], baseline: Baseline,
        snapshot: SiteSnapshot, renderer: SiteRenderer
    ) -> [String] {
        var paths = Set(search.map(renderer.path(of:)))
        for page in before {
            switch page {
            case .contact, .contactCard: continue
            default: paths.insert(renderer.path(of: page))
            }
        }
        var gone = baseline.snapshot.search.files.map(\.path).filter {
            known[$0] != nil && !paths.contains($0)
        }
        // Next, the files of contacts whose slug went (a contact whose id changed, when the
        // directory moved it into place): those of the pages written are kept.
        if gone.count < missing,
            let slugs = snapshot.directory.slugsGone(since: baseline.snapshot.directory)
        {
            var written: Set<String> = []
            for page in before {
                switch page {
                case .contact, .contactCard: written.insert(renderer.path(of: page))
                default: continue
                }
            }
            for slug in slugs {
                let files = SiteRenderer.contactPaths(slug: slug)
                for path in [files.page, files.card] where known[path] != nil && !written.contains(path) {
                    gone.append(path)
                }
            }
        }
        if gone.count == missing { return gone.sorted() }
        paths.formUnion(renderer.pagesBeforeSearch.map(renderer.path(of:)))
        return known.keys.filter { !paths.contains($0) }.sorted()
    }

    /// Every file the output's manifest lists, with its size, and the digest of what made its
    /// photos' files that it records.
    private static func manifest(_ outputPath: String) -> (files: [String: Int], photos: String?)? {
        guard let folder = DirectoryHandle.open(outputPath),
            let bytes = folder.contents(of: Publisher.markerName),
            let manifest = OutputManifest(bytes: bytes)
        else { return nil }
        var files: [String: Int] = [:]
        for file in manifest.files { files[file.path] = file.size }
        return (files, manifest.photos)
    }

    /// What a patch of `baseline`'s output records as the maker of its photos' files, when
    /// this build's is `photos` (nil when the site writes none): this build's when every
    /// photo file the output keeps was made the same way (the baseline's manifest records the
    /// same, or the baseline had none); nil when some were made otherwise (an output found up
    /// to date after an upgrade of libvips), so that no later build takes them for its own.
    static func patchedPhotos(_ photos: String?, baseline: Baseline) -> String? {
        guard let photos, baseline.photos == photos || !baseline.snapshot.writesPhotos else { return nil }
        return photos
    }

    /// The input files whose bytes changed, came or went, as messages name them.
    static func changes(from old: SiteInput, to new: SiteInput, reader: SiteReader) -> [String] {
        var changed: Set<String> = []
        if old.configBytes != new.configBytes { changed.insert(reader.display(SiteConfig.fileName)) }
        func compare(_ before: StoreFile, _ file: StoreFile) {
            // A file taken over unread is the very same text.
            if before.source === file.source, before.layout == file.layout,
                before.collection == file.collection
            {
                return
            }
            if !before.source.bytes.hasSameBytes(as: file.source.bytes) || before.layout != file.layout {
                changed.insert(file.source.path)
            } else if before.collection != file.collection {
                let folder = file.source.path.split(separator: "/", omittingEmptySubsequences: false)
                    .dropLast()
                changed.insert(folder.joined(separator: "/") + "/displayname")
            }
        }
        // The same files in the same places, the common case, are compared side by side: only
        // those outside the chunks the two lists share.
        let unshared = new.storeFiles.rangesNotShared(with: old.storeFiles)
        if old.storeFiles.count == new.storeFiles.count,
            unshared.allSatisfy({ range in
                range.allSatisfy { position in
                    let before = old.storeFiles[position], file = new.storeFiles[position]
                    return before.source === file.source || before.source.path == file.source.path
                }
            })
        {
            for position in unshared.joined() { compare(old.storeFiles[position], new.storeFiles[position]) }
        } else {
            var oldStore: [String: StoreFile] = [:]
            for file in old.storeFiles { oldStore[file.source.path] = file }
            var newStore: Set<String> = []
            for file in new.storeFiles {
                newStore.insert(file.source.path)
                if let before = oldStore[file.source.path] {
                    compare(before, file)
                } else {
                    changed.insert(file.source.path)
                }
            }
            changed.formUnion(oldStore.keys.filter { !newStore.contains($0) })
        }
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
