#if canImport(Glibc)
    import Glibc
#endif

/// The statuses the preview server answers with.
enum HTTPStatus: Int, Sendable, Equatable {
    case ok = 200
    case notModified = 304
    case badRequest = 400
    case forbidden = 403
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case uriTooLong = 414
    case headerFieldsTooLarge = 431
    case internalServerError = 500
    case versionNotSupported = 505

    /// The reason phrase.
    var phrase: String {
        switch self {
        case .ok: return "OK"
        case .notModified: return "Not Modified"
        case .badRequest: return "Bad Request"
        case .forbidden: return "Forbidden"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .contentTooLarge: return "Content Too Large"
        case .uriTooLong: return "URI Too Long"
        case .headerFieldsTooLarge: return "Request Header Fields Too Large"
        case .internalServerError: return "Internal Server Error"
        case .versionNotSupported: return "HTTP Version Not Supported"
        }
    }
}

/// A response head: status and header fields, written as HTTP/1.1.
struct HTTPResponseHead {
    /// The status.
    var status: HTTPStatus
    /// The header fields besides `Date` and `Server`, in order.
    var headers: [(String, String)] = []

    /// A head with `status` and `headers`.
    init(_ status: HTTPStatus, _ headers: [(String, String)] = []) {
        self.status = status
        self.headers = headers
    }

    /// The head's bytes, with `Date` and `Server` added.
    var bytes: [UInt8] {
        var text = "HTTP/1.1 \(status.rawValue) \(status.phrase)\r\n"
        text += "Date: \(HTTPDate.format(secondsSince1970: Int(time(nil))))\r\nServer: rolodeck\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    /// A short plain-text response for an error: the status, then `detail` on a line of its own
    /// when there is one; closing the connection when `close`.
    static func plain(
        _ status: HTTPStatus, detail: String? = nil, close: Bool, extra: [(String, String)] = []
    ) -> (HTTPResponseHead, [UInt8]) {
        let body = Array("\(status.rawValue) \(status.phrase)\n\(detail.map { $0 + "\n" } ?? "")".utf8)
        var headers =
            [
                ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.count)),
                ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
            ] + extra
        if close { headers.append(("Connection", "close")) }
        return (HTTPResponseHead(status, headers), body)
    }
}
