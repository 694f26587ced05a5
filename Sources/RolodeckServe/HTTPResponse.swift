#if canImport(Glibc)
    import Glibc
#endif

/// The statuses the preview server answers with.
enum HTTPStatus: Int, Sendable, Equatable {
    case ok = 200
    case notModified = 304
    case badRequest = 400
    case notFound = 404
    case methodNotAllowed = 405
    case requestTimeout = 408
    case contentTooLarge = 413
    case uriTooLong = 414
    case headerFieldsTooLarge = 431
    case versionNotSupported = 505

    /// The reason phrase.
    var phrase: String {
        switch self {
        case .ok: return "OK"
        case .notModified: return "Not Modified"
        case .badRequest: return "Bad Request"
        case .notFound: return "Not Found"
        case .methodNotAllowed: return "Method Not Allowed"
        case .requestTimeout: return "Request Timeout"
        case .contentTooLarge: return "Content Too Large"
        case .uriTooLong: return "URI Too Long"
        case .headerFieldsTooLarge: return "Request Header Fields Too Large"
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

    /// A short plain-text response for an error, closing the connection when `close`.
    static func plain(_ status: HTTPStatus, close: Bool, extra: [(String, String)] = []) -> (
        HTTPResponseHead, [UInt8]
    ) {
        let body = Array("\(status.rawValue) \(status.phrase)\n".utf8)
        var headers =
            [
                ("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", String(body.count)),
                ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff"),
            ] + extra
        if close { headers.append(("Connection", "close")) }
        return (HTTPResponseHead(status, headers), body)
    }
}

/// HTTP dates (RFC 9110, 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, in English whatever the locale.
enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]

    /// The date of a time in seconds since 1970.
    static func format(secondsSince1970 seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return
            "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    /// The time of a date in the preferred form; nil for anything else (the obsolete forms
    /// only make a conditional request unconditional, which is always safe).
    static func parse(_ text: String) -> Int? {
        let fields = text.split(separator: " ")
        guard fields.count == 6, fields[5] == "GMT", days.contains(String(fields[0].dropLast())),
            fields[0].last == ",",
            let day = Int(fields[1]), let month = months.firstIndex(of: String(fields[2])),
            let year = Int(fields[3])
        else { return nil }
        let clock = fields[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (1...31).contains(day), (0...23).contains(clock[0]),
            (0...59).contains(clock[1]),
            (0...60).contains(clock[2])
        else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(clock[0])
        parts.tm_min = Int32(clock[1])
        parts.tm_sec = Int32(clock[2])
        return Int(timegm(&parts))
    }
}
