#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock that serializes builds into the same output folder (cron overlapping a
/// manual build). It lives beside the output, since the output folder itself is replaced.
final class OutputLock {
    private let descriptor: Int32

    /// Blocks until the lock for `name` inside `parent` is held.
    init(parent: String, name: String) throws(PublishError) {
        let path = parent + "/." + name + ".rolodeck-lock"
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .system("create lock file", path) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else {
                let failure = PublishError.system("lock", path)
                close(fd)
                throw failure
            }
        }
        descriptor = fd
    }

    deinit {
        // Closing the descriptor releases the lock; the file stays for the next build.
        close(descriptor)
    }
}
