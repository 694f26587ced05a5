#if canImport(Glibc)
    import Glibc
#endif

/// An open file that closes itself when the last response piece that reads it is gone.
final class OpenFile {
    /// The open file's descriptor.
    let descriptor: Int32

    /// Takes ownership of `descriptor`.
    init(_ descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}

/// One client connection of the preview server: what it sent that is not answered yet, and
/// what is still to be sent to it. Used by the server's one thread only.
final class HTTPConnection {
    /// A piece of a response still to be sent.
    enum Piece {
        /// Bytes, sent from `offset` on.
        case bytes([UInt8], offset: Int)
        /// A stretch of a file, read as it is sent.
        case file(OpenFile, from: Int, to: Int)
    }

    /// The connection's socket.
    let descriptor: Int32
    /// Bytes received and not yet consumed by a request.
    var input: [UInt8] = []
    /// What is still to be sent, in order.
    var output: [Piece] = []
    /// How many bytes `output` holds (file stretches included).
    var queued = 0
    /// Whether this connection is an event stream, which stays open for live reload.
    var isEventStream = false
    /// Whether to close once `output` is sent.
    var closesAfterWriting = false
    /// Whether the client closed its side; answered requests are still sent.
    var peerClosed = false
    /// When the request being received began, or when the connection became idle.
    var waitingSince: ContinuousClock.Instant
    /// When bytes last moved, for the write timeout.
    var lastProgress: ContinuousClock.Instant

    /// A connection on the socket `descriptor`, accepted at `now`.
    init(descriptor: Int32, now: ContinuousClock.Instant) {
        self.descriptor = descriptor
        waitingSince = now
        lastProgress = now
    }

    deinit { close(descriptor) }

    /// Queues bytes.
    func send(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        output.append(.bytes(bytes, offset: 0))
        queued += bytes.count
    }

    /// Queues a stretch of a file.
    func send(_ file: OpenFile, from: Int, to: Int) {
        guard to > from else { return }
        output.append(.file(file, from: from, to: to))
        queued += to - from
    }

    /// Reads what the client sent, until `input` holds more than `limit` bytes or that many
    /// were read; false when it closed its side or the connection failed.
    func receive(limit: Int) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16384)
        var received = 0
        // A client that sends ahead of the answers waits in its socket, not in this memory; one
        // that never stops sending (an event stream's is dropped) does not keep the loop here.
        while input.count <= limit, received <= limit {
            let count = buffer.withUnsafeMutableBytes {
                recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            if count > 0 {
                received += count
                // An event stream's client has nothing to say; what it sends anyway is dropped.
                if !isEventStream { input += buffer[0..<count] }
                continue
            }
            if count == 0 { return false }
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
        }
        return true
    }

    /// Sends as much as the socket takes; false when the connection failed.
    func flush(now: ContinuousClock.Instant) -> Bool {
        while let piece = output.first {
            switch piece {
            case .bytes(let bytes, let offset):
                let count = bytes.withUnsafeBytes { buffer in
                    Glibc.send(
                        descriptor, buffer.baseAddress! + offset, bytes.count - offset,
                        Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                }
                if count < 0 {
                    return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR
                }
                lastProgress = now
                queued -= count
                if offset + count == bytes.count {
                    output.removeFirst()
                } else {
                    output[0] = .bytes(bytes, offset: offset + count)
                    return true
                }
            case .file(let file, let from, let to):
                // Read the next chunk into a bytes piece in front of the rest of the stretch.
                var chunk = [UInt8](repeating: 0, count: min(65536, to - from))
                let count = chunk.withUnsafeMutableBytes {
                    pread(file.descriptor, $0.baseAddress, $0.count, off_t(from))
                }
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }  // the file shrank under us: end the response
                chunk.removeLast(chunk.count - count)
                output[0] = .bytes(chunk, offset: 0)
                if from + count < to { output.insert(.file(file, from: from + count, to: to), at: 1) }
            }
        }
        return true
    }
}
