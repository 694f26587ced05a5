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
/// pages and their links on the index, in the directory's order.
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
        try renderer.render { path, bytes in
            paths.withLock { $0.append(path) }
            if sampledPaths.contains(path) || path == "index.html" {
                kept.withLock { $0[path] = String(decoding: bytes, as: UTF8.self) }
            }
        }
        let written = paths.withLock { $0 }
        let pages = kept.withLock { $0 }

        #expect(Set(written).count == written.count, "a path was written twice")
        // A page and a vCard for each contact and group.
        #expect(written.filter { $0.hasPrefix("contacts/") }.count == 2 * Self.contactCount)
        #expect(written.filter { $0.hasPrefix("groups/") }.count == 2 * site.store.groups.count)
        #expect(written.contains("contacts.vcf"))
        for path in ["index.html", "groups.html", "todos.html", "404.html"] {
            #expect(written.contains(path), "\(path) missing")
        }
        #expect(written.contains { $0.hasPrefix("search/") })

        let index = try #require(pages["index.html"])
        var lastLink = index.startIndex
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
            // The index links every sampled contact, each after the one before it.
            let link = try #require(
                index.range(of: "href=\"\(path)\"", range: lastLink..<index.endIndex),
                "index.html: \(path) missing or out of order")
            lastLink = link.upperBound
        }
    }

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
