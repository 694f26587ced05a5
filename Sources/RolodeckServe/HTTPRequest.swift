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

    /// Whether a body follows the head (the server takes none).
    var hasBody: Bool {
        if header("transfer-encoding") != nil { return true }
        guard let length = header("content-length") else { return false }
        return length.trimmingWhitespace != "0"
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
                line[line.startIndex..<colon].allSatisfy(isTokenByte)
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
        // HTTP/1.1 requires exactly one Host (RFC 9112, 3.2).
        if minor == 1, request.headers.filter({ $0.name == "host" }).count != 1 {
            return .refused(.badRequest)
        }
        return .request(request, length: length)
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
