import Foundation

/// Paths the tests need: the package root, found from this file, and the shared corpora beside it.
package enum Fixtures {
    /// The folder holding Package.swift.
    package static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// `../shared/corpora` (or `$ROLODECK_CORPORA`); nil when it is not there.
    package static let corpora: URL? = {
        let candidate = ProcessInfo.processInfo.environment["ROLODECK_CORPORA"].map(URL.init(fileURLWithPath:))
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// A fresh empty folder, inside one folder per test run that is removed when the run ends.
    package static func temporaryFolder(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = scratchRoot.appendingPathComponent("\(safe)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The run's scratch folder; `atexit` removes it, so tests leave nothing behind.
private let scratchRoot: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("rolodeck-kit-tests-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchRoot) }
    return url
}()
