import Mustache
import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite

/// Who the birthday page lists, in what order, with what age; and `birthdays.ics`.
@Suite struct BirthdayScheduleTests {
    static func contact(_ id: String, _ birthday: String?) -> Contact {
        var contact = Contact(id: id)
        contact.givenName = id.capitalized
        contact.birthday = birthday.flatMap(PartialDate.parse)
        return contact
    }

    static let contacts = [
        contact("ann", "1990-03-10"),  // later this month
        contact("bea", "1985-03-02"),  // earlier this month: comes round next year
        contact("cy", "--03-05"),  // today, no year
        contact("dan", "1996-02-29"),  // leap day
        contact("eve", "2000-12-31"),
        contact("fay", nil),
        contact("gus", "1970-04-01"),
    ]

    static func schedule(
        today: PartialDate, config: SiteConfig = SiteConfig(), contacts: [Contact] = contacts
    )
        -> (BirthdaySchedule, Directory)
    {
        let directory = Directory(store: Store(contacts: contacts), config: config)
        return (BirthdaySchedule(directory: directory, today: today), directory)
    }

    /// The schedule as "id date turns" lines.
    static func lines(_ schedule: BirthdaySchedule, _ directory: Directory) -> [String] {
        schedule.occurrences.map { occurrence in
            "\(directory.entries[occurrence.entry].contact.id) \(occurrence.date) \(occurrence.turns.map(String.init) ?? "-")"
        }
    }

