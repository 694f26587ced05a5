import Foundation
import HTTPTestClient
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `rolodeck serve` with real HTTP requests against the running binary.
@Suite(.serialized) struct ServeTests {
    /// A served copy of the demo site.
    final class Served {
        let site: URL
        let out: URL
        let serve: RunningCommand
        let port: Int

        init(_ extra: [String] = [], environment: [String: String] = [:], name: String = #function) throws {
            site = try CLI.copyOfDemo(name)
            out = site.deletingLastPathComponent().appendingPathComponent("out")
            serve = try RunningCommand(
                ["serve", "--site", site.path, "--out", out.path, "--port", "0"] + extra,
                environment: environment)
            let line = try #require(
                serve.waitForLine { $0.hasPrefix("Serving ") }, "serve did not start: \(serve.stderr)")
            port = try #require(line.split(separator: ":").last.flatMap { Int($0.dropLast()) })
            #expect(serve.waitForLine { $0.hasPrefix("Watching ") } != nil)
        }

        func get(_ path: String, headers: String = "") throws -> HTTPClient.Response? {
            try HTTPClient.get(port: port, path, headers: headers)
        }

        func edit(_ relative: String, _ old: String, _ new: String) throws {
            let url = site.appendingPathComponent(relative)
            let text = try String(contentsOf: url, encoding: .utf8)
            #expect(text.contains(old))
            try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: url, options: .atomic)
        }

        /// An open event stream, past its greeting.
        func events() throws -> HTTPClient {
            let client = try HTTPClient(port: port)
            client.send("GET /.rolodeck-serve/events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(client.response()?.headers["content-type"] == "text/event-stream")
            #expect(client.event(named: "hello") != nil)
            return client
        }

        deinit {
            #expect(serve.stop() == 0)
            #expect(serve.stdout.last == "Stopped watching.")
        }
    }

    @Test func pagesStatusesTypesAndHead() throws {
        let served = try Served()
        let index = try #require(try served.get("/"))
        #expect(index.status == 200)
        #expect(index.headers["content-type"] == "text/html; charset=utf-8")
        #expect(index.text.contains("<title>Rolodeck Demo Directory</title>"))
        #expect(index.text.contains("<script data-rolodeck-serve>"))
        let onDisk = try String(contentsOf: served.out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!onDisk.contains("data-rolodeck-serve"))
        #expect(index.body.count == onDisk.utf8.count + (index.text.count - onDisk.count))

        let contact = try #require(try served.get("/contacts/kim-cheolsu.html"))
        #expect(contact.status == 200 && contact.text.contains("김철수"))
        let css = try #require(try served.get("/style.css"))
        #expect(css.headers["content-type"] == "text/css; charset=utf-8")
        #expect(css.body == Array(try Data(contentsOf: served.out.appendingPathComponent("style.css"))))
        #expect(css.headers["cache-control"] == "no-cache")

        let head = try #require(
            try HTTPClient.exchange(
                port: served.port, "HEAD /style.css HTTP/1.1\r\nHost: localhost\r\n\r\n", head: true))
        #expect(
            head.status == 200 && head.body.isEmpty
                && head.headers["content-length"] == String(css.body.count))
        #expect(
            try served.get("/style.css", headers: "If-None-Match: \(css.headers["etag"] ?? "")\r\n")?.status
                == 304)

        // The theme's 404 page, its links led from the root by a <base> (served a folder down).
        let missing = try #require(try served.get("/contacts/nobody.html"))
        #expect(missing.status == 404)
        #expect(missing.text.contains("<head>\n<base href=\"/\">\n"))
        #expect(
            missing.text.replacingOccurrences(of: "\n<base href=\"/\">", with: "").contains(
                try String(contentsOf: served.out.appendingPathComponent("404.html"), encoding: .utf8)
                    .components(separatedBy: "</body>")[0]))
        #expect(
            try HTTPClient.exchange(port: served.port, "DELETE / HTTP/1.1\r\nHost: localhost\r\n\r\n")?.status
                == 405)
    }

    @Test func nothingOutsideTheOutputIsServed() throws {
        let served = try Served()
        let config = try String(
            contentsOf: served.site.appendingPathComponent("rolodeck.json"), encoding: .utf8)
        try FileManager.default.createSymbolicLink(
            atPath: served.out.path + "/config.html", withDestinationPath: "../site/rolodeck.json")
        try FileManager.default.createSymbolicLink(
            atPath: served.out.path + "/site", withDestinationPath: "../site")
        let attempts = [
            "/../site/rolodeck.json", "/%2e%2e/site/rolodeck.json",
            "/contacts/%2E%2E/%2E%2E/site/rolodeck.json",
            "/contacts%2f..%2f..%2fsite%2frolodeck.json", "/config.html", "/site/rolodeck.json",
            "//etc/passwd",
            "/etc/passwd", "/.rolodeck", "http://localhost/../site/rolodeck.json",
        ]
        for attempt in attempts {
            let response = try #require(try served.get(attempt))
            #expect([400, 404].contains(response.status), "\(attempt): \(response.status)")
            #expect(!response.text.contains(config), "\(attempt) leaked the config")
            #expect(!response.text.contains("root:"), "\(attempt) leaked /etc/passwd")
        }
    }

    @Test func aStalledClientDoesNotBlockOthers() throws {
        let served = try Served()
        let stalled = try HTTPClient(port: served.port)
        defer { stalled.close() }
        stalled.send("GET /index.html HTTP/1.1\r\nHo")
        for _ in 0..<3 {
            #expect(try served.get("/style.css")?.status == 200)
        }
    }

    @Test func theReloadEventArrivesAfterASave() throws {
        let served = try Served()
        let events = try served.events()
        defer { events.close() }
        try served.edit("store/contacts.json", "Prefers **phone calls**", "Prefers **letters**")
        let reload = try #require(events.event(named: "reload"))
        #expect(reload.contains("\"/contacts/juergen-mueller.html\""), "\(reload)")
        #expect(try served.get("/contacts/juergen-mueller.html")?.text.contains("letters") == true)
    }

    @Test func aFailedRebuildReachesTheBrowserWithItsPlace() throws {
        let served = try Served()
        let events = try served.events()
        defer { events.close() }
        try served.edit("store/contacts.json", "\"birthday\": \"1992-08-17\"", "\"birthday\": \"1990-02-30\"")
        let failure = try #require(events.event(named: "failure"))
        let contacts = served.site.appendingPathComponent("store/contacts.json").path
        #expect(failure.contains("\"\(contacts):"), "\(failure)")
        #expect(failure.contains(": error: birthday \\\"1990-02-30\\\" is not a date"), "\(failure)")
        // The last good site is still served.
        #expect(try served.get("/")?.status == 200)
        try served.edit("store/contacts.json", "\"birthday\": \"1990-02-30\"", "\"birthday\": \"1990-02-28\"")
        #expect(events.event(named: "reload") != nil)
    }

    @Test func anotherInterfaceIsServedWithAWarning() throws {
        let served = try Served(["--host", "0.0.0.0"])
        #expect(served.serve.stderr.contains { $0.hasPrefix("warning: serving on 0.0.0.0") })
        #expect(try served.get("/style.css")?.status == 200)
    }

    /// The requests of issue 22 that killed serve: each is answered, and serve keeps serving
    /// (and, stopped at the end, exits cleanly rather than by a signal).
    @Test func ifModifiedSinceValuesThatKilledServeAreIgnored() throws {
        let served = try Served()
        for date in [
            "Mon, 01 Jan 99999999999 00:00:00 GMT", "Mon, 01 Jan 2147485548 00:00:00 GMT",
            "Mon, 01 Jan 9223372036854775807 00:00:00 GMT", "Mon, 01 Jan -9223372036854775807 00:00:00 GMT",
        ] {
            let head = try #require(
                try HTTPClient.exchange(
                    port: served.port,
                    "HEAD /style.css HTTP/1.1\r\nHost: localhost\r\nIf-Modified-Since: \(date)\r\n\r\n",
                    head: true),
                "no answer to If-Modified-Since: \(date)")
            #expect(head.status == 200, "\(date)")
        }
        #expect(try served.get("/")?.status == 200)
    }

    /// DNS rebinding: pages and the event stream are refused to a foreign Host, with the option
    /// that would allow it; this machine's names and the names given with --allow-host are not.
    @Test func foreignHostsAreRefusedAndAllowedOnesAnswered() throws {
        let served = try Served(["--allow-host", "preview.lan, other.lan"])
        for path in ["/", "/.rolodeck-serve/events"] {
            let refused = try #require(
                try HTTPClient.exchange(
                    port: served.port, "GET \(path) HTTP/1.1\r\nHost: evil.example\r\n\r\n"))
            #expect(refused.status == 403, "\(path)")
            #expect(refused.text.contains("rolodeck serve --allow-host evil.example"), "\(refused.text)")
            #expect(refused.headers["content-type"] == "text/plain; charset=utf-8")
        }
        for host in [
            "localhost", "127.0.0.1:\(served.port)", "[::1]:\(served.port)", "preview.lan", "other.lan:80",
        ] {
            let page = try #require(
                try HTTPClient.exchange(
                    port: served.port, "GET / HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"))
            #expect(page.status == 200 && page.text.contains("<title>Rolodeck Demo Directory</title>"), "\(host)")
            let events = try HTTPClient(port: served.port)
            defer { events.close() }
            events.send("GET /.rolodeck-serve/events HTTP/1.1\r\nHost: \(host)\r\n\r\n")
            #expect(events.response()?.headers["content-type"] == "text/event-stream", "\(host)")
        }
    }

    @Test func anAllowedHostThatIsNoNameIsAUsageError() throws {
        let site = try CLI.copyOfDemo()
        for value in ["preview.lan:8000", "http://preview.lan", "*"] {
            let result = try CLI.run(["serve", "--site", site.path, "--port", "0", "--allow-host", value])
            #expect(result.status == 64, "\(value)")
            #expect(
                result.stderr.hasPrefix(
                    "rolodeck serve: option '--allow-host' needs host names without a port, separated by commas, "
                        + "not '\(value)'"), "\(result.stderr)")
        }
    }

    /// With no file descriptor left (too many clients for `ulimit -n`), a request is answered
    /// 500 with the reason instead of a misleading 404, and serve goes on once one is free.
    @Test func runningOutOfFileDescriptorsAnswers500() throws {
        let served = try Served()
        let pid = served.serve.process.processIdentifier
        let client = try HTTPClient(port: served.port)
        defer { client.close() }
        client.send("GET /style.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(client.response()?.status == 200)
        // The lowest free descriptor becomes the limit: serve can open nothing more.
        let open = Set(
            try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").compactMap { Int($0) })
        let lowestFree = try #require((0...).first { !open.contains($0) })
        var limit = rlimit()
        try #require(Self.setFileLimit(of: pid, to: nil, old: &limit))
        var tight = rlimit(rlim_cur: rlim_t(lowestFree), rlim_max: limit.rlim_max)
        try #require(Self.setFileLimit(of: pid, to: &tight, old: nil))
        client.send("GET /style.css HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let failed = try #require(client.response())
        #expect(failed.status == 500)
        #expect(
            failed.text == "500 Internal Server Error\nThe file could not be read: Too many open files.\n")
        #expect(client.isClosedByServer())
        try #require(Self.setFileLimit(of: pid, to: &limit, old: nil))
        #expect(try served.get("/style.css")?.status == 200)
    }

    /// `prlimit(2)` on another process's RLIMIT_NOFILE. Swift's Glibc module leaves the GNU
    /// function out, so it is looked up in the C library by name.
    private static func setFileLimit(
        of pid: pid_t, to new: UnsafePointer<rlimit>?, old: UnsafeMutablePointer<rlimit>?
    ) -> Bool {
        typealias Prlimit =
            @convention(c) (
                pid_t, Int32, UnsafePointer<rlimit>?, UnsafeMutablePointer<rlimit>?
            ) -> Int32
        guard let symbol = dlsym(nil, "prlimit") else { return false }
        return unsafeBitCast(symbol, to: Prlimit.self)(pid, Int32(RLIMIT_NOFILE.rawValue), new, old) == 0
    }

    @Test func aBadPortIsAUsageErrorAndATakenOneAFailure() throws {
        let site = try CLI.copyOfDemo()
        let bad = try CLI.run(["serve", "--site", site.path, "--port", "99999"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("rolodeck serve: option '--port' needs a number from 0 to 65535"))
        let served = try Served()
        let taken = try CLI.run(["serve", "--site", site.path, "--port", String(served.port)])
        #expect(taken.status == 1)
        #expect(taken.stderr.contains("cannot listen on 127.0.0.1:\(served.port): Address already in use"))
    }

    /// `--open` runs the `xdg-open` found on PATH with the preview's address, once it answers.
    @Test func openStartsTheBrowserWithThePreviewsAddress() throws {
        let bin = try CLI.temporaryFolder().appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let opened = bin.appendingPathComponent("opened")
        // A stand-in for xdg-open that writes down what it was asked to open.
        let opener = bin.appendingPathComponent("xdg-open")
        try Data(
            """
            #!/bin/sh
            printf '%s\n' "$@" > "\(opened.path).tmp" && mv "\(opened.path).tmp" "\(opened.path)"

            """.utf8
        ).write(to: opener)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let served = try Served(["--open", "--host", "0.0.0.0"], environment: ["PATH": path])
        #expect(
            RunningCommand.eventually(timeout: 30) { FileManager.default.fileExists(atPath: opened.path) })
        #expect(try String(contentsOf: opened, encoding: .utf8) == "http://127.0.0.1:\(served.port)/\n")
        #expect(try served.get("/")?.text.contains("<title>Rolodeck Demo Directory</title>") == true)
        #expect(!served.serve.stderr.contains { $0.contains("xdg-open") })
    }

    /// Without `xdg-open` the preview runs anyway, and says which address to open.
    @Test func openWithoutABrowserOpenerIsAWarning() throws {
        let empty = try CLI.temporaryFolder()
        let served = try Served(["--open"], environment: ["PATH": empty.path])
        #expect(
            served.serve.waitForLine(onError: true) {
                $0 == "warning: cannot open a browser: xdg-open is not on PATH; "
                    + "open http://127.0.0.1:\(served.port)/ yourself"
            } != nil, "\(served.serve.stderr)")
        #expect(try served.get("/")?.status == 200)
    }
}
