import Foundation
import Testing
@testable import RolodeckBuild
@testable import RolodeckCore
@testable import RolodeckTestSupport

/// The "last updated" date in every page's footer and on the calendars: the day the store's
/// newest file changed, or `SOURCE_DATE_EPOCH`'s day.
@Suite struct LastUpdatedTests {
    /// Dates every file under `folder` to `seconds` since 1970.
    static func date(_ folder: URL, _ seconds: TimeInterval) throws {
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: seconds)],
                ofItemAtPath: folder.appendingPathComponent(path).path)
        }
    }

    static func footer(_ out: URL, _ page: String = "index.html") throws -> String {
        let text = try String(contentsOf: out.appendingPathComponent(page), encoding: .utf8)
        return text.components(separatedBy: "<footer class=\"site-footer\">")[1]
            .components(separatedBy: "</footer>")[0]
    }

    @Test func theFooterShowsTheDayTheNewestStoreFileChanged() throws {
        let (site, out, build) = try SiteBuildTests.demo()
        build.sourceDateEpoch = nil
        let store = site.appendingPathComponent("store")
        try Self.date(store, 1_577_966_400)  // 2020-01-02 12:00 UTC
        // Files outside the store do not count.
        try Self.date(site.appendingPathComponent("rolodeck.json").deletingLastPathComponent(), 1_700_000_000)
        try Self.date(store, 1_577_966_400)
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: 1_580_644_800)],  // 2020-02-02 12:00 UTC
            ofItemAtPath: store.appendingPathComponent("todos.json").path)
        _ = build.build(today: SiteBuildTests.today)
        #expect(
            try Self.footer(out).contains(
                #"Last updated <time datetime="2020-02-02">February 2, 2020</time>"#))
        #expect(try Self.footer(out, "birthdays.html").contains("2020-02-02"))
        let calendar = try String(contentsOf: out.appendingPathComponent("todos.ics"), encoding: .utf8)
        #expect(calendar.contains("\r\nDTSTAMP:20200202T000000Z\r\n"))
    }

    /// A watched rebuild told which files changed takes the others' times as they were: the
    /// footer follows a file made newer, and falls back when the newest file is dated back.
    @Test func aWatchedRebuildFollowsTheNewestFileBothWays() throws {
        let (site, out, build) = try SiteBuildTests.demo()
        build.sourceDateEpoch = nil
        let store = site.appendingPathComponent("store")
        try Self.date(store, 1_577_966_400)  // 2020-01-02 12:00 UTC
        _ = build.rebuild(today: SiteBuildTests.today)
        #expect(try Self.footer(out).contains(#"<time datetime="2020-01-02">"#))
        let todos = store.appendingPathComponent("todos.json")
        let changed: Set<String> = [todos.standardizedFileURL.path]
        for (seconds, day) in [(1_580_644_800.0, "2020-02-02"), (1_577_966_400, "2020-01-02")] {
            // The same bytes, another time.
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSince1970: seconds)], ofItemAtPath: todos.path)
            let result = build.rebuild(today: SiteBuildTests.today, changed: changed)
            guard case .published = result.outcome else {
                Issue.record("\(day): \(result.outcome)")
                continue
            }
            #expect(try Self.footer(out).contains("<time datetime=\"\(day)\">"), "\(day)")
        }
    }

    @Test func sourceDateEpochOverridesTheStoresDates() throws {
        let (site, out, build) = try SiteBuildTests.demo()
        try Self.date(site.appendingPathComponent("store"), 1_577_966_400)
        build.sourceDateEpoch = 1_793_620_800  // 2026-11-02 12:00 UTC
        _ = build.build(today: SiteBuildTests.today)
        #expect(try Self.footer(out).contains(#"<time datetime="2026-11-02">November 2, 2026</time>"#))
        let calendar = try String(contentsOf: out.appendingPathComponent("birthdays.ics"), encoding: .utf8)
        #expect(calendar.contains("\r\nDTSTAMP:20261102T000000Z\r\n"))
    }

    @Test func aTouchedStoreRendersAnewAndAnUntouchedOneIsUpToDate() throws {
        let (site, out, build) = try SiteBuildTests.demo()
        build.sourceDateEpoch = nil
        let store = site.appendingPathComponent("store")
        try Self.date(store, 1_577_966_400)
        _ = build.build(today: SiteBuildTests.today)
        let again = build.build(today: SiteBuildTests.today)
        guard case .upToDate = again.outcome else {
            Issue.record("an unchanged store was built again: \(again.outcome)")
            return
        }
        // The same bytes, a newer time: the footer follows.
        try Self.date(store, 1_580_644_800)
        let touched = build.build(today: SiteBuildTests.today)
        guard case .published = touched.outcome else {
            Issue.record("a touched store was not built: \(touched.outcome)")
            return
        }
        #expect(try Self.footer(out).contains("2020-02-02"))
    }

    @Test(arguments: [
        (nil as Int?, nil as Int64?, nil as PartialDate?),
        (1_793_620_800, 1_577_966_400_000_000_000, PartialDate(year: 2026, month: 11, day: 2)),
        (-1, nil, PartialDate(year: 1969, month: 12, day: 31)),
    ])
    func theDay(_ epoch: Int?, _ modified: Int64?, _ expected: PartialDate?) {
        #expect(LastUpdated.day(storeModified: modified, sourceDateEpoch: epoch) == expected)
    }
}
