#if canImport(Glibc)
    import Glibc
#endif

/// Why the preview server could not start.
public struct ServeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The failures the server reports.
    enum Reason: Sendable, Equatable {
        /// The host is not an address or a name this machine can listen on.
        case unknownHost(String, detail: String)
        /// The port is not a number from 0 to 65535.
        case badPort(String)
        /// Listening failed (the port is taken, or needs privileges), with its errno.
        case cannotListen(host: String, port: Int, errno: Int32)
        /// A system call failed, with its errno.
        case system(operation: String, errno: Int32)
    }

    /// What went wrong.
    var reason: Reason

    /// Creates an error.
    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The message the user reads.
    public var description: String {
        switch reason {
        case .unknownHost(let host, let detail):
            return "cannot serve on host \"\(host)\": \(detail)"
        case .badPort(let port):
            return "port \"\(port)\" is not a number from 0 to 65535"
        case .cannotListen(let host, let port, let code):
            let hint =
                code == EADDRINUSE
                ? "; another server uses it, choose another with --port"
                : code == EACCES ? "; ports below 1024 need privileges, choose another with --port" : ""
            return "cannot listen on \(host):\(port): \(String(cString: strerror(code)))\(hint)"
        case .system(let operation, let code):
            return "cannot \(operation): \(String(cString: strerror(code)))"
        }
    }
}
