#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why publishing into the output folder failed; the previous output is untouched whenever
/// this is thrown.
struct PublishError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failures the publisher reports.
    enum Reason: Sendable, Equatable {
        /// A system call failed on a path, with its errno.
        case system(operation: String, path: String, errno: Int32)
        /// The output folder holds files but no `.rolodeck` marker, so it was not made by a build.
        case notRolodeckOutput(path: String)
        /// The output path exists and is not a folder.
        case notAFolder(path: String)
        /// A page path was absolute, empty or climbed out with `..`.
        case invalidPagePath(String)
        /// The same page path was produced twice in one build.
        case duplicatePage(String)
        /// The output folder cannot be replaced by a rename (a mount point, another device).
        case cannotReplace(path: String, errno: Int32)
        /// Nothing can be created in the output's parent folder, where the new site is assembled.
        case parentNotWritable(parent: String, output: String, errno: Int32)
    }

    /// What went wrong.
    var reason: Reason

    /// Creates an error.
    init(_ reason: Reason) {
        self.reason = reason
    }

    /// Creates an error for a failed system call, reading `errno`.
    static func system(_ operation: String, _ path: String) -> PublishError {
        PublishError(.system(operation: operation, path: path, errno: errno))
    }

    /// The message the user reads.
    var description: String {
        switch reason {
        case .system(let operation, let path, let code):
            return "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        case .notRolodeckOutput(let path):
            return "refusing to replace \(path): it holds files but was not made by rolodeck "
                + "(no .rolodeck file in it); choose an empty or new folder with --out"
        case .notAFolder(let path):
            return "\(path) exists and is not a folder; choose another output with --out"
        case .invalidPagePath(let path):
            return "internal error: page path \"\(path)\" is not a relative path inside the output"
        case .duplicatePage(let path):
            return "two pages were rendered to the same path \"\(path)\""
        case .cannotReplace(let path, let code):
            return "cannot replace \(path) by renaming (\(String(cString: strerror(code)))); "
                + "if it is a mount point, publish into a folder inside it"
        case .parentNotWritable(let parent, let output, let code):
            return "rolodeck needs to write in \(parent) to swap the new site in atomically "
                + "(\(String(cString: strerror(code)))): make \(parent) writable by this user, or build "
                + "into a folder inside a folder of its own, such as \(output)/site"
        }
    }
}
