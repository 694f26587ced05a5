#if canImport(Glibc)
    import Glibc
#endif

/// Why watching a site's files failed, or why watch fell back from inotify to polling.
public struct WatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failures the watcher reports.
    enum Reason: Sendable, Equatable {
        /// The per-user limit of inotify watches (`fs.inotify.max_user_watches`) is reached.
        case outOfWatches(path: String)
        /// The per-user limit of inotify instances (`fs.inotify.max_user_instances`) is reached.
        case outOfInstances
        /// A system call failed on a path, with its errno.
        case system(operation: String, path: String, errno: Int32)
    }

    /// What went wrong.
    var reason: Reason

    /// Creates an error.
    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The message the user reads, with the fix where there is one.
    public var description: String {
        switch reason {
        case .outOfWatches(let path):
            return
                "cannot watch \(path): the system's limit of inotify watches is reached; watching by polling "
                + "instead, which is slower. Raise the limit with "
                + "'sudo sysctl fs.inotify.max_user_watches=524288' (add it to /etc/sysctl.conf to keep it)"
        case .outOfInstances:
            return
                "cannot start inotify: the system's limit of inotify instances is reached; watching by polling "
                + "instead, which is slower. Raise the limit with 'sudo sysctl fs.inotify.max_user_instances=1024'"
        case .system(let operation, let path, let code):
            return "cannot \(operation) \(path): \(String(cString: strerror(code)))"
        }
    }
}
