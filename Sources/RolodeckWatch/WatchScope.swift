import Foundation
import RolodeckCore

/// Which files of a site can change its build, so the watcher watches those folders and lets
/// everything else (editor swap files, the output it writes itself, a `.git` folder) pass.
///
/// It mirrors what `SiteReader` reads: `rolodeck.json`; in the store, JSON files, `.vcf`,
/// `.vcard` and `.ics` files and vdir `displayname` files, and any file in its `photos/` folder;
/// anything in `Templates/` and `Public/`; never hidden files, files ending in `~`, `.swp` or `.tmp`, or the output folder.
public struct WatchScope: Sendable, Equatable {
    /// The site folder, absolute.
    let siteFolder: String
    /// The store folder, absolute.
    let store: String
    /// The output folder, absolute, when it is known.
    let output: String?

    /// Creates the scope of a site: `store` is relative to the site folder or absolute (the
    /// config's `store`), `output` the output folder as given (relative to the current folder).
    public init(siteFolder: URL, store: String, output: String?) {
        self.siteFolder = AbsolutePath.of(siteFolder.path)
        // As SiteReader does.
        self.store = AbsolutePath.of(store.hasPrefix("/") ? store : self.siteFolder + "/" + store)
        self.output = output.map { AbsolutePath.of(URL(fileURLWithPath: $0).path) }
    }

    /// The folders watched with everything under them.
    var trees: [String] {
        var trees = [store, siteFolder + "/Templates", siteFolder + "/Public"]
        // A store that is the site folder, or inside Templates/ or Public/, is covered once.
        trees = trees.filter { tree in !trees.contains { $0 != tree && AbsolutePath.isInside(tree, $0) } }
        return trees
    }

    /// Whether a folder's contents matter (and it is watched, with its subfolders).
    func isWatched(folder path: String) -> Bool {
        if let output, AbsolutePath.isWithin(path, output) { return false }
        guard let tree = trees.first(where: { AbsolutePath.isWithin(path, $0) }) else { return false }
        let below = path.dropFirst(tree.count).split(separator: "/")
        return !below.contains { $0.hasPrefix(".") }
    }

    /// Whether a change to `name` inside `folder` can change what a build reads.
    func isRelevant(_ name: String, in folder: String, isFolder: Bool) -> Bool {
        guard !Self.isIgnoredName(name) else { return false }
        let path = folder + "/" + name
        if let output, AbsolutePath.isWithin(path, output) { return false }
        if folder == siteFolder {
            if name == SiteConfig.fileName { return true }
            if trees.contains(where: { AbsolutePath.isWithin($0, path) }) { return true }
        }
        if trees.contains(where: { AbsolutePath.isWithin($0, path) }) { return true }
        guard isWatched(folder: folder) else { return false }
        if isFolder || !AbsolutePath.isWithin(folder, store) { return true }
        // Photo files are read whatever their names: the bytes tell the format.
        let photos = store + "/photos"
        if AbsolutePath.isWithin(folder, photos) { return true }
        let lowered = name.lowercased()
        return name == "displayname"
            || [".json", ".vcf", ".vcard", ".ics"].contains { lowered.hasSuffix($0) }
    }

    /// Names `SiteReader` never reads: hidden files and editors' backup, swap and temporary files.
    static func isIgnoredName(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasSuffix(".swp") || name.hasSuffix(".tmp")
    }
}
