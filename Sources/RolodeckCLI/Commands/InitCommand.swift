import Foundation
import RolodeckCore

/// `rolodeck init DIR`: a new site folder with a config and a small sample store.
enum InitCommand {
    /// The command's name, options and help text.
    static let command = Command(
        name: "init",
        brief: "Create a new site folder with a small sample store",
        summary: "Create a new site folder with rolodeck.json and a small sample store.",
        usage: "DIR",
        positionals: ["DIR"],
        completesPositionals: .folder,
        options: [],
        details: "Then edit DIR/store/*.json and run 'rolodeck build --site DIR'.",
        run: run)

    /// Runs `rolodeck init` with its checked arguments; returns the exit status.
    static func run(_ arguments: Arguments, _ environment: [String: String], _ console: Console) -> ExitCode {
        guard let path = arguments.positionals.first else {
            UsageError(command: "init", message: "missing folder: rolodeck init DIR").lines.forEach(
                console.printError)
            return .usage
        }
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        let manager = FileManager.default
        for existing in [SiteConfig.fileName, "store"]
        where manager.fileExists(atPath: folder.appendingPathComponent(existing).path) {
            console.report(
                Diagnostic(.error, at: nil, "\(path)/\(existing) already exists; init only creates new sites")
            )
            return .failure
        }
        do {
            try manager.createDirectory(
                at: folder.appendingPathComponent("store"), withIntermediateDirectories: true)
            for (name, text) in StarterSite.files {
                // withoutOverwriting: never replace a file that appeared in the meantime.
                try Data(text.utf8).write(
                    to: folder.appendingPathComponent(name), options: .withoutOverwriting)
            }
        } catch {
            console.report(
                Diagnostic(.error, at: nil, "cannot create \(path): \(error.localizedDescription)"))
            return .failure
        }
        console.print(
            "Created \(path). Edit \(path)/store/contacts.json, then run: rolodeck build --site \(path)")
        return .success
    }
}
