import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Makes a folder refuse new entries and removals, as a folder of another user does: by its
/// mode for a user, by the immutable attribute (`chattr +i`) for root, whom modes do not stop.
package enum Unremovable {
    /// Why the tests that need it cannot run here, or nil when they can.
    package static let unavailable: String? = {
        guard geteuid() == 0 else { return nil }
        let probe = FileManager.default.temporaryDirectory
            .appendingPathComponent("rolodeck-chattr-probe-\(getpid())")
        try? FileManager.default.createDirectory(at: probe, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: probe) }
        guard chattr("+i", probe.path) else {
            return "running as root, where modes do not stop deletion, and chattr +i does not work here "
                + "(it needs CAP_LINUX_IMMUTABLE and a file system that has the attribute)"
        }
        _ = chattr("-i", probe.path)
        return nil
    }()

    /// Makes `folder` unremovable and unwritable; returns what undoes it.
    package static func make(_ folder: URL) throws -> Undo {
        if geteuid() != 0 {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        } else if !chattr("+i", folder.path) {
            throw Failure(folder: folder.path)
        }
        return Undo(path: folder.path)
    }

    /// Undoes `make` for a folder, wherever it was moved since.
    package struct Undo {
        /// The folder's path when it was made unremovable.
        package var path: String

        /// Makes the folder, now at `path` (by default where it was), writable again.
        package func callAsFunction(at path: String? = nil) {
            let path = path ?? self.path
            if geteuid() != 0 {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
            } else {
                _ = chattr("-i", path)
            }
        }
    }

    /// `make` could not make a folder unremovable.
    package struct Failure: Error {
        package var folder: String
    }

    private static func chattr(_ change: String, _ path: String) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["chattr", change, path]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
