/// Where a build is, for a progress line: `SiteBuild.build` reports each step as it starts, and
/// the pages as they are written.
public enum BuildProgress: Sendable, Equatable {
    /// Reading the site's files (first only their statuses, to tell whether anything changed).
    case reading
    /// Decoding and checking the store, the config and the templates.
    case decoding
    /// Sorting the contacts into the directory's sections, and starting the search index.
    case sorting(contacts: Int)
    /// Another build of the same output folder holds its lock; this one waits for it.
    case waiting
    /// Rendering the pages and writing them: `done` files so far, of `total` once the search
    /// index is built and the number of files is known.
    case rendering(done: Int, total: Int?)
    /// All `files` are written; the new site is being flushed to disk and swapped in, and the old
    /// one removed.
    case publishing(files: Int)
}
