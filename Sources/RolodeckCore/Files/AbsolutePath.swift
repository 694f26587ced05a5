import Foundation

/// Paths made absolute and tidy, so that the watcher and the reader name a file the same way.
public enum AbsolutePath {
    /// `path` made absolute (against the current folder) without `.`, `..`, doubled or trailing
    /// slashes. Links are not resolved: the watcher reports paths as it was given them.
    public static func of(_ path: String) -> String {
        let full = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var parts: [Substring] = []
        for part in full.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether the absolute `path` is strictly inside the absolute `folder` (the root holds
    /// every other path).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder == "/" ? "/" : folder + "/") && path != folder
    }

    /// Whether the absolute `path` is `folder` itself or inside it.
    public static func isWithin(_ path: String, _ folder: String) -> Bool {
        path == folder || isInside(path, folder)
    }

    /// `path` with every link resolved (`realpath`), absolute; nil when it does not exist or
    /// cannot be resolved.
    public static func resolved(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
