import Testing
@testable import RolodeckServe
@testable import RolodeckCore

/// The live-reload script's place in a page, and the events' text.
@Suite struct LiveReloadTests {
    struct Insertion: Sendable, CustomTestStringConvertible {
        var page: String
        var tailStart: Int
        var offset: Int
        var testDescription: String { page }
    }

    static let insertions: [Insertion] = [
        Insertion(page: "<html><body><p>x</p></body></html>\n", tailStart: 0, offset: 20),
        Insertion(page: "<BODY>a</BODY >", tailStart: 0, offset: 7),
        Insertion(page: "<body>inner </body> text </body></html>", tailStart: 0, offset: 25),
        Insertion(page: "no closing tag", tailStart: 0, offset: 14),
        Insertion(page: "xx</body>", tailStart: 1000, offset: 1002),
        Insertion(page: "", tailStart: 0, offset: 0),
    ]

    @Test(arguments: insertions)
    func theScriptGoesBeforeTheLastClosingBodyTag(_ test: Insertion) {
        #expect(
            LiveReload.insertionOffset(tail: Array(test.page.utf8), tailOffset: test.tailStart) == test.offset
        )
    }

    /// Where the 404 page's `<base>` goes: after the `<head>` start tag, whatever its case and
    /// attributes, never after `<header>`; nowhere when the first bytes have no head.
    @Test(arguments: [
        ("<!DOCTYPE html>\n<html><head><meta charset=utf-8>", 28),
        ("<HTML><HEAD>", 12),
        ("<html><head lang=\"de\"><title>", 22),
        ("<html><head\n>", 13),
        ("<html><body><header>x</header>", nil),
        ("<html><body>no head", nil),
        ("<head", nil),
        ("", nil),
    ] as [(String, Int?)])
    func theBaseGoesAfterTheHeadStartTag(_ page: String, _ offset: Int?) {
        #expect(LiveReload.headStartEnd(Array(page.utf8)) == offset)
    }

    @Test func eventsAreServerSentEventsWithJSONData() {
        #expect(
            String(decoding: LiveReload.greeting(generation: 3, failure: nil), as: UTF8.self)
                == "retry: 1000\n\nevent: hello\ndata: {\"generation\":3}\n\n")
        #expect(
            String(
                decoding: LiveReload.reloadEvent(generation: 4, paths: ["contacts/kim.html", "img/a b.png"]),
                as: UTF8.self)
                == "event: reload\ndata: {\"generation\":4,\"paths\":[\"/contacts/kim.html\",\"/img/a%20b.png\"]}\n\n"
        )
        #expect(
            String(decoding: LiveReload.reloadEvent(generation: 5, paths: nil), as: UTF8.self)
                == "event: reload\ndata: {\"generation\":5,\"paths\":null}\n\n")
        let diagnostic = Diagnostic(
            .error, at: SourceLocation(path: "site/store/contacts.json", line: 41, column: 17),
            "birthday \"1990-02-30\" is not a date\n</script><b>")
        let failure = LiveReload.failureEvent(generation: 5, [diagnostic])
        #expect(
            failure
                == "event: failure\ndata: {\"generation\":5,\"summary\":\"Rebuild failed with 1 error; the page "
                + "shows the last good build.\",\"diagnostics\":[\"site/store/contacts.json:41:17: error: birthday "
                + "\\\"1990-02-30\\\" is not a date\\n\\u003c/script>\\u003cb>\"]}\n\n")
        // One data line per event: a newline in a message would end it.
        #expect(failure.split(separator: "\n").count == 2)
    }

    @Test func theScriptCarriesTheGenerationAndNeverEndsItsElementEarly() {
        let script = String(decoding: LiveReload.script(generation: 7, isMissingPage: true), as: UTF8.self)
        #expect(script.hasPrefix("<script data-rolodeck-serve>"))
        #expect(script.contains("var generation = 7, missing = true;"))
        #expect(script.contains("new EventSource(\"/.rolodeck-serve/events\")"))
        #expect(script.components(separatedBy: "</script>").count == 2)
    }

    @Test func everyPlaceholderOfTheScriptFileIsFilled() {
        let script = String(decoding: LiveReload.script(generation: 0, isMissingPage: false), as: UTF8.self)
        #expect(script.contains("var generation = 0, missing = false;"))
        #expect(!script.contains("ROLODECK_"))
        #expect(script.hasSuffix("})();\n</script>\n"))
    }
}
