import RolodeckCore
import Synchronization

/// The theme a watched site was last loaded with, and the site's templates and static files it
/// was compiled from: a save that changes neither (a contact's, the common case) takes it as it
/// was instead of compiling every template again (1.7 ms a save).
public final class ThemeCache: Sendable {
    /// The site's templates and static files the kept theme was compiled from.
    private struct Kept {
        var templates: [String: SourceText]
        var assets: [String: [UInt8]]
        var theme: Theme
    }

    private let kept = Mutex<Kept?>(nil)

    /// An empty cache.
    public init() {}

    /// The theme of `siteTemplates` and `siteAssets`: the kept one when it was compiled from the
    /// same files, else compiled (and kept, when it compiles).
    func theme(siteTemplates: [String: SourceText], siteAssets: [String: [UInt8]]) throws(DiagnosticError)
        -> Theme
    {
        if let kept = kept.withLock({ $0 }), Self.same(kept.templates, siteTemplates),
            kept.assets == siteAssets
        {
            return kept.theme
        }
        let theme = try Theme.load(siteTemplates: siteTemplates, siteAssets: siteAssets)
        kept.withLock { $0 = Kept(templates: siteTemplates, assets: siteAssets, theme: theme) }
        return theme
    }

    /// Whether two sets of templates have the same names, paths and bytes. A template the reader
    /// took over unread is the very same text, and its bytes compare at once.
    private static func same(_ one: [String: SourceText], _ other: [String: SourceText]) -> Bool {
        one.count == other.count
            && one.allSatisfy { name, text in
                guard let found = other[name] else { return false }
                return found === text || (found.path == text.path && found.bytes == text.bytes)
            }
    }
}
