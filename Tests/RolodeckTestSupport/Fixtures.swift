import Foundation

/// Paths the tests need: the package root, found from this file, and the shared corpora and tools
/// beside it.
package enum Fixtures {
    /// The folder holding Package.swift.
    package static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// The bytes of a photo of `Tests/Photos` (`face.png`, `face-gps.jpg`, …).
    package static func photo(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: packageRoot.appendingPathComponent("Tests/Photos/" + name)))
    }

    /// `../shared/corpora` (or `$ROLODECK_CORPORA`); nil when it is not there.
    package static let corpora: URL? = {
        let candidate =
            ProcessInfo.processInfo.environment["ROLODECK_CORPORA"].map(URL.init(fileURLWithPath:))
            ?? packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora")
        return FileManager.default.fileExists(atPath: candidate.path) ? candidate : nil
    }()

    /// `../shared/tools/gen-store.py`, which writes synthetic stores; nil when it is not there.
    package static let storeGenerator: URL? = {
        let url = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/tools/gen-store.py")
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }()

    /// Writes a store of `contacts` generated contacts into `folder/store` with
    /// `gen-store.py`; `layout` is "array" (one `contacts.json`) or "files" (one file each).
    package static func generateStore(into folder: URL, contacts: Int, seed: Int, layout: String = "array")
        throws
    {
        guard let storeGenerator else { throw GeneratorFailure.missing }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", storeGenerator.path, "--contacts", "\(contacts)", "--seed", "\(seed)",
            "--layout", layout, "--out", folder.path,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw GeneratorFailure.exited(process.terminationStatus) }
    }

    /// Why `generateStore` wrote no store.
    package enum GeneratorFailure: Error {
        /// `../shared/tools/gen-store.py` is not there.
        case missing
        /// It ended with this status.
        case exited(Int32)
    }

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
