#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive lock that serializes builds into the same output folder (cron overlapping a
/// manual build, or a watch session): an advisory `flock` on the output's parent folder itself.
///
/// Why the parent folder, and no lock file:
/// - A lock file beside the output would stay there between builds. Removing it at the end is
///   possible, but only if every build, once it holds the lock, checks that the path still names
///   the file it locked (another build may have removed it meanwhile) and starts again if not;
///   and a build killed before removing it leaves it behind anyway.
/// - The output folder cannot be the lock: a publish replaces it, so a build waiting on the old
///   folder would get its lock once that folder was retired, while a third build locked the new
///   one; and a first build has no output folder to lock.
/// - The parent folder is never replaced by a build, so whoever holds its lock may change
///   anything beside the output: retire the old site, swap in the new one, remove what a killed
///   build left. Locking it creates nothing, needs no write permission, and the kernel releases
///   the lock however the process ends. The price: builds into two outputs that share a parent
///   folder wait for each other too (a folder of its own for each output avoids that).
///
/// `flock` locks belong to an open file description, so two publishes in one process (two
/// threads, each opening the parent) exclude each other as two processes do.
///
/// The lock is not held while the input is read and checked, only from just before the output
/// is compared with the new build until the new site is in place: a build waiting for it has
/// written nothing, and can be stopped at once.
final class OutputLock {
    /// The locked folder; the lock lasts as long as this descriptor's open file description.
    private let folder: DirectoryHandle

    /// Blocks until the lock on `folder` (the output's parent) is held; calls `waiting` first
    /// when another build holds it, so that the caller can say why nothing happens.
    init(_ folder: DirectoryHandle, waiting: () -> Void = {}) throws(PublishError) {
        if !(try Self.lockIfFree(folder)) {
            waiting()
            while flock(folder.descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else { throw .system("lock folder", folder.path) }
            }
        }
        self.folder = folder
    }

    /// The lock on `folder`, which the caller has just taken.
    private init(holding folder: DirectoryHandle) {
        self.folder = folder
    }

    /// The lock on `folder` if no one else holds it now; nil if someone does.
    static func ifFree(_ folder: DirectoryHandle) throws(PublishError) -> OutputLock? {
        try lockIfFree(folder) ? OutputLock(holding: folder) : nil
    }

    /// Takes the lock unless someone else holds it; returns whether it did.
    private static func lockIfFree(_ folder: DirectoryHandle) throws(PublishError) -> Bool {
        if flock(folder.descriptor, LOCK_EX | LOCK_NB) == 0 { return true }
        guard errno == EWOULDBLOCK || errno == EINTR else { throw .system("lock folder", folder.path) }
        return false
    }

    deinit {
        // Descriptors duplicated from this one (to list the folder) share the lock, and are closed
        // by now; the handle itself may outlive this, so the lock is let go of explicitly.
        flock(folder.descriptor, LOCK_UN)
    }
}
