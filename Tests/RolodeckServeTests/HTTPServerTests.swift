import Foundation
import HTTPTestClient
import Testing
@testable import RolodeckServe
@testable import RolodeckTestSupport
@testable import RolodeckCore

#if canImport(Glibc)
    import Glibc
#endif

/// The preview server with real sockets and real requests: statuses, content types, HEAD,
/// validators, traversal attempts, stalled and numerous clients, and live-reload events.
@Suite(.serialized) struct HTTPServerTests {
    /// A server on an ephemeral port of 127.0.0.1, over an output folder with a few files and
    /// links pointing out of it, running on its own thread until the fixture goes away.
    final class Fixture: @unchecked Sendable {
        let server: HTTPServer
        let root: String
        let secret = "top secret, outside the output"
        var port: Int { server.port }
        private let done = DispatchSemaphore(value: 0)

        init(limits: HTTPServer.Limits = HTTPServer.Limits(), allowedHosts: [String] = []) throws {
            let scratch = try Fixtures.temporaryFolder()
            let root = scratch.appendingPathComponent("out").path
            self.root = root
            let files: [String: String] = [
                "index.html": "<!DOCTYPE html>\n<html><body><h1>Index</h1></body></html>\n",
                "404.html":
                    "<!DOCTYPE html>\n<html><head><link rel=\"stylesheet\" href=\"style.css\"></head>"
                    + "<body><h1>Not found</h1></body></html>\n",
                "style.css": "body { color: teal }\n",
                "contacts/kim.html": "<!DOCTYPE html>\n<html><body>Kim</body></html>\n",
                "img/logo.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\"/>",
                "birthdays.ics": "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n",
                "data.bin": String(repeating: "0123456789abcdef", count: 65536),
                ".rolodeck": "manifest",
            ]
            for (path, text) in files {
                let url = URL(fileURLWithPath: root + "/" + path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            }
            try Data(secret.utf8).write(to: scratch.appendingPathComponent("secret.txt"))
            try FileManager.default.createSymbolicLink(
                atPath: root + "/link.html", withDestinationPath: "../secret.txt")
            try FileManager.default.createSymbolicLink(atPath: root + "/up", withDestinationPath: "..")
            server = try HTTPServer(host: "127.0.0.1", port: 0, allowedHosts: allowedHosts, limits: limits) {
                root
            }
            let server = self.server
            let done = self.done
            Thread.detachNewThread {
                server.run()
                done.signal()
            }
        }

        deinit {
            server.stop()
            done.wait()
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var request: String
        var isHead = false
        var status: Int
        var type: String?
        /// Text the body must contain.
        var contains: String?
        var testDescription: String { label }
    }

    static func get(_ target: String) -> String {
        "GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    }

    static let cases: [Case] = [
        Case(
            label: "the index at /", request: get("/"), status: 200, type: "text/html; charset=utf-8",
            contains: "<h1>Index</h1>"),
        Case(
            label: "a page", request: get("/contacts/kim.html"), status: 200,
            type: "text/html; charset=utf-8", contains: "Kim"),
        Case(
            label: "a stylesheet", request: get("/style.css"), status: 200, type: "text/css; charset=utf-8",
            contains: "teal"),
        Case(
            label: "an image", request: get("/img/logo.svg?v=2"), status: 200, type: "image/svg+xml",
            contains: "<svg"),
        Case(
            label: "a calendar, which calendar apps subscribe to", request: get("/birthdays.ics"), status: 200,
            type: "text/calendar; charset=utf-8", contains: "BEGIN:VCALENDAR"),
        Case(
            label: "a missing page gets the theme's 404 page", request: get("/nobody.html"), status: 404,
            type: "text/html; charset=utf-8", contains: "<h1>Not found</h1>"),
        Case(
            label: "a folder without an index", request: get("/contacts/"), status: 404, contains: "Not found"
        ),
        Case(
            label: "HEAD",
            request: "HEAD /style.css HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n",
            isHead: true,
            status: 200, type: "text/css; charset=utf-8"),
        Case(label: "HTTP/1.0", request: "GET /style.css HTTP/1.0\r\n\r\n", status: 200, contains: "teal"),
        Case(
            label: "the absolute form", request: get("http://localhost:8000/style.css"), status: 200,
            contains: "teal"),
        Case(
            label: "POST is not allowed",
            request: "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", status: 405),
        Case(
            label: "a body is refused",
            request: "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\n\r\nabcd", status: 413),
        Case(
            label: "HTTP/2 is not spoken", request: "GET / HTTP/2.0\r\nHost: localhost\r\n\r\n", status: 505),
        Case(label: "no Host", request: "GET / HTTP/1.1\r\n\r\n", status: 400),
        Case(
            label: "a head too large",
            request: "GET / HTTP/1.1\r\nHost: localhost\r\nX: " + String(repeating: "a", count: 20000)
                + "\r\n\r\n", status: 431),
        // Traversal: never the secret, whichever way the path is written.
        Case(label: "dot dot", request: get("/../secret.txt"), status: 400),
        Case(label: "dot dot inside", request: get("/contacts/../../secret.txt"), status: 400),
        Case(label: "encoded dot dot", request: get("/%2e%2e/secret.txt"), status: 400),
        Case(
            label: "encoded dot dot and slash", request: get("/contacts%2F..%2F..%2Fsecret.txt"), status: 400),
        Case(label: "backslashes", request: get("/..%5Csecret.txt"), status: 400),
        Case(label: "an absolute path", request: get("//etc/passwd"), status: 400),
        Case(label: "an absolute path in the file system", request: get("/etc/passwd"), status: 404),
        Case(label: "dot dot after a host", request: get("http://localhost:8000/../secret.txt"), status: 400),
        Case(label: "a link to a file outside", request: get("/link.html"), status: 404),
        Case(label: "a link to the folder above", request: get("/up/secret.txt"), status: 404),
        Case(label: "the manifest", request: get("/.rolodeck"), status: 404),
        Case(label: "a NUL byte", request: get("/index.html%00.css"), status: 400),
    ]

    @Test(arguments: cases)
    func answers(_ test: Case) throws {
        let fixture = try Fixture()
        let response = try #require(
            try HTTPClient.exchange(port: fixture.port, test.request, head: test.isHead))
        #expect(response.status == test.status)
        if let type = test.type { #expect(response.headers["content-type"] == type) }
        if let text = test.contains { #expect(response.text.contains(text), "\(response.text)") }
        #expect(!response.text.contains(fixture.secret))
        #expect(!response.text.contains("manifest") || test.status != 404)
        if test.isHead {
            #expect(response.body.isEmpty)
            let full = try #require(try HTTPClient.get(port: fixture.port, "/style.css"))
            #expect(response.headers["content-length"] == String(full.body.count))
            #expect(response.headers["etag"] == full.headers["etag"])
        }
        if test.status == 200 {
            #expect(response.headers["cache-control"] == "no-cache")
            #expect(response.headers["etag"] != nil)
        }
    }

    @Test func pagesGetTheLiveReloadScriptButTheFilesDoNot() throws {
        let fixture = try Fixture()
        let page = try #require(try HTTPClient.get(port: fixture.port, "/contacts/kim.html"))
        #expect(page.text.hasPrefix("<!DOCTYPE html>\n<html><body>Kim<script data-rolodeck-serve>"))
        #expect(page.text.hasSuffix("</script>\n</body></html>\n"))
        #expect(page.headers["content-length"] == String(page.body.count))
        let missing = try #require(try HTTPClient.get(port: fixture.port, "/gone.html"))
        #expect(missing.text.contains("missing = true"))
        let onDisk = try String(contentsOfFile: fixture.root + "/contacts/kim.html", encoding: .utf8)
        #expect(!onDisk.contains("<script"))
        let stylesheet = try #require(try HTTPClient.get(port: fixture.port, "/style.css"))
        #expect(stylesheet.text == "body { color: teal }\n")
    }

    /// The 404 page is sent for a missing page at any depth; its links lead from the root, where
    /// it lies, so it gets a `<base>` (and no other page does).
    @Test func theMissingPageLinksFromTheRootAtAnyDepth() throws {
        let fixture = try Fixture()
        for path in ["/gone.html", "/contacts/gone.html", "/a/b/c/", "/.rolodeck"] {
            let missing = try #require(try HTTPClient.get(port: fixture.port, path))
            #expect(missing.status == 404, "\(path)")
            #expect(
                missing.text.hasPrefix(
                    "<!DOCTYPE html>\n<html><head>\n<base href=\"/\"><link rel=\"stylesheet\" href=\"style.css\">"),
                "\(path): \(missing.text)")
            #expect(missing.headers["content-length"] == String(missing.body.count), "\(path)")
        }
        let page = try #require(try HTTPClient.get(port: fixture.port, "/contacts/kim.html"))
        #expect(!page.text.contains("<base"))
    }

    @Test func conditionalRequestsAreAnsweredWith304() throws {
        let fixture = try Fixture()
        let first = try #require(try HTTPClient.get(port: fixture.port, "/style.css"))
        let tag = try #require(first.headers["etag"])
        let modified = try #require(first.headers["last-modified"])
        #expect(
            try HTTPClient.get(port: fixture.port, "/style.css", headers: "If-None-Match: \(tag)\r\n")?.status
                == 304)
        #expect(
            try HTTPClient.get(
                port: fixture.port, "/style.css", headers: "If-None-Match: W/\(tag), \"x\"\r\n")?.status
                == 304)
        #expect(
            try HTTPClient.get(port: fixture.port, "/style.css", headers: "If-None-Match: \"other\"\r\n")?
                .status == 200)
        #expect(
            try HTTPClient.get(
                port: fixture.port, "/style.css", headers: "If-Modified-Since: \(modified)\r\n")?.status
                == 304)
        #expect(
            try HTTPClient.get(
                port: fixture.port, "/style.css",
                headers: "If-Modified-Since: Thu, 01 Jan 1970 00:00:00 GMT\r\n")?.status == 200)
        // A page's tag changes with every rebuild, since its script carries the site's generation.
        let page = try #require(try HTTPClient.get(port: fixture.port, "/"))
        let pageTag = try #require(page.headers["etag"])
        #expect(
            try HTTPClient.get(port: fixture.port, "/", headers: "If-None-Match: \(pageTag)\r\n")?.status
                == 304)
        fixture.server.siteRebuilt(changedPaths: [])
        #expect(
            try HTTPClient.get(port: fixture.port, "/", headers: "If-None-Match: \(pageTag)\r\n")?.status
                == 200)
        // The file changed: a new tag.
        try Data("body { color: red }\n".utf8).write(
            to: URL(fileURLWithPath: fixture.root + "/style.css.new"))
        rename(fixture.root + "/style.css.new", fixture.root + "/style.css")
        let changed = try #require(
            try HTTPClient.get(port: fixture.port, "/style.css", headers: "If-None-Match: \(tag)\r\n"))
        #expect(changed.status == 200 && changed.text == "body { color: red }\n")
    }

    @Test func keepAliveAndPipelinedRequestsAreAnsweredInOrder() throws {
        let fixture = try Fixture()
        let client = try HTTPClient(port: fixture.port)
        defer { client.close() }
        client.send("GET /style.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(client.response()?.text == "body { color: teal }\n")
        client.send(
            "HEAD /img/logo.svg HTTP/1.1\r\nHost: localhost\r\n\r\nGET /contacts/kim.html HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET /nobody HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(client.response(head: true)?.headers["content-type"] == "image/svg+xml")
        #expect(client.response()?.text.contains("Kim") == true)
        #expect(client.response()?.status == 404)
        #expect(client.isClosedByServer())
    }

    @Test func aLargeFileArrivesWhole() throws {
        let fixture = try Fixture()
        let response = try #require(try HTTPClient.get(port: fixture.port, "/data.bin"))
        #expect(response.headers["content-type"] == "application/octet-stream")
        #expect(response.body.count == 16 * 65536)
        #expect(response.body == Array(String(repeating: "0123456789abcdef", count: 65536).utf8))
    }

    @Test func aClientThatSendsHalfARequestAndStallsBlocksNoOne() throws {
        var limits = HTTPServer.Limits()
        limits.headTimeout = .seconds(60)
        let fixture = try Fixture(limits: limits)
        let stalled = try HTTPClient(port: fixture.port)
        defer { stalled.close() }
        stalled.send("GET /index.html HT")
        // Others are served while it waits.
        for _ in 0..<5 {
            #expect(try HTTPClient.get(port: fixture.port, "/style.css")?.status == 200)
        }
    }

    @Test func aStalledRequestIsAnsweredWith408AndClosed() throws {
        var limits = HTTPServer.Limits()
        limits.headTimeout = .milliseconds(300)
        let fixture = try Fixture(limits: limits)
        let stalled = try HTTPClient(port: fixture.port)
        defer { stalled.close() }
        stalled.send("GET /index.html HTTP/1.1\r\nHost:")
        #expect(stalled.isClosedByServer())
        #expect(stalled.response()?.status == 408)
    }

    @Test func anIdleConnectionIsClosed() throws {
        var limits = HTTPServer.Limits()
        limits.idleTimeout = .milliseconds(300)
        let fixture = try Fixture(limits: limits)
        let idle = try HTTPClient(port: fixture.port)
        defer { idle.close() }
        #expect(idle.isClosedByServer())
    }

    @Test func manyConnectionsAtOnce() throws {
        let fixture = try Fixture()
        let clients = try (0..<200).map { _ in try HTTPClient(port: fixture.port) }
        defer { clients.forEach { $0.close() } }
        for client in clients { client.send("GET /contacts/kim.html HTTP/1.1\r\nHost: localhost\r\n\r\n") }
        for index in clients.indices {
            #expect(clients[index].response()?.status == 200, "client \(index)")
        }
    }

    @Test func liveReloadEventsReachEveryOpenPage() throws {
        let fixture = try Fixture()
        let pages = try (0..<3).map { _ in try HTTPClient(port: fixture.port) }
        defer { pages.forEach { $0.close() } }
        for index in pages.indices {
            pages[index].send("GET /.rolodeck-serve/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let head = try #require(pages[index].response())
            #expect(head.status == 200 && head.headers["content-type"] == "text/event-stream")
            #expect(pages[index].event(named: "hello") == "{\"generation\":1}")
        }
        fixture.server.siteRebuilt(changedPaths: ["contacts/kim.html", "index.html"])
        for index in pages.indices {
            #expect(
                pages[index].event(named: "reload")
                    == "{\"generation\":2,\"paths\":[\"/contacts/kim.html\",\"/index.html\"]}")
        }
        let problem = Diagnostic(
            .error, at: SourceLocation(path: "site/store/contacts.json", line: 3, column: 9), "oops")
        fixture.server.rebuildFailed([problem])
        for index in pages.indices {
            let failure = try #require(pages[index].event(named: "failure"))
            #expect(failure.contains("\"site/store/contacts.json:3:9: error: oops\""))
        }
        // A page opened while the site is broken hears of it at once.
        let late = try HTTPClient(port: fixture.port)
        defer { late.close() }
        late.send("GET /.rolodeck-serve/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        _ = late.response()
        #expect(late.event(named: "hello") == "{\"generation\":2}")
        #expect(late.event(named: "failure")?.contains("oops") == true)
        fixture.server.siteRebuilt(changedPaths: nil)
        #expect(late.event(named: "reload") == "{\"generation\":3,\"paths\":null}")
    }

    /// The If-Modified-Since values that killed the server (issue 22): each is no date, so the
    /// file is sent, and the server answers the next request.
    @Test(arguments: [
        "Mon, 01 Jan 99999999999 00:00:00 GMT", "Mon, 01 Jan 2147485548 00:00:00 GMT",
        "Mon, 01 Jan 9223372036854775807 00:00:00 GMT", "Mon, 01 Jan -9223372036854775807 00:00:00 GMT",
        "Mon, 01 Jan -9223372036854775808 00:00:00 GMT", "Mon, 99999999999 Jan 1994 00:00:00 GMT",
        "Mon, 01 Jan 1994 99999999999:00:00 GMT",
    ])
    func anIfModifiedSinceThatIsNoDateIsIgnored(_ date: String) throws {
        let fixture = try Fixture()
        let head = try #require(
            try HTTPClient.exchange(
                port: fixture.port,
                "HEAD /style.css HTTP/1.1\r\nHost: localhost\r\nIf-Modified-Since: \(date)\r\n\r\n",
                head: true))
        #expect(head.status == 200)
        let get = try #require(
            try HTTPClient.get(port: fixture.port, "/style.css", headers: "If-Modified-Since: \(date)\r\n"))
        #expect(get.status == 200 && get.text == "body { color: teal }\n")
        #expect(try HTTPClient.get(port: fixture.port, "/")?.status == 200)
    }

    /// A file dated past 2262 (as far as nanoseconds since 1970 fit in 64 bits) is served with its
    /// validators; working its tag out once trapped the server.
    @Test func aFileFromTheFarFutureIsServed() throws {
        let fixture = try Fixture()
        let path = fixture.root + "/future.css"
        try Data("future".utf8).write(to: URL(fileURLWithPath: path))
        // 1 January 2400; ext4 keeps times up to 2446.
        var times = [
            timespec(tv_sec: 13_569_465_600, tv_nsec: 5), timespec(tv_sec: 13_569_465_600, tv_nsec: 5),
        ]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        let response = try #require(try HTTPClient.get(port: fixture.port, "/future.css"))
        #expect(response.status == 200 && response.text == "future")
        #expect(response.headers["last-modified"] == "Sat, 01 Jan 2400 00:00:00 GMT")
        let tag = try #require(response.headers["etag"])
        #expect(
            try HTTPClient.get(port: fixture.port, "/future.css", headers: "If-None-Match: \(tag)\r\n")?
                .status == 304)
        #expect(
            try HTTPClient.get(
                port: fixture.port, "/future.css",
                headers: "If-Modified-Since: Sat, 01 Jan 2400 00:00:00 GMT\r\n")?
                .status == 304)
    }

    /// A file cut short while it is being sent: the response ends early (its length is already
    /// promised, so closing is all that is left to do) and the server goes on.
    @Test func aFileThatShrinksWhileSentEndsOnlyItsResponse() throws {
        let fixture = try Fixture()
        let path = fixture.root + "/big.bin"
        var bytes = [UInt8](repeating: 0, count: 16 << 20)
        // A pattern whose period is no power of two, so a piece sent from the wrong offset shows.
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = UInt8(index % 251) }
        }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let client = try HTTPClient(port: fixture.port, receiveBuffer: 8192)
        defer { client.close() }
        client.send("GET /big.bin HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let head = try #require(client.response(head: true))
        #expect(head.status == 200 && head.headers["content-length"] == String(16 << 20))
        // The client has read little, so most of the file is still to be read by the server.
        #expect(truncate(path, 1 << 20) == 0)
        let body = try #require(client.bytesUntilClosed())
        #expect(body.count < 16 << 20)
        #expect(body[...] == bytes.prefix(body.count))
        #expect(try HTTPClient.get(port: fixture.port, "/style.css")?.status == 200)
    }

    /// DNS rebinding: a request naming a host the server does not answer for is refused, for a
    /// page and for the event stream alike, and says which option would allow it.
    @Test(arguments: ["/", "/style.css", "/.rolodeck-serve/events", "/nobody.html", "/../secret.txt"])
    func aForeignHostIsRefused(_ path: String) throws {
        let fixture = try Fixture()
        let client = try HTTPClient(port: fixture.port)
        defer { client.close() }
        client.send("GET \(path) HTTP/1.1\r\nHost: evil.example:\(fixture.port)\r\n\r\n")
        let response = try #require(client.response())
        // Required: an event stream let through would never close, and the test never end.
        try #require(response.status == 403)
        #expect(response.headers["content-type"] == "text/plain; charset=utf-8")
        #expect(response.text.hasPrefix("403 Forbidden\n"))
        #expect(response.text.contains("rolodeck serve --allow-host evil.example\n"), "\(response.text)")
        #expect(!response.text.contains("Index") && !response.text.contains("teal"))
        #expect(client.isClosedByServer())
        // The absolute form names the host too.
        let absolute = try #require(
            try HTTPClient.exchange(
                port: fixture.port, "GET http://evil.example\(path) HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        #expect(absolute.status == 403)
        #expect(try HTTPClient.get(port: fixture.port, "/style.css")?.status == 200)
    }

    @Test func loopbackNamesAddressesAndAllowedNamesAreAnswered() throws {
        let fixture = try Fixture(allowedHosts: ["preview.lan"])
        let port = fixture.port
        for host in [
            "localhost", "localhost:\(port)", "LOCALHOST.:\(port)", "rolodeck.localhost:\(port)", "127.0.0.1",
            "127.0.0.1:\(port)", "[::1]:\(port)", "192.168.1.20:\(port)", "preview.lan",
            "Preview.LAN:\(port)",
        ] {
            let page = try #require(
                try HTTPClient.exchange(
                    port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"))
            #expect(page.status == 200 && page.text.contains("<h1>Index</h1>"), "\(host)")
            let events = try HTTPClient(port: port)
            defer { events.close() }
            events.send("GET /.rolodeck-serve/events HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(events.response()?.headers["content-type"] == "text/event-stream", "\(host)")
            #expect(events.event(named: "hello") == "{\"generation\":1}", "\(host)")
        }
        for host in ["other.lan", "sub.preview.lan", "127.0.0.1.evil.example"] {
            #expect(
                try HTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")?.status == 403,
                "\(host)")
        }
        for host in ["", "localhost:99999999999999999999", "user@localhost", "[::1"] {
            #expect(
                try HTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")?.status == 400,
                "\(host)")
        }
    }

    @Test func listeningOnATakenPortSaysSo() throws {
        let fixture = try Fixture()
        #expect(throws: ServeError(.cannotListen(host: "127.0.0.1", port: fixture.port, errno: EADDRINUSE))) {
            _ = try HTTPServer(host: "127.0.0.1", port: fixture.port) { fixture.root }
        }
        #expect(fixture.server.isLoopback)
        #expect(throws: ServeError.self) { _ = try HTTPServer(host: "no such host.invalid", port: 0) { "" } }
    }
}
