import Foundation
import Synchronization
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckSite
@testable import RolodeckCore

/// A site of 100,000 generated contacts (`../shared/tools/gen-store.py`), the size the speed
/// goals are measured at, renders whole and right: every contact and group has its page, and
/// contacts spread over the directory have their names, email addresses and groups on their
/// pages and their links on the index's section pages, in the directory's order; and no HTML
/// page is over 512 KB (issue 18), the index included.
@Suite struct LargeGeneratedSiteTests {
    static let generator = Fixtures.packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/tools/gen-store.py")
    static let available = FileManager.default.fileExists(atPath: generator.path)
    static let contactCount = 100_000

    @Test(.enabled(if: available, "../shared/tools/gen-store.py not found beside the package"))
    func everyPageIsThereAndSpotChecksHold() throws {
        let folder = try Fixtures.temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", Self.generator.path, "--contacts", "\(Self.contactCount)", "--seed", "11",
            "--out", folder.path,
        ]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)

        let (input, _) = try SiteReader(folder: folder, displayPath: "gen").read()
        let site = try Site.load(input)
        #expect(site.store.contacts.count == Self.contactCount)
        let renderer = site.renderer(today: PartialDate(year: 2026, month: 11, day: 30))
        let directory = renderer.directory
        #expect(directory.entries.count == Self.contactCount)

        // Contacts spread over the whole directory, in its order; only their pages are kept.
        let last = directory.entries.count - 1
        let sampled = Array(stride(from: 0, to: last, by: 7_919)) + [last]
        let sampledPaths = Set(sampled.map { "contacts/\(directory.entries[$0].slug).html" })
        let paths = Mutex<[String]>([])
        let kept = Mutex<[String: String]>([:])
        let oversized = Mutex<[String: Int]>([:])
        try renderer.render { path, bytes in
            paths.withLock { $0.append(path) }
            if path.hasSuffix(".html"), bytes.count > Self.pageLimit {
                oversized.withLock { $0[path] = bytes.count }
            }
            if sampledPaths.contains(path) || path == "index.html" || path.hasPrefix("sections/") {
                kept.withLock { $0[path] = String(decoding: bytes, as: UTF8.self) }
            }
        }
        #expect(oversized.withLock { $0 }.isEmpty, "pages over 512 KB: \(oversized.withLock { $0 })")
        let written = paths.withLock { $0 }
        let pages = kept.withLock { $0 }

        #expect(Set(written).count == written.count, "a path was written twice")
        // A page and a vCard for each contact and group.
        #expect(written.filter { $0.hasPrefix("contacts/") }.count == 2 * Self.contactCount)
        // Only the groups' own files are directly under groups/; their section pages are below.
        #expect(
            written.filter { $0.hasPrefix("groups/") && $0.split(separator: "/").count == 2 }.count
                == 2 * site.store.groups.count)
        #expect(written.contains("contacts.vcf"))
        for path in ["index.html", "groups.html", "todos.html", "404.html"] {
            #expect(written.contains(path), "\(path) missing")
        }
        #expect(written.contains { $0.hasPrefix("search/") })

        // The index is paged: it links each section's pages, and they list the contacts.
        let index = try #require(pages["index.html"])
        #expect(renderer.paging.index.isPaged)
        for page in renderer.paging.index.pages {
            #expect(index.contains("href=\"sections/\(page.name).html\""), "index.html: no link to \(page.name)")
        }
        let sectionPages = renderer.pages.compactMap { page -> String? in
            guard case .section = page else { return nil }
            return pages[renderer.path(of: page)]
        }
        #expect(sectionPages.count == renderer.paging.index.pages.count)
        let list = sectionPages.joined()
        var lastLink = list.startIndex
        for position in sampled {
            let entry = directory.entries[position]
            let path = "contacts/\(entry.slug).html"
            let page = try #require(pages[path], "\(path) not rendered")
            #expect(page.contains(Self.escaped(entry.displayName)), "\(path): no name \(entry.displayName)")
            for email in entry.contact.emails {
                #expect(page.contains(">\(Self.escaped(email.value))</a>"),
                        "\(path): no email \(email.value)")
            }
            for id in entry.contact.groupIDs {
                let group = try #require(directory.groupIndex[id], "\(path): unknown group \(id)")
                #expect(page.contains("href=\"../groups/\(directory.groups[group].slug).html\""),
                        "\(path): no link to group \(directory.groups[group].group.name)")
            }
            // The section pages link every sampled contact, each after the one before it.
            let link = try #require(
                list.range(of: "href=\"../\(path)\"", range: lastLink..<list.endIndex),
                "section pages: \(path) missing or out of order")
            lastLink = link.upperBound
        }
    }

    /// The most bytes an HTML page may have (issue 18).
    static let pageLimit = 512 * 1024

    /// Text as the templates escape it.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
