import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A deliberately plain HTTP client on raw sockets, so tests can send exactly the bytes they
/// mean (half a request, a traversal attempt, two requests at once) and see the exact answer.
/// A target of its own so that both the library's and the command's tests can use it.
public final class HTTPClient {
    /// A response as read off the wire.
    public struct Response {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    public let descriptor: Int32
    private var buffer: [UInt8] = []

    /// Connects to the port on 127.0.0.1; reads give up after `timeout` seconds (a bound for a
    /// broken server, not a timing claim). `receiveBuffer` caps what the system takes in for
    /// this client before it reads, so that a test can keep a response in the server.
    public init(port: Int, timeout: Int = 20, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    public func close() { Glibc.close(descriptor) }

    public func send(_ text: String) {
        _ = text.withCString { Glibc.send(descriptor, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// Reads more bytes; false at the end of the stream or after the timeout.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = recv(descriptor, &chunk, chunk.count, 0)
        guard count > 0 else { return false }
        buffer += chunk[0..<count]
        return true
    }

    /// Whether the server closes the connection (reading reaches the end of the stream before
    /// the timeout); what it sends before is kept for `response`.
    public func isClosedByServer() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
            buffer += chunk[0..<count]
        }
    }

    /// Everything the server sends until it closes the connection, after what was read
    /// already; nil when it does not close it before the timeout.
    public func bytesUntilClosed() -> [UInt8]? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count > 0 {
                buffer += chunk[0..<count]
                continue
            }
            guard count == 0 || errno == ECONNRESET else { return nil }
            defer { buffer = [] }
            return buffer
        }
    }

    /// Reads one response; `head` for the answer to a HEAD request (no body follows).
    public func response(head: Bool = false) -> Response? {
        var end: Int?
        while end == nil {
            end = buffer.indices.dropLast(3).first { buffer[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }
            if end == nil, !fill() { return nil }
        }
        let lines = String(decoding: buffer[0..<end!], as: UTF8.self).components(separatedBy: "\r\n")
        buffer.removeFirst(end! + 4)
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        var body: [UInt8] = []
        if !head, status != 304 {
            if let length = headers["content-length"].flatMap(Int.init) {
                while buffer.count < length, fill() {}
                body = Array(buffer.prefix(length))
                buffer.removeFirst(min(length, buffer.count))
            } else if headers["content-type"] != "text/event-stream" {
                while fill() {}
                body = buffer
                buffer = []
            }
        }
        return Response(status: status, headers: headers, body: body)
    }

    /// Reads server-sent events until one named `name` arrives; returns its data.
    public func event(named name: String) -> String? {
        while true {
            if let end = buffer.indices.dropLast(1).first(where: { buffer[$0] == 10 && buffer[$0 + 1] == 10 })
            {
                let block = String(decoding: buffer[0..<end], as: UTF8.self)
                buffer.removeFirst(end + 2)
                let lines = block.components(separatedBy: "\n")
                if lines.contains("event: \(name)"), let data = lines.first(where: { $0.hasPrefix("data: ") })
                {
                    return String(data.dropFirst(6))
                }
                continue
            }
            if !fill() { return nil }
        }
    }

    /// One request on a new connection, answered and closed.
    public static func exchange(port: Int, _ request: String, head: Bool = false) throws -> Response? {
        let client = try HTTPClient(port: port)
        defer { client.close() }
        client.send(request)
        return client.response(head: head)
    }

    /// A GET of a path.
    public static func get(port: Int, _ path: String, headers: String = "") throws -> Response? {
        try exchange(
            port: port, "GET \(path) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\(headers)\r\n")
    }
}
