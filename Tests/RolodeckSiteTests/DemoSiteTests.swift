import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckStore
@testable import RolodeckTestSupport
@testable import RolodeckSite
@testable import RolodeckPlan

/// The bundled demo store, built in memory with a fixed "today", checked page by page.
@Suite struct DemoSiteTests {
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    static func buildDemo() throws -> [String: [UInt8]] {
        let reader = SiteReader(folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"),
                                displayPath: "Examples/demo")
        let (input, warnings) = try reader.read()
        #expect(warnings.isEmpty, "\(warnings)")
        let site = try Site.load(input)
        #expect(site.warnings.isEmpty, "\(site.warnings)")
        return try site.renderFiles(today: today)
    }

    /// Pages kept verbatim as golden files: one of every kind, and contacts that exercise the
    /// German, Korean, Japanese, company and unsafe-notes paths.
    static let goldenPages = [
        "index.html", "groups.html", "todos.html", "404.html", "groups/team-berlin.html",
        "contacts/ayse-oeztuerk.html", "contacts/kim-cheolsu.html", "contacts/sato-hanako.html",
        "contacts/praxis-dr-weiss.html", "contacts/liam-obrien.html", "contacts/olivia-carter.html",
        "birthdays.html", "birthdays.ics", "todos.ics",
    ]

    @Test func goldenPagesMatch() throws {
        let files = try Self.buildDemo()
        for page in Self.goldenPages {
            let bytes = try #require(files[page], "the demo has no \(page)")
            try Snapshot.assertMatches(String(decoding: bytes, as: UTF8.self), named: "demo/" + page)
        }
    }

    /// Every file's path and a hash of its bytes: any change to any page shows up here.
    @Test func everyFileMatchesTheManifest() throws {
        let files = try Self.buildDemo()
        let manifest = files.keys.sorted().map { path in
            let hash = String(Slugger.fnv1a(String(decoding: files[path]!, as: UTF8.self)), radix: 16)
            return "\(path) \(files[path]!.count) \(hash)"
        }.joined(separator: "\n") + "\n"
        try Snapshot.assertMatches(manifest, named: "demo/MANIFEST")
    }

    @Test func unsafeNoteContentNeverSurvives() throws {
        for (path, bytes) in try Self.buildDemo() where path.hasSuffix(".html") {
            var text = String(decoding: bytes, as: UTF8.self).lowercased()
            // The scripts a page may have: the search client, on the index and the 404 page, and
            // the jump bar's, on a page with a jump bar.
            if path == "index.html" || path == "404.html" {
                #expect(text.components(separatedBy: "<script src=\"search.js\" defer></script>").count == 2)
                text = text.replacingOccurrences(of: "<script src=\"search.js\" defer></script>", with: "")
            }
            if text.contains("<nav class=\"jump-bar\"") {
                let tag = "<script src=\"\(String(repeating: "../", count: path.count { $0 == "/" }))jump.js\" defer></script>"
                #expect(text.components(separatedBy: tag).count == 2, "\(path) should load jump.js once")
                text = text.replacingOccurrences(of: tag, with: "")
            }
            #expect(!text.contains("<script"), "\(path) contains a script element")
            #expect(!text.contains("javascript:"), "\(path) contains a javascript: URL")
            #expect(!text.contains("onerror="), "\(path) contains an event handler")
        }
    }

    @Test func everyLinkIsRelativeAndEndsInHTML() throws {
        let files = try Self.buildDemo()
        let pattern = try Regex(#"href="([^"]*)""#)
        for (path, bytes) in files where path.hasSuffix(".html") {
            let text = String(decoding: bytes, as: UTF8.self)
            for match in text.matches(of: pattern) {
                let href = String(match.output[1].substring ?? "")
                if href.hasPrefix("#") || href.hasPrefix("tel:") || href.hasPrefix("mailto:") || href.hasPrefix("https://")
                    || href.hasPrefix("http://") || href.isEmpty {
                    continue
                }
                #expect(!href.hasPrefix("/"), "\(path): \(href) is absolute")
                let target = href.split(separator: "#").first.map(String.init) ?? href
                // Besides pages and style, a page links to the calendars (`.ics`), the vCards (`.vcf`)
                // and the icon (`.svg`).
                #expect(
                    [".html", ".css", ".ics", ".vcf", ".svg"].contains { target.hasSuffix($0) },
                    "\(path): \(href) does not end in .html")
                // The link resolves to a file the build wrote.
                var parts = path.split(separator: "/").dropLast().map(String.init)
                for component in target.split(separator: "/") {
                    if component == ".." { parts.removeLast() } else { parts.append(String(component)) }
                }
                #expect(files[parts.joined(separator: "/")] != nil, "\(path): \(href) points at nothing")
            }
        }
    }

    @Test func twoBuildsAreByteIdentical() throws {
        #expect(try Self.buildDemo() == Self.buildDemo())
    }
}
