import Foundation
import Synchronization
import Testing
@testable import RolodeckSite
@testable import RolodeckCore
@testable import RolodeckStore
@testable import RolodeckTestSupport
@testable import RolodeckPlan

/// Watch renders pages one at a time through `SiteRenderer.pages`; the pages must be exactly
/// the files a whole build emits, byte for byte, or watched sites drift from built ones.
@Suite struct SitePagesTests {
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    static func sites() throws -> [(String, Site)] {
        let demo = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "demo")
        let vdirFolder = try Fixtures.temporaryFolder()
        for (path, text) in VdirSiteTests.files {
            let url = vdirFolder.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let vdir = SiteReader(folder: vdirFolder, displayPath: "vdir")
        var sites = try [("demo", demo), ("vdir", vdir)].map { name, reader in
            let (input, warnings) = try reader.read()
            return (name, try Site.load(input, earlier: warnings))
        }
        // The demo again, its index, groups and todos paged.
        let (input, warnings) = try demo.read()
        var paged = input
        paged.config.pageSize = 3
        sites.append(("demo paged by 3", try Site.load(paged, earlier: warnings)))
        // Paged, its birthdays and groups hidden: no birthday pages, calendar or groups page.
        paged.config.hiddenFields = [.birthday, .groups]
        let hidden = try Site.load(paged, earlier: warnings)
        sites.append(("demo paged by 3, birthdays and groups hidden", hidden))
        return sites
    }

    /// A site whose config hides the birthdays or the groups has no page of them, which would
    /// be empty, and no page links to one.
    @Test func theBirthdayAndGroupPagesGoWithTheirFields() throws {
        let all = try Self.sites()
        let shown = try #require(all.first { $0.0 == "demo paged by 3" }?.1).renderFiles(today: Self.today)
        let hidden = try #require(all.first { $0.0.hasSuffix("hidden") }?.1).renderFiles(today: Self.today)
        let pages = ["groups.html", "birthdays.html", "birthdays-2.html", "birthdays.ics"]
        for path in pages {
            #expect(shown[path] != nil, "\(path)")
            #expect(hidden[path] == nil, "\(path)")
        }
        #expect(!hidden.keys.contains { $0.hasPrefix("groups/") })
        func links(_ files: [String: [UInt8]]) -> [String] {
            files.filter { $0.key.hasSuffix(".html") }.compactMap { path, bytes in
                let text = String(decoding: bytes, as: UTF8.self)
                return text.contains("groups.html") || text.contains("birthdays.html") ? path : nil
            }
        }
        #expect(links(shown).count == shown.keys.filter { $0.hasSuffix(".html") }.count)
        #expect(links(hidden).isEmpty, "\(links(hidden).sorted())")
    }

    @Test func pagesRenderedOneByOneAreTheFilesOfAWholeBuild() throws {
        for (name, site) in try Self.sites() {
            let whole = try site.renderFiles(today: Self.today)
            let renderer = SiteRenderer(
                directory: Directory(store: site.store, config: site.config), theme: site.theme,
                today: Self.today)
            var single: [String: [UInt8]] = [:]
            for page in renderer.pages {
                let path = renderer.path(of: page)
                #expect(single[path] == nil, "\(name): \(path) listed twice")
                single[path] = try renderer.render(page)
            }
            #expect(single.count == renderer.pageCount, "\(name)")
            #expect(Set(single.keys) == Set(whole.keys), "\(name)")
            for (path, bytes) in whole where single[path] != bytes {
                Issue.record("\(name): \(path) differs when rendered on its own")
            }
        }
    }

    struct WriteFailure: Error, Equatable {
        var path: String
    }

    /// The search files and index.html are emitted beside the other pages, once the index is
    /// built; a failure on either side is the one `render` throws.
    @Test(arguments: ["search/root.js", "index.html", "404.html"])
    func aFailedEmitIsTheErrorRenderThrows(failing path: String) throws {
        let (_, site) = try Self.sites()[0]
        let renderer = SiteRenderer(
            directory: Directory(store: site.store, config: site.config), theme: site.theme,
            today: Self.today)
        #expect(throws: WriteFailure(path: path)) {
            try renderer.render { emitted, _ in
                if emitted == path { throw WriteFailure(path: path) }
            }
        }
    }

    @Test func progressEndsWithEveryFileDone() throws {
        let (_, site) = try Self.sites()[0]
        let renderer = SiteRenderer(
            directory: Directory(store: site.store, config: site.config), theme: site.theme,
            today: Self.today)
        let reports = Mutex<[(Int, Int)]>([])
        try renderer.render(progress: { done, total in reports.withLock { $0.append((done, total)) } }) {
            _, _ in
        }
        let last = try #require(reports.withLock { $0.last })
        #expect(last == (renderer.pageCount, renderer.pageCount))
        #expect(reports.withLock { $0.allSatisfy { $0.1 == renderer.pageCount && $0.0 <= $0.1 } })
    }

    @Test func everyPageButStaticAndSearchFilesNamesItsTemplate() throws {
        let (_, site) = try Self.sites()[0]
        let renderer = SiteRenderer(
            directory: Directory(store: site.store, config: site.config), theme: site.theme,
            today: Self.today)
        for page in renderer.pages {
            let template = SiteRenderer.template(of: page)
            switch page {
            case .asset, .search, .birthdaysCalendar, .todosCalendar, .contactCard, .groupCard, .directoryCard:
                #expect(template == nil)
            default:
                #expect(template.map(site.theme.templates.contains) == true, "\(page)")
            }
        }
    }
}
