import Testing
@testable import RolodeckServe

/// Request heads as the server reads them: what it takes, and what it refuses with which status.
@Suite struct HTTPRequestTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var bytes: String
        var limit = 1024
        /// `.request` is checked by method, target, minor version and length only.
        var expected: Expected
        var testDescription: String { label }
    }

    enum Expected: Sendable, Equatable {
        case incomplete
        case request(method: String, target: String, minor: Int, length: Int)
        case refused(Int)
    }

    static let cases: [Case] = [
        Case(
            label: "a GET", bytes: "GET /a.html HTTP/1.1\r\nHost: x\r\n\r\n",
            expected: .request(method: "GET", target: "/a.html", minor: 1, length: 33)),
        Case(
            label: "only the first of two pipelined requests",
            bytes: "HEAD / HTTP/1.1\r\nHost: x\r\n\r\nGET / HTTP/1.1\r\n",
            expected: .request(method: "HEAD", target: "/", minor: 1, length: 28)),
        Case(
            label: "bare line feeds and empty lines before",
            bytes: "\r\n\nGET /?q=1 HTTP/1.0\nAccept: */*\n\n",
            expected: .request(method: "GET", target: "/?q=1", minor: 0, length: 35)),
        Case(
            label: "HTTP/1.0 needs no Host", bytes: "GET / HTTP/1.0\r\n\r\n",
            expected: .request(method: "GET", target: "/", minor: 0, length: 18)),
        Case(label: "half a request", bytes: "GET / HT", expected: .incomplete),
        Case(label: "a head without its end", bytes: "GET / HTTP/1.1\r\nHost: x\r\n", expected: .incomplete),
        Case(
            label: "a request line longer than the limit",
            bytes: "GET /" + String(repeating: "a", count: 100),
            limit: 64, expected: .refused(414)),
        Case(
            label: "header fields longer than the limit",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "a", count: 100), limit: 64,
            expected: .refused(431)),
        Case(label: "a request line without a version", bytes: "GET /\r\n\r\n", expected: .refused(400)),
        Case(
            label: "two spaces in the request line", bytes: "GET  / HTTP/1.1\r\nHost: x\r\n\r\n",
            expected: .refused(400)),
        Case(label: "HTTP/2", bytes: "GET / HTTP/2.0\r\nHost: x\r\n\r\n", expected: .refused(505)),
        Case(label: "not HTTP", bytes: "GET / SPDY/3\r\n\r\n", expected: .refused(400)),
        Case(label: "HTTP/1.1 without Host", bytes: "GET / HTTP/1.1\r\n\r\n", expected: .refused(400)),
        Case(
            label: "HTTP/1.1 with two Hosts", bytes: "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a field without a colon", bytes: "GET / HTTP/1.1\r\nHost: x\r\nBroken\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a space before the colon", bytes: "GET / HTTP/1.1\r\nHost : x\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a folded field", bytes: "GET / HTTP/1.1\r\nHost: x\r\n  folded\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a control character in the target", bytes: "GET /a\u{7F} HTTP/1.1\r\nHost: x\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a NUL in a field value", bytes: "GET / HTTP/1.1\r\nHost: x\r\nX: a\u{0}b\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a bare CR in a field value", bytes: "GET / HTTP/1.1\r\nHost: x\rEvil: 1\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "an escape character in a field value",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nX: \u{1B}[2J\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a tab and bytes above ASCII in a field value are fine",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nX: a\tb é\r\n\r\n",
            expected: .request(method: "GET", target: "/", minor: 1, length: 38)),
        Case(
            label: "HTTP/1.0 with two Hosts", bytes: "GET / HTTP/1.0\r\nHost: a\r\nHost: b\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a negative Content-Length",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a Content-Length that is not a number",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0x10\r\n\r\n", expected: .refused(400)),
        Case(
            label: "an empty Content-Length", bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length:\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "a Content-Length with a sign",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: +0\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "two different lengths in one field",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1, 2\r\n\r\n", expected: .refused(400)),
        Case(
            label: "two Content-Length fields that differ",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "the same length twice, written two ways",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: 000, 0\r\n\r\n",
            expected: .request(method: "GET", target: "/", minor: 1, length: 70)),
        Case(
            label: "a Content-Length too large for any integer is still a length",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999999999\r\n\r\n",
            expected: .request(method: "GET", target: "/", minor: 1, length: 74)),
        Case(
            label: "Transfer-Encoding beside Content-Length",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n",
            expected: .refused(400)),
        Case(
            label: "Transfer-Encoding in HTTP/1.0",
            bytes: "GET / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n",
            expected: .refused(400)),
    ]

    @Test(arguments: cases)
    func parse(_ test: Case) {
        let result = HTTPRequestParser.parse(Array(test.bytes.utf8)[...], limit: test.limit)
        switch result {
        case .incomplete:
            #expect(test.expected == .incomplete)
        case .refused(let status):
            #expect(test.expected == .refused(status.rawValue))
        case .request(let request, let length):
            #expect(
                test.expected
                    == .request(
                        method: request.method, target: request.target, minor: request.minorVersion,
                        length: length))
        }
    }

    struct Connection: Sendable, CustomTestStringConvertible {
        var head: String
        var keepsAlive: Bool
        var hasBody: Bool
        var testDescription: String { head.replacingOccurrences(of: "\r\n", with: " ") }
    }

    static let connections: [Connection] = [
        Connection(head: "GET / HTTP/1.1\r\nHost: x\r\n\r\n", keepsAlive: true, hasBody: false),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nConnection: Keep-Alive, Close\r\n\r\n", keepsAlive: false,
            hasBody: false),
        Connection(head: "GET / HTTP/1.0\r\n\r\n", keepsAlive: false, hasBody: false),
        Connection(
            head: "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", keepsAlive: true, hasBody: false),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", keepsAlive: true, hasBody: false),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n", keepsAlive: true, hasBody: true),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n", keepsAlive: true,
            hasBody: true),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 000\r\n\r\n", keepsAlive: true, hasBody: false
        ),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0, 0\r\n\r\n", keepsAlive: true,
            hasBody: false),
        Connection(
            head: "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n",
            keepsAlive: true, hasBody: true),
    ]

    @Test(arguments: connections)
    func connectionAndBody(_ test: Connection) throws {
        guard case .request(let request, _) = HTTPRequestParser.parse(Array(test.head.utf8)[...], limit: 1024)
        else {
            Issue.record("not a request")
            return
        }
        #expect(request.keepsAlive == test.keepsAlive)
        #expect(request.hasBody == test.hasBody)
    }

    struct DateCase: Sendable, CustomTestStringConvertible {
        var text: String
        var seconds: Int?
        var testDescription: String { text }
    }

    /// Dates read from If-Modified-Since: the preferred form, exactly; anything else, including
    /// years that once trapped the server (issue 22), is not a date.
    static let dates: [DateCase] = [
        DateCase(text: "Sun, 06 Nov 1994 08:49:37 GMT", seconds: 784_111_777),
        DateCase(text: "Thu, 01 Jan 1970 00:00:00 GMT", seconds: 0),
        DateCase(text: "Tue, 29 Feb 2000 12:00:00 GMT", seconds: 951_825_600),
        DateCase(text: "Fri, 31 Dec 9999 23:59:59 GMT", seconds: 253_402_300_799),
        DateCase(text: "Mon, 01 Jan 0001 00:00:00 GMT", seconds: -62_135_596_800),
        DateCase(text: "Wed, 31 Dec 1969 23:59:60 GMT", seconds: 0),
        DateCase(text: "Mon, 01 Jan 99999999999 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 2147485548 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 9223372036854775807 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan -9223372036854775807 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan -9223372036854775808 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 99999999999999999999999 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan +1994 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 199 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 9223372036854775807 Jan 1994 00:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 1994 9223372036854775807:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 1994 -1:00:00 GMT", seconds: nil),
        DateCase(text: "Mon, 01 Jan 1994 00:00:00:00 GMT", seconds: nil),
        DateCase(text: "Sun, 06 Nov 1994 25:49:37 GMT", seconds: nil),
        DateCase(text: "Sun, 06 Nov 1994 08:60:37 GMT", seconds: nil),
        DateCase(text: "Fri, 30 Feb 2024 00:00:00 GMT", seconds: nil),
        DateCase(text: "Thu, 29 Feb 1900 00:00:00 GMT", seconds: nil),
        DateCase(text: "Sun, 00 Nov 1994 08:49:37 GMT", seconds: nil),
        DateCase(text: "Sun, 31 Nov 1994 08:49:37 GMT", seconds: nil),
        DateCase(text: "Sun,  6 Nov 1994 08:49:37 GMT", seconds: nil),
        DateCase(text: "Sun, 06 Nov 1994 08:49:37 UTC", seconds: nil),
        DateCase(text: "Sunday, 06-Nov-94 08:49:37 GMT", seconds: nil),
        DateCase(text: "Sun Nov  6 08:49:37 1994", seconds: nil),
        DateCase(text: "Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT", seconds: nil),
        DateCase(text: "Sun, 0\u{0}6 Nov 1994 08:49:37 GMT", seconds: nil),
        DateCase(text: "Sun, ٠٦ Nov 1994 08:49:37 GMT", seconds: nil),
        DateCase(text: "", seconds: nil),
    ]

    @Test(arguments: dates)
    func httpDates(_ test: DateCase) {
        #expect(HTTPDate.parse(test.text) == test.seconds)
    }

    @Test func httpDatesAreWrittenInTheFormTheyAreRead() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 951_825_600) == "Tue, 29 Feb 2000 12:00:00 GMT")
        // A file's time outside what the form can show is shown as the nearest end.
        #expect(HTTPDate.format(secondsSince1970: .max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: 253_402_300_800) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(secondsSince1970: .min) == "Thu, 01 Jan 1970 00:00:00 GMT")
        // Every day from 1970 to past 2400 (leap years, centuries) reads back as it was written.
        var day = 0
        while day < 160_000 {
            let seconds = day * 86400 + (day * 7919) % 86400
            #expect(HTTPDate.parse(HTTPDate.format(secondsSince1970: seconds)) == seconds)
            day += 1
        }
    }

    @Test func anIfModifiedSinceThatIsNoDateIsIgnored() throws {
        for date in Self.dates where date.seconds == nil {
            let head = "GET / HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: \(date.text)\r\n\r\n"
            guard case .request(let request, _) = HTTPRequestParser.parse(Array(head.utf8)[...], limit: 1024)
            else {
                continue  // a value with a control character is refused before it is read
            }
            #expect(!request.isNotModified(tag: "\"a\"", modified: 0), "\(date.text)")
        }
        let head = "GET / HTTP/1.1\r\nHost: x\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n\r\n"
        guard case .request(let request, _) = HTTPRequestParser.parse(Array(head.utf8)[...], limit: 1024)
        else {
            Issue.record("not a request")
            return
        }
        #expect(request.isNotModified(tag: "\"a\"", modified: 784_111_777))
        #expect(!request.isNotModified(tag: "\"a\"", modified: 784_111_778))
        #expect(!request.isNotModified(tag: "\"a\"", modified: nil))
    }
}
