import RolodeckLocale
import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite

/// A watch's birthday calendar takes the events of the last one that are the same, and makes
/// the others: whatever it takes, the calendar is byte for byte the one made anew.
@Suite struct BirthdayEventsTests {
    static let english = InterfaceStrings(localeIdentifier: "en")
    static let stamp = PartialDate(year: 2026, month: 12, day: 6)

    /// Sixty contacts with birthdays and a few without, in a directory.
    static func contacts() -> [Contact] {
        (0..<66).map { number in
            let month = 1 + number % 12, day = 1 + number % 28
            let birthday =
                "19\(50 + number % 40)-" + (month < 10 ? "0" : "") + "\(month)-" + (day < 10 ? "0" : "")
                + "\(day)"
            return BirthdayScheduleTests.contact("c\(number)", number % 11 == 0 ? nil : birthday)
        }
    }

    static func directory(_ contacts: [Contact]) -> Directory {
        Directory(store: Store(contacts: contacts), config: SiteConfig())
    }

    /// The calendar of `contacts` made from the events `kept`, against the one made anew.
    static func made(
        _ contacts: [Contact], kept: BirthdayCalendar.Events?, strings: InterfaceStrings = english,
        stamp: PartialDate = stamp
    )
        -> (events: BirthdayCalendar.Events, same: Bool)
    {
        let directory = directory(contacts)
        let (parts, events) = BirthdayCalendar.parts(
            directory: directory, strings: strings, stamp: stamp, kept: kept)
        let fresh = BirthdayCalendar.bytes(directory: directory, strings: strings, stamp: stamp)
        return (events, Array(parts.joined()) == fresh)
    }

    /// How many of `events`' bytes are the very bytes `kept` held (taken, not made again).
    static func taken(_ events: BirthdayCalendar.Events, from kept: BirthdayCalendar.Events) -> Int {
        events.bytes.count { bytes in
            kept.bytes.contains { old in
                old.withUnsafeBufferPointer { old in
                    bytes.withUnsafeBufferPointer { $0.baseAddress == old.baseAddress }
                }
            }
        }
    }

    @Test func theSameDirectoryTakesEveryEvent() {
        let (first, firstSame) = Self.made(Self.contacts(), kept: nil)
        #expect(firstSame)
        #expect(first.bytes.count == 60)
        #expect(first.changed == nil)
        let (again, same) = Self.made(Self.contacts(), kept: first)
        #expect(same)
        #expect(again.changed == false)
        #expect(Self.taken(again, from: first) == first.bytes.count)
    }

    /// A contact renamed (so that it moves), given another birthday, removed or added: only
    /// its event is made, and the calendar is the one made anew.
    @Test(arguments: ["renamed", "born another day", "removed", "added"])
    func aChangedContactMakesOnlyItsEvent(_ change: String) {
        let (first, _) = Self.made(Self.contacts(), kept: nil)
        var contacts = Self.contacts()
        switch change {
        case "renamed": contacts[7].givenName = "Aaron"
        case "born another day": contacts[7].birthday = PartialDate.parse("1961-01-02")
        case "removed": contacts.remove(at: 7)
        default: contacts.append(BirthdayScheduleTests.contact("new", "1999-09-09"))
        }
        let (events, same) = Self.made(contacts, kept: first)
        #expect(same, "\(change)")
        #expect(events.changed == true, "\(change)")
        let expected =
            change == "removed" ? first.bytes.count - 1 : first.bytes.count - (change == "added" ? 0 : 1)
        #expect(Self.taken(events, from: first) == expected, "\(change)")
    }

    /// Another stamp or language makes every event anew.
    @Test func anotherStampOrLanguageMakesEveryEvent() {
        let (first, _) = Self.made(Self.contacts(), kept: nil)
        let (stamped, stampedSame) = Self.made(
            Self.contacts(), kept: first, stamp: PartialDate(year: 2026, month: 12, day: 7))
        #expect(stampedSame)
        #expect(Self.taken(stamped, from: first) == 0)
        let (german, germanSame) = Self.made(
            Self.contacts(), kept: first, strings: InterfaceStrings(localeIdentifier: "de"))
        #expect(germanSame)
        #expect(Self.taken(german, from: first) == 0)
    }

    /// Two renderers share a watch's cache: the older one (made for an output found up to
    /// date) makes its calendar off the rebuilds' path, after the newer one (a save) made its
    /// own. The cache keeps the newer one's events, whichever made its calendar last.
    @Test(arguments: [false, true])
    func theCacheKeepsTheNewestRenderersEvents(olderFirst: Bool) throws {
        let cache = BirthdayEventCache()
        var renamed = Self.contacts()
        renamed[7].givenName = "Aaron"
        let theme = try EntryCardsTests.site().site.theme
        let older = SiteRenderer(
            directory: Self.directory(Self.contacts()), theme: theme, today: Self.stamp,
            birthdayEventCache: cache)
        let newer = SiteRenderer(
            directory: Self.directory(renamed), theme: theme, today: Self.stamp, birthdayEventCache: cache)
        let renderers = olderFirst ? [older, newer] : [newer, older]
        for renderer in renderers { _ = renderer.birthdaysCalendarParts() }
        let kept = try #require(cache.kept)
        let newerNames = Self.directory(renamed).entries.filter { $0.contact.birthday != nil }
            .map(\.displayName)
        #expect(kept.names.sorted() == newerNames.sorted())
        #expect(kept.names.contains { $0.hasPrefix("Aaron") })
    }
}