    @Test func startsTodayAndRunsForAYearInACommonYear() {
        let (schedule, directory) = Self.schedule(today: PartialDate(year: 2027, month: 3, day: 5))
        #expect(
            Self.lines(schedule, directory) == [
                "cy 2027-03-05 -",
                "ann 2027-03-10 37",
                "gus 2027-04-01 57",
                "eve 2027-12-31 27",
                // 2028 is a leap year: Dan's own day.
                "dan 2028-02-29 32",
                "bea 2028-03-02 43",
            ])
    }

    /// Contacts born on the same day, whatever the year, are listed in the directory's order,
    /// not the store's.
    @Test func aDaysContactsAreInTheDirectorysOrder() {
        let contacts = [
            Self.contact("zoe", "1980-06-01"), Self.contact("amy", "1999-06-01"),
            Self.contact("max", "--06-01"), Self.contact("bob", "1975-05-31"),
        ]
        let (schedule, directory) = Self.schedule(
            today: PartialDate(year: 2027, month: 3, day: 5), contacts: contacts)
        #expect(
            Self.lines(schedule, directory) == [
                "bob 2027-05-31 52", "amy 2027-06-01 28", "max 2027-06-01 -", "zoe 2027-06-01 47",
            ])
    }

    @Test func theLeapDayIsTheLastDayOfFebruaryInCommonYears() {
        let (schedule, directory) = Self.schedule(today: PartialDate(year: 2026, month: 1, day: 1))
        let dan = Self.lines(schedule, directory).first { $0.hasPrefix("dan") }
        #expect(dan == "dan 2026-02-28 30")
        // On 28 February itself it is today's birthday, not next year's.
        let (onTheDay, sameDirectory) = Self.schedule(today: PartialDate(year: 2026, month: 2, day: 28))
        #expect(Self.lines(onTheDay, sameDirectory).first == "dan 2026-02-28 30")
        // On 1 March it has passed.
        let (after, afterDirectory) = Self.schedule(today: PartialDate(year: 2026, month: 3, day: 1))
        #expect(Self.lines(after, afterDirectory).last == "dan 2027-02-28 31")
    }

    @Test func aHiddenBirthdayListsNobody() {
        var config = SiteConfig()
        config.hiddenFields = [.birthday]
        let (schedule, directory) = Self.schedule(
            today: PartialDate(year: 2026, month: 1, day: 1), config: config)
        #expect(schedule.occurrences.isEmpty)
        let bytes = BirthdayCalendar.bytes(
            directory: directory, strings: .init(localeIdentifier: "en"),
            stamp: PartialDate(year: 2026, month: 1, day: 1))
        #expect(!String(decoding: bytes, as: UTF8.self).contains("BEGIN:VEVENT"))
    }

    @Test func hiddenContactsAreNotListed() {
        var config = SiteConfig()
        config.hiddenContacts = ["ann"]
        let (schedule, directory) = Self.schedule(
            today: PartialDate(year: 2026, month: 1, day: 1), config: config)
        #expect(!Self.lines(schedule, directory).contains { $0.hasPrefix("ann") })
        #expect(schedule.occurrences.count == 5)
    }

    @Test func thePageGroupsByMonthWithTheAgeTurned() throws {
        let directory = Directory(store: Store(contacts: Self.contacts), config: SiteConfig())
        let views = ViewBuilder(directory: directory, today: PartialDate(year: 2027, month: 3, day: 5))
        let page = views.birthdaysPage()
        let months = try #require(page["months"] as? [[String: Any]])
        #expect(
            months.map { $0["label"] as? String } == [
                "March 2027", "April 2027", "December 2027", "February 2028", "March 2028",
            ])
        let march = try #require(months[0]["birthdays"] as? [[String: Any]])
        #expect(march.map { $0["name"] as? String } == ["Cy", "Ann"])
        #expect(march[0]["today"] as? Bool == true)
        #expect(march[0]["turns"] as? Bool == false)
        #expect(march[1]["turns"] as? String == "turns 37")
        #expect(march[1]["iso"] as? String == "2027-03-10")
        #expect(page["calendarHref"] as? String == "birthdays.ics")
    }

    @Test func theMonthsAreLocalized() throws {
        var config = SiteConfig()
        config.locale = "ko"
        let directory = Directory(store: Store(contacts: Self.contacts), config: config)
        let views = ViewBuilder(directory: directory, today: PartialDate(year: 2027, month: 3, day: 5))
        let months = try #require(views.birthdaysPage()["months"] as? [[String: Any]])
        #expect(months.first?["label"] as? String == "2027년 3월")
        let first = try #require((months.first?["birthdays"] as? [[String: Any]])?.last)
        #expect(first["turns"] as? String == "37세가 됨")
    }

    /// The events of `birthdays.ics`, each as its lines joined by "|", without `DTSTAMP`.
    static func events(_ bytes: [UInt8]) -> [String] {
        let text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "")
        return text.components(separatedBy: "BEGIN:VEVENT\r\n").dropFirst().map { event in
            event.components(separatedBy: "END:VEVENT")[0].split(separator: "\r\n")
                .filter { !$0.hasPrefix("DTSTAMP") }.joined(separator: "|")
        }
    }

    @Test func theCalendarHasAYearlyEventPerBirthday() {
        let directory = Directory(store: Store(contacts: Self.contacts), config: SiteConfig())
        let bytes = BirthdayCalendar.bytes(
            directory: directory, strings: .init(localeIdentifier: "en"),
            stamp: PartialDate(year: 2026, month: 5, day: 1))
        #expect(
            Self.events(bytes) == [
                "UID:dan-birthday@rolodeck|DTSTART;VALUE=DATE:19960229|DTEND;VALUE=DATE:19960301"
                    + "|RRULE:FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1|SUMMARY:Dan’s birthday|TRANSP:TRANSPARENT",
                "UID:bea-birthday@rolodeck|DTSTART;VALUE=DATE:19850302|DTEND;VALUE=DATE:19850303"
                    + "|RRULE:FREQ=YEARLY|SUMMARY:Bea’s birthday|TRANSP:TRANSPARENT",
                // No year: the base year, 2000.
                "UID:cy-birthday@rolodeck|DTSTART;VALUE=DATE:20000305|DTEND;VALUE=DATE:20000306"
                    + "|RRULE:FREQ=YEARLY|SUMMARY:Cy’s birthday|TRANSP:TRANSPARENT",
                "UID:ann-birthday@rolodeck|DTSTART;VALUE=DATE:19900310|DTEND;VALUE=DATE:19900311"
                    + "|RRULE:FREQ=YEARLY|SUMMARY:Ann’s birthday|TRANSP:TRANSPARENT",
                "UID:gus-birthday@rolodeck|DTSTART;VALUE=DATE:19700401|DTEND;VALUE=DATE:19700402"
                    + "|RRULE:FREQ=YEARLY|SUMMARY:Gus’s birthday|TRANSP:TRANSPARENT",
                // The end of a year ends in the next.
                "UID:eve-birthday@rolodeck|DTSTART;VALUE=DATE:20001231|DTEND;VALUE=DATE:20010101"
                    + "|RRULE:FREQ=YEARLY|SUMMARY:Eve’s birthday|TRANSP:TRANSPARENT",
            ])
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\r\nDTSTAMP:20260501T000000Z\r\n"))
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
    }

    @Test func theCalendarDoesNotDependOnTheDayOrTheOrderOfTheStore() {
        let stamp = PartialDate(year: 2026, month: 5, day: 1)
        let one = BirthdayCalendar.bytes(
            directory: Directory(store: Store(contacts: Self.contacts), config: SiteConfig()),
            strings: .init(localeIdentifier: "en"), stamp: stamp)
        let other = BirthdayCalendar.bytes(
            directory: Directory(store: Store(contacts: Self.contacts.reversed()), config: SiteConfig()),
            strings: .init(localeIdentifier: "en"), stamp: stamp)
        #expect(one == other)
    }
}
