import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckStore
@testable import RolodeckTestSupport
@testable import RolodeckSite
@testable import RolodeckPlan

/// The demo with `pageSize` 4, so that its index, groups, todos and birthdays are paged: the new
/// kinds of page kept as golden files, and every contact listed once across the section pages.
@Suite struct PagedDemoSiteTests {
    /// The paged demo, built in memory on the demo's fixed day.
    static func buildPagedDemo() throws -> [String: [UInt8]] {
        let reader = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "Examples/demo")
        var (input, _) = try reader.read()
        input.config.pageSize = 4
        return try Site.load(input).renderFiles(today: DemoSiteTests.today)
    }

    /// One page of each paged kind: the index's list of sections, a section's first and second
    /// page (Korean, with a `lang`), a paged group and one of its sections, later todo and
    /// birthday pages.
    static let goldenPages = [
        "index.html", "sections/ko-g.html", "sections/ko-g-2.html", "sections/other.html",
        "groups/friends.html", "groups/friends/o.html", "todos-2.html", "birthdays-2.html",
    ]

    @Test func goldenPagesMatch() throws {
        let files = try Self.buildPagedDemo()
        for page in Self.goldenPages {
            let bytes = try #require(files[page], "the paged demo has no \(page)")
            try Snapshot.assertMatches(String(decoding: bytes, as: UTF8.self), named: "demo-paged/" + page)
        }
    }

    /// Each contact's page is linked from exactly one section page, and the index links none:
    /// without JavaScript, the section pages are the way to every contact.
    @Test func everyContactIsOnExactlyOneSectionPage() throws {
        let files = try Self.buildPagedDemo()
        let contacts = files.keys.filter { $0.hasPrefix("contacts/") && $0.hasSuffix(".html") }
        var listed: [String: Int] = [:]
        for (path, bytes) in files where path.hasPrefix("sections/") {
            let text = String(decoding: bytes, as: UTF8.self)
            for contact in contacts where text.contains("href=\"../\(contact)\"") {
                listed[contact, default: 0] += 1
            }
        }
        #expect(contacts.count == 80)
        #expect(Set(listed.keys) == Set(contacts), "\(Set(contacts).subtracting(listed.keys).sorted())")
        #expect(listed.values.allSatisfy { $0 == 1 }, "\(listed.filter { $0.value != 1 })")
        let index = String(decoding: try #require(files["index.html"]), as: UTF8.self)
        #expect(!contacts.contains { index.contains("href=\"\($0)\"") })
    }
}
