import Testing
@testable import RolodeckServe

/// Host values the preview answers for, refuses (DNS rebinding), or cannot read at all.
@Suite struct HostPolicyTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var host: String
        var listening = "127.0.0.1"
        var allowing: [String] = []
        var expected: HostPolicy.Verdict
        var testDescription: String { "\(host) on \(listening) allowing \(allowing)" }
    }

    static let cases: [Case] = [
        // This machine, by name or address, with or without the port.
        Case(host: "localhost", expected: .allowed),
        Case(host: "localhost:8000", expected: .allowed),
        Case(host: "LocalHost:8000", expected: .allowed),
        Case(host: "localhost.", expected: .allowed),
        Case(host: "preview.localhost:8000", expected: .allowed),
        Case(host: "127.0.0.1", expected: .allowed),
        Case(host: "127.0.0.1:8000", expected: .allowed),
        Case(host: "[::1]", expected: .allowed),
        Case(host: "[::1]:8000", expected: .allowed),
        Case(host: "localhost:", expected: .allowed),
        // Any address: it names no DNS entry that could be rebound (a LAN preview on 0.0.0.0).
        Case(host: "192.168.1.20:8000", listening: "0.0.0.0", expected: .allowed),
        Case(host: "[fe80::1]:8000", listening: "::", expected: .allowed),
        Case(host: "[::ffff:10.0.0.1]", expected: .allowed),
        // The name listened on, and the names allowed.
        Case(host: "mybox.lan:8000", listening: "mybox.lan", expected: .allowed),
        Case(host: "MyBox.Lan", listening: "mybox.lan.", expected: .allowed),
        Case(host: "preview.lan:8000", allowing: ["preview.lan", "other.lan"], expected: .allowed),
        Case(host: "OTHER.lan.", allowing: ["preview.lan", "other.lan"], expected: .allowed),
        // Anyone else's name: what a rebinding page sends.
        Case(host: "evil.example", expected: .refused("evil.example")),
        Case(host: "evil.example:8000", expected: .refused("evil.example")),
        Case(host: "localhost.evil.example", expected: .refused("localhost.evil.example")),
        Case(host: "127.0.0.1.nip.io", expected: .refused("127.0.0.1.nip.io")),
        Case(host: "127.1", expected: .refused("127.1")),
        Case(host: "2130706433", expected: .refused("2130706433")),
        Case(host: "sub.preview.lan", allowing: ["preview.lan"], expected: .refused("sub.preview.lan")),
        Case(host: "mybox", listening: "0.0.0.0", expected: .refused("mybox")),
        // Not a host at all.
        Case(host: "", expected: .malformed),
        Case(host: ":8000", expected: .malformed),
        Case(host: "localhost:99999", expected: .malformed),
        Case(host: "localhost:65536", expected: .malformed),
        Case(host: "localhost:9223372036854775807", expected: .malformed),
        Case(host: "localhost:99999999999999999999999", expected: .malformed),
        Case(host: "localhost:-1", expected: .malformed),
        Case(host: "localhost:80:80", expected: .malformed),
        Case(host: "user@localhost", expected: .malformed),
        Case(host: "local host", expected: .malformed),
        Case(host: "localhost/", expected: .malformed),
        Case(host: "local%68ost", expected: .malformed),
        Case(host: "::1", expected: .malformed),
        Case(host: "[::1", expected: .malformed),
        Case(host: "[::1]x", expected: .malformed),
        Case(host: "[evil.example]", expected: .malformed),
        Case(host: "[]", expected: .malformed),
        Case(host: "[::1%25eth0]", expected: .malformed),
        Case(host: "[::1\u{0}evil]", expected: .malformed),
        Case(host: "lоcalhost", expected: .malformed),  // a Cyrillic o
        Case(host: "\u{FFFD}", expected: .malformed),
    ]

    @Test(arguments: cases)
    func judge(_ test: Case) {
        let policy = HostPolicy(listeningOn: test.listening, allowing: test.allowing)
        #expect(policy.judge(Substring(test.host)) == test.expected)
    }

    @Test func namesThatCanBeAllowed() {
        for name in ["preview.lan", "MyBox", "192.168.1.20", "[::1]", "my_box.local"] {
            #expect(HostPolicy.isName(name), "\(name)")
        }
        for name in ["", "mybox:8000", "http://mybox", "my box", "mybox/", "[::1]:80", "::1", "*"] {
            #expect(!HostPolicy.isName(name), "\(name)")
        }
    }
}
