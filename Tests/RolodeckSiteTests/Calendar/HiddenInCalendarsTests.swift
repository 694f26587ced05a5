import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// What the config hides is in no file of the site, the calendars and the birthday page
/// included: a hidden contact's id and name, and with `birthday` hidden, every birthday (and the
/// birthday page and calendar, which would list nobody).
@Suite struct HiddenInCalendarsTests {
    static func demo(_ change: (inout SiteConfig) -> Void) throws -> [String: [UInt8]] {
        let reader = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "")
        var input = try reader.read().input
        change(&input.config)
        return try Site.load(input).renderFiles(
            today: PartialDate(year: 2026, month: 11, day: 30),
            lastUpdated: PartialDate(year: 2026, month: 11, day: 2))
    }

    @Test func aHiddenContactIsInNoFile() throws {
        // Lena has a birthday on 29 February; her id is in the shown site's calendar.
        let shown = try Self.demo { _ in }
        #expect(String(decoding: try #require(shown["birthdays.ics"]), as: UTF8.self).contains("lena-vogel"))
        let files = try Self.demo { $0.hiddenContacts = ["lena-vogel"] }
        for (path, bytes) in files {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("lena-vogel"), "\(path) names the hidden contact")
            #expect(!text.contains("Sun-hee Vogel"), "\(path) names the hidden contact")
        }
    }

    @Test func hiddenBirthdaysAreInNoCalendarOrList() throws {
        let files = try Self.demo { $0.hiddenFields = [.birthday] }
        // Neither the calendar nor the page is published, which would list nobody.
        #expect(files["birthdays.ics"] == nil && files["birthdays.html"] == nil)
        #expect(files["todos.ics"] != nil)
        // Lena's birthday, written 1996-02-29, is on no page.
        for (path, bytes) in files {
            #expect(
                !String(decoding: bytes, as: UTF8.self).contains("1996-02-29"), "\(path) shows a birthday")
        }
    }
}
