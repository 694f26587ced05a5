import Testing
@testable import RolodeckServe

/// Hostile requests through the whole request path before the file system
/// (`HTTPRequestFuzzing`): none may crash the process, and each gets the 4xx it deserves.
@Suite struct HTTPRequestFuzzingTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var bytes: [UInt8]
        var statuses: [Int]
        var testDescription: String { label }

        init(_ label: String, _ text: String, _ statuses: [Int]) {
            self.label = label
            self.bytes = Array(text.utf8)
            self.statuses = statuses
        }

        init(_ label: String, bytes: [UInt8], _ statuses: [Int]) {
            self.label = label
            self.bytes = bytes
            self.statuses = statuses
        }
    }

    static func get(_ target: String, _ fields: String = "") -> String {
        "GET \(target) HTTP/1.1\r\nHost: localhost:8000\r\n\(fields)\r\n"
    }

    static let huge = "99999999999999999999999999999999999999"
    static let long = String(repeating: "a", count: 17 * 1024)

    static let cases: [Case] = [
        Case("a plain GET", get("/"), [200]),
        Case(
            "pipelined, then closed", get("/") + get("/a.html", "Connection: close\r\n") + get("/"),
            [200, 200]),
        Case("half a request", "GET / HTTP/1.1\r\nHost: localhost", []),
        Case("nothing but line ends", String(repeating: "\r\n", count: 20000), [414]),
        // Numbers too large for any integer, negative and malformed.
        Case("a huge Content-Length", get("/", "Content-Length: \(huge)\r\n"), [413]),
        Case("Int.max as Content-Length", get("/", "Content-Length: 9223372036854775807\r\n"), [413]),
        Case("a negative Content-Length", get("/", "Content-Length: -1\r\n"), [400]),
        Case("Int.min as Content-Length", get("/", "Content-Length: -9223372036854775808\r\n"), [400]),
        Case("a Content-Length in hex", get("/", "Content-Length: 0x0\r\n"), [400]),
        Case("Content-Length with a space inside", get("/", "Content-Length: 1 0\r\n"), [400]),
        Case("a list of different lengths", get("/", "Content-Length: 0,1\r\n"), [400]),
        Case("a zero length written long", get("/", "Content-Length: 0000000000000000000000000\r\n"), [200]),
        Case(
            "chunked beside a length", get("/", "Transfer-Encoding: chunked\r\nContent-Length: 0\r\n"), [400]),
        Case("a body with chunks", get("/", "Transfer-Encoding: chunked\r\n") + "0\r\n\r\n", [413]),
        Case("a port too large", "GET / HTTP/1.1\r\nHost: localhost:\(huge)\r\n\r\n", [400]),
        Case("a negative port", "GET / HTTP/1.1\r\nHost: localhost:-8000\r\n\r\n", [400]),
        // If-Modified-Since: the years that trapped the server (issue 22) are no dates.
        Case(
            "a year of 11 digits", get("/", "If-Modified-Since: Mon, 01 Jan 99999999999 00:00:00 GMT\r\n"),
            [200]),
        Case(
            "a year past Int32", get("/", "If-Modified-Since: Mon, 01 Jan 2147485548 00:00:00 GMT\r\n"), [200]
        ),
        Case(
            "Int.max as a year",
            get("/", "If-Modified-Since: Mon, 01 Jan 9223372036854775807 00:00:00 GMT\r\n"), [200]),
        Case(
            "-Int.max as a year",
            get("/", "If-Modified-Since: Mon, 01 Jan -9223372036854775807 00:00:00 GMT\r\n"),
            [200]),
        Case("a huge day", get("/", "If-Modified-Since: Mon, \(huge) Jan 1994 00:00:00 GMT\r\n"), [200]),
        Case("a huge hour", get("/", "If-Modified-Since: Mon, 01 Jan 1994 \(huge):00:00 GMT\r\n"), [200]),
        Case("a date that matches", get("/", "If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n"), [304]),
        Case("a tag that matches", get("/", "If-None-Match: W/\"1-2-3\"\r\n"), [304]),
        // NULs, control characters, invalid UTF-8.
        Case("a NUL in the target", "GET /a\u{0}b HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]),
        Case("a NUL in a field", get("/", "X: \u{0}\r\n"), [400]),
        Case("a NUL in a field name", get("/", "X\u{0}: 1\r\n"), [400]),
        Case("a NUL in the method", "G\u{0}ET / HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]),
        Case("a bare CR splitting a field", get("/", "X: 1\rContent-Length: 5\r\n"), [400]),
        Case("bytes above ASCII in the target", "GET /é HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]),
        Case(
            "invalid UTF-8 in a field",
            bytes: Array("GET / HTTP/1.1\r\nHost: localhost\r\nX: ".utf8) + [0xFF, 0xC0, 0x80]
                + Array("\r\n\r\n".utf8), [200]),
        Case(
            "invalid UTF-8 in the Host",
            bytes: Array("GET / HTTP/1.1\r\nHost: local".utf8) + [0xFF, 0xFE] + Array("host\r\n\r\n".utf8),
            [400]),
        Case(
            "invalid UTF-8 in the method",
            bytes: [0xC3, 0x28] + Array(" / HTTP/1.1\r\nHost: a\r\n\r\n".utf8), [400]),
        // Overlong lines.
        Case("a target over the limit", "GET /\(long) HTTP/1.1\r\nHost: localhost\r\n\r\n", [414]),
        Case("a field over the limit", get("/", "X: \(long)\r\n"), [431]),
        Case("a field name over the limit", get("/", "\(long): 1\r\n"), [431]),
        Case("a thousand small fields", get("/", String(repeating: "X: 1\r\n", count: 1000)), [200]),
        Case("three thousand small fields", get("/", String(repeating: "X: 1\r\n", count: 3000)), [431]),
        // Paths that try to climb out, encoded every way.
        Case("dot dot", get("/../etc/passwd"), [400]),
        Case("encoded dot dot", get("/%2e%2e/etc/passwd"), [400]),
        Case("encoded dot dot and slash", get("/a%2f..%2f..%2fetc%2fpasswd"), [400]),
        Case("an encoded backslash", get("/..%5c..%5cetc%5cpasswd"), [400]),
        Case("an encoded NUL", get("/index.html%00.css"), [400]),
        Case("a malformed escape", get("/%zz"), [400]),
        Case("an escape cut short", get("/%"), [400]),
        Case("doubly encoded dot dot stays a name", get("/%252e%252e/x"), [200]),
        Case("overlong UTF-8 for a dot", get("/%c0%ae%c0%ae/x"), [200]),
        Case("a hidden name", get("/.rolodeck"), [404]),
        Case("an absolute form climbing out", get("http://localhost/../x"), [400]),
        // Methods and versions.
        Case("POST", "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n", [405]),
        Case("a method with a space", "G ET / HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]),
        Case("HTTP/9.9", "GET / HTTP/9.9\r\nHost: localhost\r\n\r\n", [505]),
        Case(
            "a version that is a number too large", "GET / HTTP/1.\(huge)\r\nHost: localhost\r\n\r\n", [505]),
        // Hosts.
        Case("a foreign Host", "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", [403]),
        Case(
            "a foreign Host for the events",
            "GET /.rolodeck-serve/events HTTP/1.1\r\nHost: evil.example\r\n\r\n", [403]),
        Case("a foreign Host before a bad method", "DELETE / HTTP/1.1\r\nHost: evil.example\r\n\r\n", [403]),
        Case(
            "a foreign absolute form", "GET http://evil.example/ HTTP/1.1\r\nHost: localhost\r\n\r\n", [403]),
        Case("an absolute form with no host", "GET http:///x HTTP/1.1\r\nHost: localhost\r\n\r\n", [400]),
        Case(
            "a user in the absolute form", "GET http://me@localhost/ HTTP/1.1\r\nHost: localhost\r\n\r\n",
            [400]),
        Case("no Host in HTTP/1.1", "GET / HTTP/1.1\r\n\r\n", [400]),
        Case("no Host in HTTP/1.0", "GET / HTTP/1.0\r\n\r\n", [200]),
        Case("an empty Host", "GET / HTTP/1.1\r\nHost:\r\n\r\n", [400]),
        Case("the events", "GET /.rolodeck-serve/events HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n\r\n", [200]),
    ]

    @Test(arguments: cases)
    func answers(_ test: Case) {
        #expect(HTTPRequestFuzzing.statuses(answering: test.bytes) == test.statuses)
    }

    @Test func allowedNamesAndTheListenNameAreAnswered() {
        let request = Array("GET / HTTP/1.1\r\nHost: preview.lan:8000\r\n\r\n".utf8)
        #expect(HTTPRequestFuzzing.statuses(answering: request) == [403])
        #expect(HTTPRequestFuzzing.statuses(answering: request, allowing: ["preview.lan"]) == [200])
        #expect(HTTPRequestFuzzing.statuses(answering: request, host: "preview.lan") == [200])
    }

    /// Every prefix of every case, and every case with one byte changed, answered without a crash;
    /// what a fuzzer does, in miniature and deterministically.
    @Test func truncatedAndMutatedRequestsNeverCrash() {
        var answered = 0
        for test in Self.cases where test.bytes.count < 2048 {
            for end in 0...test.bytes.count {
                answered += HTTPRequestFuzzing.statuses(answering: Array(test.bytes[..<end])).count
            }
            for index in test.bytes.indices {
                for byte: UInt8 in [0x00, 0x0D, 0x0A, 0x20, 0x25, 0x2E, 0x2F, 0x3A, 0x39, 0xFF] {
                    var mutated = test.bytes
                    mutated[index] = byte
                    answered += HTTPRequestFuzzing.statuses(answering: mutated).count
                }
            }
        }
        #expect(answered > 0)
        #expect(HTTPRequestFuzzing.testOneInput(nil, 0) == 0)
        let bytes = Array(Self.get("/").utf8)
        #expect(
            bytes.withUnsafeBufferPointer { HTTPRequestFuzzing.testOneInput($0.baseAddress, $0.count) } == 0)
    }
}
