import Foundation
import Testing
@testable import RolodeckServe
@testable import RolodeckTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// One connection's reading and sending, over a socket pair: what a client sends ahead is left
/// in its socket, and a file cut short ends its response instead of hanging or crashing.
@Suite struct HTTPConnectionTests {
    /// A connected pair of non-blocking stream sockets: the server's end and the client's.
    static func socketPair() throws -> (server: Int32, client: Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        return (ends[0], ends[1])
    }

    @Test func aClientThatSendsAheadIsReadOnlyUpToTheLimit() throws {
        let (server, client) = try Self.socketPair()
        defer { close(client) }
        let connection = HTTPConnection(descriptor: server, now: .now)
        // Requests in large writes: a socket's buffer is counted in buffers, not bytes.
        let request = Array(String(repeating: "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n", count: 1000).utf8)
        var sent = 0
        while true {
            let count = request.withUnsafeBytes {
                send(client, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
            }
            guard count > 0 else { break }
            sent += count
        }
        #expect(sent > 3 * 16385)
        #expect(connection.receive(limit: 16385))
        #expect(connection.input.count > 16385)
        #expect(connection.input.count <= 16385 + 16384)
        // Full: nothing more is taken until the input is consumed.
        let held = connection.input.count
        #expect(connection.receive(limit: 16385))
        #expect(connection.input.count == held)
        connection.input.removeAll()
        #expect(connection.receive(limit: 16385))
        #expect(connection.input.count > 0)
    }

    @Test func aFileCutShortEndsTheResponse() throws {
        let (server, client) = try Self.socketPair()
        defer { close(client) }
        let path = try Fixtures.temporaryFolder().appendingPathComponent("page.html").path
        try Data(repeating: 0x61, count: 100_000).write(to: URL(fileURLWithPath: path))
        let file = OpenFile(open(path, O_RDONLY))
        let connection = HTTPConnection(descriptor: server, now: .now)
        connection.send(Array("head".utf8))
        connection.send(file, from: 0, to: 100_000)
        #expect(truncate(path, 10) == 0)
        #expect(!connection.flush(now: .now))
        var received = [UInt8](repeating: 0, count: 200_000)
        let count = recv(client, &received, received.count, Int32(MSG_DONTWAIT))
        #expect(count == 14)
        #expect(Array(received[0..<14]) == Array("head".utf8) + [UInt8](repeating: 0x61, count: 10))
    }
}
