import Synchronization
import RolodeckCore
import RolodeckStore
import RolodeckPlan

/// A site ready to render: its config, its validated store and its compiled theme.
///
/// `load` runs the load stage of the pipeline (parse and validate everything, collecting every
/// problem); `render` runs plan and render, handing each finished file to a closure, which the
/// CLI connects to the publisher.
public struct Site: Sendable {
    /// The settings.
    public let config: SiteConfig
    /// The validated store.
    public let store: Store
    /// The compiled templates and static files.
    public let theme: Theme
    /// Problems that did not stop the build.
    public let warnings: [Diagnostic]
    /// The files written for the contacts' photos.
    public let photos: SitePhotos
    /// How many contacts and todos of the store are left out because their app marks them
    /// private (`leavingOutPrivate`), besides those the config hides.
    public let privateRecords: PrivateRecords

    /// Validates the store and compiles the templates; throws every error found (with the
    /// warnings), or returns the site with its warnings. `earlier` are diagnostics from reading
    /// the input (the config's warnings), reported together with these. `storeCache` lets a
    /// watched site decode only the store files and records that changed, `photoCache` make
    /// the files only of photos that are new, and `themeCache` compile the templates only when
    /// they or the static files changed.
    public static func load(
        _ input: SiteInput, earlier: [Diagnostic] = [], storeCache: StoreDecodeCache? = nil,
        photoCache: PhotoCache? = nil, themeCache: ThemeCache? = nil
    ) throws(DiagnosticError) -> Site {
        var diagnostics = earlier
        var (store, storeDiagnostics) = StoreDecoder.decode(input.storeFiles, cache: storeCache)
        diagnostics += storeDiagnostics
        // The config the site is planned with: the private contacts among those it hides.
        var config = input.config
        let privateRecords = leavingOutPrivate(of: &store, config: &config)
        let (photos, photoDiagnostics) = preparePhotos(of: &store, config: config, cache: photoCache)
        diagnostics += photoDiagnostics
        var theme: Theme?
        do {
            if let themeCache {
                theme = try themeCache.theme(siteTemplates: input.templates, siteAssets: input.assets)
            } else {
                theme = try Theme.load(siteTemplates: input.templates, siteAssets: input.assets)
            }
            diagnostics += theme?.warnings ?? []
        } catch {
            diagnostics += error.diagnostics
        }
        if !input.config.hiddenContacts.isEmpty {
            diagnostics += unknownHiddenContacts(config, store: store)
        }
        guard let theme, !diagnostics.containsErrors else { throw DiagnosticError(diagnostics) }
        return Site(
            config: config, store: store, theme: theme, warnings: diagnostics.sortedByLocation(),
            photos: photos, privateRecords: privateRecords)
    }

    /// Makes the files of the photos the site shows: none when the config hides photos (then
    /// no contact keeps one, so no page or vCard shows it), and none of hidden contacts.
    private static func preparePhotos(of store: inout Store, config: SiteConfig, cache: PhotoCache?)
        -> (SitePhotos, [Diagnostic])
    {
        guard store.contacts.contains(where: { $0.photo != nil }) else { return (SitePhotos(), []) }
        if !config.shows(.photo) || !config.hiddenContacts.isEmpty {
            for index in store.contacts.indices where store.contacts[index].photo != nil {
                if !config.shows(.photo) || config.hiddenContacts.contains(store.contacts[index].id) {
                    store.contacts[index].photo = nil
                }
            }
        }
        return SitePhotos.make(for: &store.contacts, cache: cache)
    }

    /// A diagnostic for each id in `hiddenContacts` that names no contact. An id one typo away
    /// from a contact's is an error, as a misspelt setting is: the build would publish the
    /// contact it was meant to hide. Any other is a warning, for a contact since deleted from
    /// the store should not stop the cron job that publishes the rest.
    private static func unknownHiddenContacts(_ config: SiteConfig, store: Store) -> [Diagnostic] {
        // Only called when some are named: hashing every contact's id is work a large store notices.
        let ids = Set(store.contacts.map(\.id))
        let unknown = config.hiddenContacts.filter { !ids.contains($0) }
        guard !unknown.isEmpty else { return [] }
        let shown = Array(ids.subtracting(config.hiddenContacts))
        return unknown.sorted().map { id in
            let location = config.hiddenContactLocations[id]
            let message = "hiddenContacts names \"\(id)\", which is not in the store"
            guard let meant = Suggestion.closest(to: id, in: shown) else {
                return Diagnostic(.warning, at: location, message)
            }
            return Diagnostic(
                .error, at: location,
                message + "; did you mean \"\(meant)\"? (that contact would be published)")
        }
    }

    /// How many of the store's contacts the config hides, which the site leaves out (those
    /// left out as private not among them).
    public var hiddenContactCount: Int {
        // Only when some are named: hashing every contact's id is work a large store notices.
        guard !config.hiddenContacts.isEmpty else { return 0 }
        let hidden = store.contacts.count { config.hiddenContacts.contains($0.id) }
        return hidden - privateRecords.contacts
    }

    /// Plans the directory and renders every page and static file, calling `emit` with each
    /// file's output path and bytes (from several threads at once); `progress` hears how many of
    /// the files are done.
    func render(today: PartialDate, lastUpdated: PartialDate? = nil, progress: (@Sendable (Int, Int) -> Void)? = nil,
                       emit: @Sendable (String, [UInt8]) throws -> Void) throws {
        try renderer(today: today, lastUpdated: lastUpdated).render(progress: progress, emit: emit)
    }

    /// Plans the directory and returns what renders it. The renderer keeps the planned directory,
    /// not the store: a caller that lets go of the site before rendering frees the store's copy
    /// of every contact.
    public func renderer(today: PartialDate, lastUpdated: PartialDate? = nil) -> SiteRenderer {
        SiteRenderer(
            directory: Directory(store: store, config: config), theme: theme, today: today, lastUpdated: lastUpdated,
            photos: photos)
    }

    /// The whole site in memory, by output path: for tests and tools that want to look at the
    /// pages without a disk.
    func renderFiles(today: PartialDate, lastUpdated: PartialDate? = nil) throws -> [String: [UInt8]] {
        let files = Mutex<[String: [UInt8]]>([:])
        try render(today: today, lastUpdated: lastUpdated) { path, bytes in
            files.withLock { $0[path] = bytes }
        }
        return files.withLock { $0 }
    }
}
