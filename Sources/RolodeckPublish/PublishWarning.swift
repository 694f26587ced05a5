#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Something a publish could not tidy up, which did not stop it: a folder left beside the output.
public struct PublishWarning: Sendable, Equatable, CustomStringConvertible {
    /// What was left, and why.
    public enum Reason: Sendable, Equatable {
        /// The new site was swapped in, but the old one, now at `leftover`, could not be removed.
        case oldSiteLeft(output: String, leftover: String, failure: String)
        /// A folder left by an earlier build could not be removed; this build used another name.
        case earlierLeftover(leftover: String, failure: String)
    }

    /// What was left.
    public var reason: Reason
    /// The user the leftover folder belongs to, when it is not this process's user; nil otherwise.
    var owner: String?

    /// Creates a warning about `leftover`, naming its owner when it belongs to someone else.
    init(_ reason: Reason, leftover: String) {
        self.reason = reason
        var info = stat()
        if lstat(leftover, &info) == 0, info.st_uid != geteuid() {
            owner = getpwuid(info.st_uid).map { String(cString: $0.pointee.pw_name) } ?? "user \(info.st_uid)"
        }
    }

    /// The message the user reads.
    public var description: String {
        let who = owner.map { $0 == "root" ? "as root" : "as \($0), who owns it, or as root" } ?? "by hand"
        switch reason {
        case .oldSiteLeft(let output, let leftover, let failure):
            return "the new site is published in \(output), but the old one could not be removed "
                + "and is left in \(leftover) (\(failure)); remove that folder \(who)"
        case .earlierLeftover(let leftover, let failure):
            return "\(leftover), left by an earlier build, could not be removed (\(failure)); it is not "
                + "in the way, but it takes room: remove it \(who)"
        }
    }
}
