import Foundation
import Testing
import RolodeckTestSupport

/// Runs the built `rolodeck` binary and prepares site folders for it.
enum CLI {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url.deleteLastPathComponent()
        }
        return url
    }()

    /// The binary SwiftPM built beside this test bundle.
    static let binary: URL = {
        let candidates = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent()]
            .map { $0.appendingPathComponent("rolodeck") }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[1]
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `rolodeck` with arguments, in a folder, with extra environment variables.
    @discardableResult
    /// This process's environment with `SOURCE_DATE_EPOCH` set (unless it is) and `extra` on top,
    /// so every run of the binary computes ages for the same day.
    static func environment(adding extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SOURCE_DATE_EPOCH"] = environment["SOURCE_DATE_EPOCH"] ?? "1795000000"
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// The arguments of `/bin/sh` that run `prefix` (a `ulimit`), then `exec` the binary with
    /// `arguments`, so that the process is the binary's. `env --default-signal` starts it with
    /// every signal unblocked and handled by default, as a shell in a terminal does: this test
    /// process's threads block most signals, and a child keeps the mask it is started with (a
    /// blocked SIGXFSZ let a write past `ulimit -f` fail without the signal that ends a process).
    static func shellArguments(_ prefix: String, running arguments: [String]) -> [String] {
        let quoted = ([binary.path] + arguments).map {
            "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        return ["-c", prefix + "; exec env --default-signal " + quoted.joined(separator: " ")]
    }

    /// Makes `process` run the binary with `arguments`, through `/bin/sh` when there is a
    /// `shellPrefix` to run first (`shellArguments`).
    static func prepare(_ process: Process, _ arguments: [String], shellPrefix: String?) {
        if let shellPrefix {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = shellArguments(shellPrefix, running: arguments)
        } else {
            process.executableURL = binary
            process.arguments = arguments
        }
    }

    static func run(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
                    shellPrefix: String? = nil) throws -> Result {
        let process = Process()
        // A shell prefix sets limits (ulimit) before the binary starts.
        prepare(process, arguments, shellPrefix: shellPrefix)
        if let folder { process.currentDirectoryURL = folder }
        process.environment = Self.environment(adding: environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read on a thread of its own: read after standard output, a command
        // that fills the pipe's 64 KB with errors (a sanitizer's report) would wait forever for
        // a reader, and the test with it.
        let errReader = ErrorReader(err.fileHandleForReading)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = errReader.wait()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    /// A fresh temporary folder, inside one folder per test run that is removed when the run ends.
    static func temporaryFolder(_ name: String = #function) throws -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let url = scratchRoot.appendingPathComponent("\(safe)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A site folder with `files` (paths under it, and their text) in a temporary folder, and
    /// the output folder beside it.
    static func site(_ files: [String: String], name: String = #function) throws -> (site: URL, out: URL) {
        let site = try temporaryFolder(name).appendingPathComponent("site")
        for (path, text) in files {
            let url = site.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return (site, site.deletingLastPathComponent().appendingPathComponent("out"))
    }

    /// A copy of the demo site in a temporary folder, so a test may change its store.
    static func copyOfDemo(_ name: String = #function) throws -> URL {
        let folder = try temporaryFolder(name).appendingPathComponent("site")
        try FileManager.default.copyItem(at: packageRoot.appendingPathComponent("Examples/demo"), to: folder)
        return folder
    }

    /// Every file under a folder with its bytes and modification time.
    static func snapshot(_ root: URL) throws -> [String: (bytes: Data, modified: Date)] {
        var result: [String: (Data, Date)] = [:]
        let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys)
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: Set(keys))
            guard values.isRegularFile == true else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            result[relative] = (try Data(contentsOf: url), values.contentModificationDate ?? .distantPast)
        }
        return result
    }

    /// The files' bytes only, for equality checks; the manifest's without the line that depends
    /// on when the build ran (`ManifestLines.withoutStatuses`).
    static func contents(_ root: URL) throws -> [String: Data] {
        var files = try snapshot(root).mapValues(\.bytes)
        files[".rolodeck"] = files[".rolodeck"].map(ManifestLines.withoutStatuses)
        return files
    }
}

/// The run's scratch folder; `atexit` removes it, so tests leave nothing behind.
private let scratchRoot: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("rolodeck-cli-tests-\(ProcessInfo.processInfo.processIdentifier)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: scratchRoot) }
    return url
}()

/// Reads a pipe to its end on a thread of its own; `wait` returns what it read.
private final class ErrorReader: @unchecked Sendable {
    /// What was read; written by the thread before it signals `done`, read after.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Waits for the end of the pipe and returns everything read.
    func wait() -> Data {
        done.wait()
        return data
    }
}
