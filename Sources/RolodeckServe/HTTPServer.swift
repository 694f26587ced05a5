import Synchronization
import RolodeckCore

#if canImport(Glibc)
    import Glibc
#endif

/// The preview server of `rolodeck serve`: HTTP/1.1 on Glibc sockets, GET and HEAD, files from
/// the output folder only, for the host names `HostPolicy` allows, live reload by Server-Sent
/// Events.
///
/// What a request asks is judged by `HTTPRoute`, a pure function of the parsed head; no value a
/// client sends can make the server trap, and a request it cannot serve for a reason of its own
/// (no file descriptor left, an I/O error) is answered 500 while the others go on.
///
/// One thread runs an event loop over non-blocking sockets with `poll`: a client that sends half
/// a request and stalls costs a table entry, not a thread, and cannot hold anyone up. Every
/// connection is under a deadline (`Limits`): a request head must arrive whole and within its
/// size, a kept-alive connection may idle only so long, a response must keep moving, and an
/// event stream whose client stops reading is dropped. Files are sent in chunks as the socket
/// takes them, so a large page costs no more memory than a small one.
///
/// Other threads talk to it through `siteRebuilt`, `rebuildFailed` and `stop`, which wake the
/// loop through a pipe.
public final class HTTPServer: Sendable {
    /// The limits and timeouts that keep slow or broken clients from hanging the server.
    public struct Limits: Sendable {
        /// The largest request head (request line and header fields), in bytes.
        var maximumHead = 16 * 1024
        /// How long a request head may take to arrive, from its first byte.
        var headTimeout: Duration = .seconds(10)
        /// How long a connection may stay open between requests.
        var idleTimeout: Duration = .seconds(15)
        /// How long a response may go without a byte being taken by the client.
        var writeTimeout: Duration = .seconds(30)
        /// How many connections are served at once; more wait in the listen queue.
        var maximumConnections = 512
        /// How many bytes may wait for an event stream's client before it is dropped.
        var maximumEventBacklog = 1 << 20
        /// How often an idle event stream is sent a comment, to find clients that went away.
        var heartbeat: Duration = .seconds(15)

        /// The defaults.
        public init() {}
    }

    /// What other threads hand the server's thread.
    private struct Shared {
        /// How many times the site was rebuilt, counting the first build as 1.
        var generation = 1
        /// The diagnostics of the last rebuild, when it failed.
        var failure: [Diagnostic]?
        /// Events for the event streams, not sent yet.
        var events: [[UInt8]] = []
        /// Whether `stop` was called.
        var stopping = false
    }

    /// The address the server listens on, as given.
    let host: String
    /// The port it listens on (the one the system chose when asked for port 0).
    public let port: Int
    /// Whether the address is this machine's loopback, reachable from no other.
    public let isLoopback: Bool
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let limits: Limits
    private let hosts: HostPolicy
    private let root: @Sendable () -> String
    private let shared = Mutex(Shared())

