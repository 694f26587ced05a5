import RolodeckCore

/// Live reload: what the server adds to the pages it sends, and the Server-Sent Events that tell
/// open pages a rebuild happened.
///
/// Every HTML page the server sends gets a small script before `</body>` (in the response only:
/// the files on disk never change). The script opens an `EventSource` on `eventsPath` and:
///
/// - on `hello` (sent when it connects) reloads if the site was rebuilt since the page was sent,
///   so a rebuild that lands between the page and the connection is not missed;
/// - on `reload` reloads when its own page, a file the page has loaded (a stylesheet, a script,
///   an image, a search piece) or everything changed, and removes an error overlay; so an edit
///   that rewrites the search index reloads the index page, not every open contact page;
/// - on `failure` shows the rebuild's diagnostics (`file:line:column: error: message`) in an
///   overlay over the page, which stays until a good rebuild.
enum LiveReload {
    /// The path of the event stream; hidden, so no file of the site can be in its way.
    static let eventsPath = "/.rolodeck-serve/events"

    /// The script for a page sent when the site was at `generation`; `isMissingPage` for the 404
    /// page, which reloads on any rebuild (the page asked for may exist now).
    static func script(generation: Int, isMissingPage: Bool) -> [UInt8] {
        Array(
            scriptTemplate.replacing("ROLODECK_GENERATION", with: String(generation))
                .replacing("ROLODECK_MISSING_PAGE", with: String(isMissingPage)).utf8)
    }

    /// `Resources/live-reload.js` (embedded in the binary) in its tag, with the events' path in
    /// place of `ROLODECK_EVENTS_PATH`; a page's generation and kind go where `ROLODECK_GENERATION`
    /// and `ROLODECK_MISSING_PAGE` stand.
    private static let scriptTemplate: String = {
        let script = String(decoding: PackageResources.live_reload_js, as: UTF8.self)
        return "<script data-rolodeck-serve>\n"
            + script.replacing("ROLODECK_EVENTS_PATH", with: json(eventsPath))
            + "</script>\n"
    }()

    /// Where the script goes in a page: before the last `</body>`, searched for in the page's
    /// last bytes (`tail`, which start at `tailOffset`); the end of the page when there is none.
    static func insertionOffset(tail: [UInt8], tailOffset: Int) -> Int {
        let needle = Array("</body".utf8)
        guard tail.count >= needle.count else { return tailOffset + tail.count }
        var index = tail.count - needle.count
        while index >= 0 {
            if zip(tail[index..<(index + needle.count)], needle).allSatisfy({ lowercase($0) == $1 }) {
                return tailOffset + index
            }
            index -= 1
        }
        return tailOffset + tail.count
    }

    /// `<base href="/">`, for the 404 page: it is sent at any path, and its links lead from the
    /// root.
    static let rootBase = Array("\n<base href=\"/\">".utf8)

    /// Where a page's `<head>` start tag ends, found in its first bytes (`head`); nil when they
    /// have none (the page then keeps its links as they are).
    static func headStartEnd(_ head: [UInt8]) -> Int? {
        let needle = Array("<head".utf8)
        guard head.count > needle.count else { return nil }
        for index in 0...(head.count - needle.count - 1)
        where zip(head[index..<(index + needle.count)], needle).allSatisfy({ lowercase($0) == $1 }) {
            // `<head>` or `<head …>`, not `<header>`.
            let next = head[index + needle.count]
            guard next == UInt8(ascii: ">") || next == UInt8(ascii: " ") || next == UInt8(ascii: "\t")
                || next == UInt8(ascii: "\n") || next == UInt8(ascii: "\r")
            else { continue }
            guard let close = head[(index + needle.count)...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
            return close + 1
        }
        return nil
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// The first event on a new stream: the generation, and the failure when the last rebuild failed.
    static func greeting(generation: Int, failure: [Diagnostic]?) -> [UInt8] {
        var text = "retry: 1000\n\n" + event("hello", "{\"generation\":\(generation)}")
        if let failure { text += failureEvent(generation: generation, failure) }
        return Array(text.utf8)
    }

    /// The event sent after a good rebuild: the output paths that changed (as URL paths), or
    /// nil when any may have.
    static func reloadEvent(generation: Int, paths: [String]?) -> [UInt8] {
        let list = paths.map { "[" + $0.map { json(urlPath($0)) }.joined(separator: ",") + "]" } ?? "null"
        return Array(event("reload", "{\"generation\":\(generation),\"paths\":\(list)}").utf8)
    }

    /// The event sent after a failed rebuild, with its diagnostics.
    static func failureEvent(generation: Int, _ diagnostics: [Diagnostic]) -> String {
        let errors = diagnostics.filter { $0.severity == .error }.count
        let summary =
            "Rebuild failed with \(errors) error\(errors == 1 ? "" : "s"); the page shows the last good build."
        let list = diagnostics.map { json($0.description) }.joined(separator: ",")
        return event(
            "failure", "{\"generation\":\(generation),\"summary\":\(json(summary)),\"diagnostics\":[\(list)]}"
        )
    }

    /// A comment line that keeps the connection alive and finds clients that went away.
    static let heartbeat = Array(": ping\n\n".utf8)

    private static func event(_ name: String, _ data: String) -> String {
        "event: \(name)\ndata: \(data)\n\n"
    }

    /// A JSON string literal.
    static func json(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "<": result += "\\u003c"  // never "</script>" in a page
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    let hex = String(scalar.value, radix: 16)
                    result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// An output path as a browser's `location.pathname` shows it: `/` first, bytes other than
    /// unreserved ones percent-encoded.
    static func urlPath(_ path: String) -> String {
        var result = "/"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                result += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return result
    }
}
