import RolodeckCore

/// An HTTP/1.x request head, as the preview server reads it.
struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `HEAD`, …
    var method: String
    /// The request target as sent (`/contacts/kim.html?x=1`).
    var target: String
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The header fields in order, names in lower case.
    var headers: [(name: String, value: String)]

    /// Whether two heads have the same request line and header fields, in order.
    static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
    }

    /// The first value of a header field, by its name in lower case.
    func header(_ name: String) -> String? {
        headers.first { $0.name == name }?.value
    }

    /// Whether the connection stays open after the response: HTTP/1.1 unless `Connection:
    /// close`; HTTP/1.0 only with `Connection: keep-alive`.
    var keepsAlive: Bool {
        let tokens = (header("connection") ?? "").lowercased().split(separator: ",").map {
            String($0).trimmingWhitespace
        }
        return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }

    /// Whether a body follows the head (the server takes none). A Content-Length that is not
    /// a length counts as a body, so such a request is refused too.
    var hasBody: Bool {
        if header("transfer-encoding") != nil { return true }
        guard let field = header("content-length") else { return false }
        return Self.lengths(in: field)?.first != "0"
    }

    /// The lengths a Content-Length value lists (`5`, or `5, 5` from a sender that repeated the
    /// field), each without leading zeros; nil when one is not a run of digits. Never turned
    /// into an integer: only whether a length is 0, and whether two are the same, matter here,
    /// and a string of digits cannot overflow.
    static func lengths(in value: String) -> [Substring]? {
        var lengths: [Substring] = []
        for element in value.split(separator: ",", omittingEmptySubsequences: false) {
            let digits = Substring(String(element).trimmingWhitespace)
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            let significant = digits.drop { $0 == "0" }
            lengths.append(significant.isEmpty ? "0" : significant)
        }
        return lengths
    }

    /// Whether a conditional request's validators match a file with entity tag `tag`, modified
    /// at `modified` (seconds since 1970; nil when the file is not judged by its time). An
    /// If-Modified-Since that is not a date is ignored, as RFC 9110 (13.1.3) says.
    func isNotModified(tag: String, modified: Int?) -> Bool {
        if let match = header("if-none-match") {
            // Weak comparison (RFC 9110, 13.1.2): W/ prefixes do not matter for GET and HEAD.
            let tags = match.split(separator: ",").map { String($0).trimmingWhitespace }
                .map { $0.hasPrefix("W/") ? String($0.dropFirst(2)) : $0 }
            return tags.contains("*") || tags.contains(tag)
        }
        if let modified, let since = header("if-modified-since").flatMap(HTTPDate.parse) {
            return modified <= since
        }
        return false
    }
}

/// Reads request heads from the bytes a client sent, within a size limit.
enum HTTPRequestParser {
    /// What the bytes so far hold.
    enum Result: Equatable {
        /// Not a whole head yet.
        case incomplete
        /// A head, and how many bytes it took.
        case request(HTTPRequest, length: Int)
        /// A head the server refuses, with the status to answer.
        case refused(HTTPStatus)
    }

    /// Parses the head at the start of `bytes`; `limit` is the most a head may take.
    static func parse(_ bytes: ArraySlice<UInt8>, limit: Int) -> Result {
        var start = bytes.startIndex
        // Empty lines before a request are allowed (RFC 9112, 2.2).
        while start < bytes.endIndex, bytes[start] == 0x0D || bytes[start] == 0x0A { start += 1 }
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = start
        var index = start
        while index < bytes.endIndex {
            if bytes[index] == 0x0A {
                var line = bytes[lineStart..<index]
                if line.last == 0x0D { line = line.dropLast() }
                if line.isEmpty {
                    guard !lines.isEmpty else { return .refused(.badRequest) }
                    return make(lines, length: index + 1 - bytes.startIndex)
                }
                lines.append(line)
                lineStart = index + 1
            }
            index += 1
            if index - bytes.startIndex > limit {
                return .refused(lines.isEmpty ? .uriTooLong : .headerFieldsTooLarge)
            }
        }
        if bytes.count > limit { return .refused(lines.isEmpty ? .uriTooLong : .headerFieldsTooLarge) }
        return .incomplete
    }

    private static func make(_ lines: [ArraySlice<UInt8>], length: Int) -> Result {
        let requestLine = lines[0].split(separator: 0x20, omittingEmptySubsequences: false)
        guard requestLine.count == 3, !requestLine[0].isEmpty, !requestLine[1].isEmpty,
            requestLine[0].allSatisfy(isTokenByte), requestLine[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            return .refused(.badRequest)
        }
        let version = String(decoding: requestLine[2], as: UTF8.self)
        let minor: Int
        switch version {
        case "HTTP/1.1": minor = 1
        case "HTTP/1.0": minor = 0
        default:
            return version.hasPrefix("HTTP/") ? .refused(.versionNotSupported) : .refused(.badRequest)
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            // A folded line (starting with space or tab) is obsolete and refused (RFC 9112, 5.2).
            guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
                line[line.startIndex..<colon].allSatisfy(isTokenByte),
                line[(colon + 1)...].allSatisfy(isFieldValueByte)
            else {
                return .refused(.badRequest)
            }
            let name = String(decoding: line[line.startIndex..<colon], as: UTF8.self).lowercased()
            let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingWhitespace
            headers.append((name, value))
        }
        let request = HTTPRequest(
            method: String(decoding: requestLine[0], as: UTF8.self),
            target: String(decoding: requestLine[1], as: UTF8.self), minorVersion: minor,
            headers: headers)
        // HTTP/1.1 requires exactly one Host, and no request may have two (RFC 9112, 3.2).
        let hosts = request.headers.filter { $0.name == "host" }.count
        guard hosts == 1 || (minor == 0 && hosts == 0), hasSoundFraming(request) else {
            return .refused(.badRequest)
        }
        return .request(request, length: length)
    }

    /// Whether the head says where its body ends in one way only (RFC 9112, 6.1 and 6.3): every
    /// Content-Length a length, all the same; no Transfer-Encoding in HTTP/1.0 or beside a
    /// Content-Length. A head framed otherwise may be read one way here and another by whatever
    /// passed it on (request smuggling), so it is refused rather than guessed at.
    private static func hasSoundFraming(_ request: HTTPRequest) -> Bool {
        let lengths = request.headers.filter { $0.name == "content-length" }.map {
            HTTPRequest.lengths(in: $0.value)
        }
        if lengths.contains(where: { $0 == nil }) { return false }
        if Set(lengths.flatMap { $0 ?? [] }).count > 1 { return false }
        if request.header("transfer-encoding") != nil { return request.minorVersion == 1 && lengths.isEmpty }
        return true
    }

    /// The bytes a field value may hold (RFC 9110, 5.5): visible characters, space, tab and
    /// bytes above ASCII; never NUL, a bare CR or another control character.
    private static func isFieldValueByte(_ byte: UInt8) -> Bool {
        byte >= 0x20 ? byte != 0x7F : byte == 0x09
    }

    /// The characters of a token: method and field names (RFC 9110, 5.6.2).
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