    /// Listens on `host` and `port`, answering requests for `host`, for the names in
    /// `allowedHosts`, and for localhost and IP addresses (`HostPolicy`); `root` says where the
    /// output folder is (it can change when the config does). The server answers nothing until
    /// `run` is called.
    public init(
        host: String, port: Int, allowedHosts: [String] = [], limits: Limits = Limits(),
        root: @escaping @Sendable () -> String
    ) throws(ServeError) {
        guard (0...65535).contains(port) else { throw ServeError(.badPort(String(port))) }
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw ServeError(.unknownHost(host, detail: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(found) }
        var descriptor: Int32 = -1
        var lastError: Int32 = 0
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let fd = socket(
                address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard fd >= 0 else { lastError = errno; continue }
            var yes: Int32 = 1
            setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
            if bind(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0, listen(fd, 128) == 0 {
                descriptor = fd
                break
            }
            lastError = errno
            close(fd)
        }
        guard descriptor >= 0 else {
            throw ServeError(.cannotListen(host: host, port: port, errno: lastError))
        }
        Self.makeNonBlocking(descriptor)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            close(descriptor)
            throw ServeError(.system(operation: "create a pipe", errno: errno))
        }
        ends.forEach(Self.makeNonBlocking)
        self.host = host
        self.port = Self.boundPort(descriptor) ?? port
        self.isLoopback = Self.isLoopback(descriptor)
        self.listener = descriptor
        self.wakeRead = ends[0]
        self.wakeWrite = ends[1]
        self.limits = limits
        self.hosts = HostPolicy(listeningOn: host, allowing: allowedHosts)
        self.root = root
    }

    deinit {
        close(listener)
        close(wakeRead)
        close(wakeWrite)
    }

    /// Tells open pages the site was rebuilt: `changedPaths` are the output files written or
    /// removed (nil when any may have changed). Clears a shown failure.
    public func siteRebuilt(changedPaths: [String]?) {
        shared.withLock { shared in
            shared.generation += 1
            shared.failure = nil
            shared.events.append(LiveReload.reloadEvent(generation: shared.generation, paths: changedPaths))
        }
        wake()
    }

    /// Shows open pages why the last rebuild failed.
    public func rebuildFailed(_ diagnostics: [Diagnostic]) {
        shared.withLock { shared in
            shared.failure = diagnostics
            shared.events.append(
                Array(LiveReload.failureEvent(generation: shared.generation, diagnostics).utf8))
        }
        wake()
    }

    /// Makes `run` return, closing every connection.
    public func stop() {
        shared.withLock { $0.stopping = true }
        wake()
    }

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Serves until `stop` is called.
    public func run() {
        var connections: [Int32: HTTPConnection] = [:]
        var nextHeartbeat = ContinuousClock.now + limits.heartbeat
        // When accepting fails for want of file descriptors, the waiting client stays in the
        // listen queue and the listener stays readable: asking again at once would spin.
        var acceptPausedUntil: ContinuousClock.Instant?
        while true {
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0)]
            if connections.count < limits.maximumConnections,
                acceptPausedUntil.map({ ContinuousClock.now >= $0 }) ?? true
            {
                descriptors.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            }
            for connection in connections.values {
                // Nothing more is read from a client that closed its side (it would be readable
                // for ever) or that sent a head's worth ahead of its answers (it would fill memory).
                var events: Int16 = 0
                if !connection.peerClosed, connection.input.count <= limits.maximumHead {
                    events |= Int16(POLLIN)
                }
                if !connection.output.isEmpty { events |= Int16(POLLOUT) }
                descriptors.append(pollfd(fd: connection.descriptor, events: events, revents: 0))
            }
            // Deadlines are checked at least once a second; none needs to be kept to the millisecond.
            _ = poll(&descriptors, nfds_t(descriptors.count), 1000)
            let now = ContinuousClock.now

            if descriptors[0].revents != 0 {
                var drain = [UInt8](repeating: 0, count: 256)
                while read(wakeRead, &drain, drain.count) > 0 {}
                let (events, stopping) = shared.withLock { shared -> ([[UInt8]], Bool) in
                    defer { shared.events = [] }
                    return (shared.events, shared.stopping)
                }
                if stopping { return }
                for event in events {
                    for connection in connections.values where connection.isEventStream {
                        connection.send(event)
                    }
                }
            }
            for polled in descriptors.dropFirst() where polled.revents != 0 {
                if polled.fd == listener {
                    let starved = !accept(into: &connections, now: now)
                    acceptPausedUntil = starved ? now + .seconds(1) : nil
                    continue
                }
                guard let connection = connections[polled.fd] else { continue }
                if polled.revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                    let wasEmpty = connection.input.isEmpty
                    if !connection.receive(limit: limits.maximumHead + 1) { connection.peerClosed = true }
                    if wasEmpty, !connection.input.isEmpty, connection.output.isEmpty {
                        connection.waitingSince = now
                    }
                }
            }
            if now >= nextHeartbeat {
                nextHeartbeat = now + limits.heartbeat
                for connection in connections.values
                where connection.isEventStream && connection.output.isEmpty {
                    connection.send(LiveReload.heartbeat)
                }
            }
            for (descriptor, connection) in connections where !serve(connection, now: now) {
                connections[descriptor] = nil
                // A descriptor is free again: a client waiting in the listen queue may be taken.
                acceptPausedUntil = nil
            }
        }
    }

    /// Accepts the clients waiting; false when the process or the system has no file
    /// descriptor (or memory) left for one.
    private func accept(into connections: inout [Int32: HTTPConnection], now: ContinuousClock.Instant) -> Bool
    {
        while connections.count < limits.maximumConnections {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return ![EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(errno) }
            Self.makeNonBlocking(fd)
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            connections[fd] = HTTPConnection(descriptor: fd, now: now)
        }
        return true
    }

    /// Moves a connection along: answers what it asked, sends what is queued, enforces the
    /// limits. Returns false when it is to be closed.
    private func serve(_ connection: HTTPConnection, now: ContinuousClock.Instant) -> Bool {
        while true {
            // One request at a time: the next is read once this one's response is sent.
            if connection.output.isEmpty, !connection.isEventStream, !connection.closesAfterWriting,
                !connection.input.isEmpty
            {
                switch HTTPRequestParser.parse(connection.input[...], limit: limits.maximumHead) {
                case .incomplete:
                    if connection.peerClosed { return false }
                    if now - connection.waitingSince > limits.headTimeout {
                        refuse(connection, .requestTimeout)
                    }
                case .refused(let status):
                    refuse(connection, status)
                case .request(let request, let length):
                    connection.input.removeFirst(length)
                    respond(to: request, on: connection)
                    connection.lastProgress = now
                }
            }
            guard !connection.output.isEmpty else { break }
            guard connection.flush(now: now) else { return false }
            if connection.isEventStream, connection.queued > limits.maximumEventBacklog { return false }
            if !connection.output.isEmpty { return now - connection.lastProgress <= limits.writeTimeout }
            // Sent: the idle timeout before the next request counts from now.
            connection.waitingSince = now
            if connection.closesAfterWriting || connection.isEventStream || connection.input.isEmpty { break }
        }
        if connection.closesAfterWriting { return false }
        if connection.isEventStream { return !connection.peerClosed }
        if connection.input.isEmpty {
            return !connection.peerClosed && now - connection.waitingSince <= limits.idleTimeout
        }
        return true
    }

    /// Answers a request the server cannot take, and closes the connection after.
    private func refuse(_ connection: HTTPConnection, _ status: HTTPStatus) {
        let (head, body) = HTTPResponseHead.plain(status, close: true)
        connection.send(head.bytes + body)
        connection.closesAfterWriting = true
        connection.input = []
    }

    /// Answers a request that could not be served for a reason of the server's own (no file
    /// descriptor left, an I/O error): 500 with the reason, and the connection closed, which
    /// frees what it held. The server goes on.
    private func fail(_ connection: HTTPConnection, errno code: Int32, isHead: Bool) {
        let (head, body) = HTTPResponseHead.plain(
            .internalServerError, detail: "The file could not be read: \(String(cString: strerror(code))).",
            close: true)
        connection.send(head.bytes + (isHead ? [] : body))
        connection.closesAfterWriting = true
    }

    private func respond(to request: HTTPRequest, on connection: HTTPConnection) {
        let isHead = request.method == "HEAD"
        let route = HTTPRoute(request, hosts: hosts)
        let keepAlive: Bool
        if case .refusal(_, _, closes: true) = route {
            keepAlive = false
        } else {
            keepAlive = request.keepsAlive && !connection.peerClosed
        }
        connection.closesAfterWriting = !keepAlive
        let connectionHeader = ("Connection", keepAlive ? "keep-alive" : "close")
        switch route {
        case .refusal(let status, let detail, _):
            let (head, body) = HTTPResponseHead.plain(
                status, detail: detail, close: !keepAlive,
                extra: status == .methodNotAllowed ? [("Allow", "GET, HEAD")] : [])
            connection.send(head.bytes + (isHead ? [] : body))
        case .events:
            let head = HTTPResponseHead(
                .ok,
                [
                    ("Content-Type", "text/event-stream"), ("Cache-Control", "no-cache"),
                    ("X-Accel-Buffering", "no"), ("Connection", isHead ? connectionHeader.1 : "keep-alive"),
                ])
            connection.send(head.bytes)
            guard !isHead else { return }
            connection.isEventStream = true
            connection.closesAfterWriting = false
            let (generation, failure) = shared.withLock { ($0.generation, $0.failure) }
            connection.send(LiveReload.greeting(generation: generation, failure: failure))
        case .missingPage:
            sendMissingPage(on: connection, root: root(), isHead: isHead, connection: connectionHeader)
        case .file(let segments):
            let root = self.root()
            switch OutputFiles.open(root: root, segments: segments) {
            case .success(let file):
                send(
                    file, status: .ok, request: request, on: connection, isHead: isHead,
                    connection: connectionHeader)
            case .failure(.forbidden):
                let (head, body) = HTTPResponseHead.plain(
                    .forbidden, detail: "The file may not be read.", close: !keepAlive)
                connection.send(head.bytes + (isHead ? [] : body))
            case .failure(.failed(let code)):
                fail(connection, errno: code, isHead: isHead)
            case .failure(.notFound), .failure(.badPath):
                sendMissingPage(on: connection, root: root, isHead: isHead, connection: connectionHeader)
            }
        }
    }

    /// The theme's `404.html` with status 404, or a plain 404 when the output has none.
    private func sendMissingPage(
        on connection: HTTPConnection, root: String, isHead: Bool, connection header: (String, String)
    ) {
        guard case .success(let file) = OutputFiles.open(root: root, segments: [Array("404.html".utf8)])
        else {
            let (head, body) = HTTPResponseHead.plain(.notFound, close: header.1 == "close")
            connection.send(head.bytes + (isHead ? [] : body))
            return
        }
        send(file, status: .notFound, request: nil, on: connection, isHead: isHead, connection: header)
    }

    /// Sends a file: HTML with the live-reload script added, with validators for conditional
    /// requests (`If-None-Match`, and `If-Modified-Since` for files sent as they are).
    private func send(
        _ opened: OutputFiles.Opened, status: HTTPStatus, request: HTTPRequest?,
        on connection: HTTPConnection,
        isHead: Bool, connection header: (String, String)
    ) {
        let file = OpenFile(opened.descriptor)
        let type = ContentTypes.type(of: opened.name)
        let isPage = type.hasPrefix("text/html")
        let generation = shared.withLock { $0.generation }
        // Seconds and nanoseconds apart: as one count of nanoseconds, a time past 2262 (which a
        // file can have) would overflow.
        let modified =
            "\(String(opened.modified.tv_sec, radix: 16)).\(String(opened.modified.tv_nsec, radix: 16))"
        // A page's bytes depend on the site's generation too (it is in the script).
        let tag =
            "\"\(String(opened.inode, radix: 16))-\(String(opened.size, radix: 16))-\(modified)"
            + (isPage ? "-g\(generation)\"" : "\"")
        var headers: [(String, String)] = [("Cache-Control", "no-cache"), ("ETag", tag)]
        if !isPage {
            headers.append(("Last-Modified", HTTPDate.format(secondsSince1970: Int(opened.modified.tv_sec))))
        }
        if status == .ok, let request,
            request.isNotModified(tag: tag, modified: isPage ? nil : Int(opened.modified.tv_sec))
        {
            connection.send(HTTPResponseHead(.notModified, headers + [header]).bytes)
            return
        }
        var script: [UInt8] = []
        var insertion = opened.size
        // The 404 page is sent for a missing path at any depth, but its relative links lead from
        // the root, where it lies: a `<base>` after its `<head>` keeps its stylesheet and links.
        var base: [UInt8] = []
        var baseInsertion = 0
        if isPage {
            script = LiveReload.script(generation: generation, isMissingPage: status == .notFound)
            let tailStart = max(0, opened.size - 4096)
            guard let tail = Self.bytes(of: file, from: tailStart, count: opened.size - tailStart) else {
                // Nothing is sent yet, so the failure can still be told.
                fail(connection, errno: errno, isHead: isHead)
                return
            }
            insertion = LiveReload.insertionOffset(tail: tail, tailOffset: tailStart)
            if status == .notFound {
                guard let head = Self.bytes(of: file, from: 0, count: min(opened.size, 1024)) else {
                    fail(connection, errno: errno, isHead: isHead)
                    return
                }
                if let end = LiveReload.headStartEnd(head), end <= insertion {
                    base = LiveReload.rootBase
                    baseInsertion = end
                }
            }
        }
        headers =
            [
                ("Content-Type", type), ("Content-Length", String(opened.size + base.count + script.count)),
                ("X-Content-Type-Options", "nosniff"),
            ] + headers + [header]
        connection.send(HTTPResponseHead(status, headers).bytes)
        guard !isHead else { return }
        connection.send(file, from: 0, to: baseInsertion)
        connection.send(base)
        connection.send(file, from: baseInsertion, to: insertion)
        connection.send(script)
        connection.send(file, from: insertion, to: opened.size)
    }

    /// Up to `count` bytes of `file` from `offset` (fewer at its end); nil with `errno` set when
    /// reading fails.
    private static func bytes(of file: OpenFile, from offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var read: Int
        repeat {
            read = bytes.withUnsafeMutableBytes { pread(file.descriptor, $0.baseAddress, $0.count, off_t(offset)) }
        } while read < 0 && errno == EINTR
        guard read >= 0 else { return nil }
        bytes.removeLast(bytes.count - read)
        return bytes
    }

    private static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return nil }
        return withUnsafePointer(to: &address) { pointer -> Int? in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin_port))
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            default:
                return nil
            }
        }
    }

    /// Whether the socket is bound to a loopback address (127.0.0.0/8 or ::1).
    private static func isLoopback(_ fd: Int32) -> Bool {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return withUnsafePointer(to: &address) { pointer in
            switch Int32(pointer.pointee.ss_family) {
            case AF_INET:
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt32(bigEndian: $0.pointee.sin_addr.s_addr) >> 24 == 127
                }
            case AF_INET6:
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    withUnsafeBytes(of: pointer.pointee.sin6_addr) { bytes in
                        bytes.prefix(15).allSatisfy { $0 == 0 } && bytes[15] == 1
                    }
                }
            default:
                return false
            }
        }
    }
}
