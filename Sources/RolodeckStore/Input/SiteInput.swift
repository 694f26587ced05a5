import RolodeckCore

/// Everything a build reads, held in memory: the config, the store files, and the site's own
/// templates and static files (the built-in theme fills in the rest).
///
/// A test builds a whole site from one of these without touching the disk.
public struct SiteInput: Sendable {
    /// The settings from `rolodeck.json` (the defaults when the site has none).
    public var config: SiteConfig
    /// The bytes of `rolodeck.json`, for the input fingerprint.
    public var configBytes: [UInt8] = []
    /// The store's files, in the order they are read; in chunks, which the versions of a
    /// watched store share.
    public var storeFiles: ChunkedArray<StoreFile>
    /// The site's own templates by file name (`contact.mustache`), overriding the built-in ones.
    public var templates: [String: SourceText]
    /// The site's own static files by relative path (`style.css`, `img/logo.svg`).
    public var assets: [String: [UInt8]]
    /// The status each file had when it was read, by the path it was opened by, when the reader
    /// was asked to note them (`SiteReader.notesStatuses`).
    public var statuses: [String: FileStatus] = [:]
    /// When the newest of the store's files last changed, in nanoseconds since 1970: the "last
    /// updated" date of the site. Nil when the reader kept no statuses (`check`, or an input
    /// made in code).
    public var storeModified: Int64?

    /// Creates an input.
    public init(config: SiteConfig = SiteConfig(), storeFiles: [StoreFile] = [], templates: [String: SourceText] = [:],
                assets: [String: [UInt8]] = [:]) {
        self.config = config
        self.storeFiles = ChunkedArray(storeFiles)
        self.templates = templates
        self.assets = assets
    }
}
