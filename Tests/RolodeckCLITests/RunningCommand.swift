import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A `rolodeck` command that keeps running (`watch`, `serve`), with its output collected line
/// by line as it comes, so a test can wait for a line and then look at the files.
final class RunningCommand: @unchecked Sendable {
    let process = Process()
    private let lines = Mutex<(out: [String], error: [String])>(([], []))
    private let readers = DispatchGroup()

    /// Starts `rolodeck` with arguments (`SOURCE_DATE_EPOCH` set, as `CLI.run` does), through
    /// `/bin/sh` when there are shell commands to run first (`ulimit`), as `CLI.run` does; the
    /// shell then `exec`s the binary, so the process is the command's.
    init(_ arguments: [String], environment: [String: String] = [:], shellPrefix: String? = nil) throws {
        CLI.prepare(process, arguments, shellPrefix: shellPrefix)
        process.environment = CLI.environment(adding: environment)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        collect(out.fileHandleForReading, error: false)
        collect(err.fileHandleForReading, error: true)
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func collect(_ handle: FileHandle, error: Bool) {
        readers.enter()
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    lines.withLock { error ? $0.error.append(line) : $0.out.append(line) }
                }
            }
            readers.leave()
        }
    }

    /// The lines printed to standard output so far.
    var stdout: [String] { lines.withLock { $0.out } }

    /// The lines printed to standard error so far.
    var stderr: [String] { lines.withLock { $0.error } }

    /// Waits until a line of standard output (or error) satisfies `matches`, after the first
    /// `skipping` lines; returns it, or nil after `timeout` seconds or when the command ends.
    @discardableResult
    func waitForLine(
        onError: Bool = false, skipping: Int = 0, timeout: Double = 60,
        _ matches: (String) -> Bool
    ) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let current = onError ? stderr : stdout
            if let line = current.dropFirst(skipping).first(where: matches) { return line }
            if !process.isRunning {
                readers.wait()
                return (onError ? stderr : stdout).dropFirst(skipping).first(where: matches)
            }
            usleep(10_000)
        }
        return nil
    }

    /// Waits until `condition` holds (checked every 50 ms), or `timeout` seconds pass.
    static func eventually(timeout: Double = 60, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if try condition() { return true }
            usleep(50_000)
        } while Date() < deadline
        return try condition()
    }

    /// Sends a signal and waits for the command to end; returns its exit status, or -1 when it
    /// had to be killed because it did not end within 30 seconds.
    @discardableResult
    func stop(_ signal: Int32 = SIGINT) -> Int32 {
        if process.isRunning { kill(process.processIdentifier, signal) }
        let deadline = Date().addingTimeInterval(30)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            readers.wait()
            return -1
        }
        process.waitUntilExit()
        readers.wait()
        return process.terminationStatus
    }
}
