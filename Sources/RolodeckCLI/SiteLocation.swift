import Foundation
import RolodeckCore
import RolodeckBuild

/// The site folder a command works on, from `--site` (default: the current folder).
struct SiteLocation {
    /// The folder.
    var folder: URL
    /// How messages name it: as the user typed it, "" for the current folder.
    var displayPath: String

    /// The folder `--site` names, or the current one.
    init(_ arguments: Arguments) {
        let given = arguments.value("--site")
        displayPath = given.map { $0.hasSuffix("/") && $0.count > 1 ? String($0.dropLast()) : $0 } ?? ""
        folder = URL(fileURLWithPath: given ?? FileManager.default.currentDirectoryPath, isDirectory: true)
    }

    /// Says why the folder cannot be a site, or nil when it can.
    func problem() -> Diagnostic? {
        var isFolder: ObjCBool = false
        let name = displayPath.isEmpty ? "the current folder" : displayPath
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue
        else {
            return Diagnostic(.error, at: nil, "\(name) does not exist or is not a folder")
        }
        let hasConfig = FileManager.default.fileExists(
            atPath: folder.appendingPathComponent(SiteConfig.fileName).path)
        let hasStore = FileManager.default.fileExists(atPath: folder.appendingPathComponent("store").path)
        guard hasConfig || hasStore else {
            let suggestion = displayPath.isEmpty ? "DIR" : displayPath
            return Diagnostic(
                .error, at: nil,
                "\(name) is not a Rolodeck site: it has no rolodeck.json and no "
                    + "store/ folder; create one with 'rolodeck init \(suggestion)'")
        }
        return nil
    }

    /// The site's pipeline, writing where `output(_:config:)` says; throws when the folder
    /// cannot be a site.
    func siteBuild(_ arguments: Arguments) throws(DiagnosticError) -> SiteBuild {
        if let problem = problem() { throw DiagnosticError([problem]) }
        return uncheckedSiteBuild(arguments)
    }

    /// The site's pipeline, for a folder `problem()` has found no problem with, or that may
    /// become a site later (watch keeps going).
    func uncheckedSiteBuild(_ arguments: Arguments) -> SiteBuild {
        SiteBuild(folder: folder, displayPath: displayPath, generator: Generator.identity) { config in
            output(arguments, config: config)
        }
    }

    /// The output folder: `--out`, else the config's `output` inside the site folder.
    func output(_ arguments: Arguments, config: SiteConfig) -> String {
        if let out = arguments.value("--out") { return out }
        if config.output.hasPrefix("/") { return config.output }
        return displayPath.isEmpty ? config.output : displayPath + "/" + config.output
    }
}
