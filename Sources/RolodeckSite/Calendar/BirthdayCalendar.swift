import RolodeckCore
import RolodeckLocale
import RolodeckPlan

/// `birthdays.ics`: a calendar to subscribe to, with an all-day event repeating every year for
/// each contact whose birthday the site shows.
///
/// The same directory gives the same bytes, whatever the day: events are in calendar order
/// (month, day, then the directory's order), not from today on, and `DTSTAMP` is the day the
/// caller passes (the store's last change, or `SOURCE_DATE_EPOCH`), never the clock.
///
/// - `UID` is `<contact id>-birthday@rolodeck`, so a subscribed calendar updates an event
///   instead of adding another when a birthday or name changes.
/// - `DTSTART;VALUE=DATE` is the birthday itself; a birthday without a year starts in
///   `baseYear` (2000, a leap year, so that 29 February exists).
/// - `RRULE:FREQ=YEARLY`; for 29 February `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1`, the last day of
///   February, because a plain yearly rule on 29 February is left out in common years
///   (RFC 5545 §3.3.10 drops occurrences on days that do not exist).
enum BirthdayCalendar {
    /// The year a birthday without a year starts repeating from.
    static let baseYear = 2000

    /// The calendar's bytes.
    static func bytes(directory: Directory, strings: InterfaceStrings, stamp: PartialDate) -> [UInt8] {
        var writer = ICalendarWriter()
        writer.begin("VCALENDAR")
        writer.line("VERSION", "2.0")
        writer.line("PRODID", "-//Rolodeck//Rolodeck//EN")
        writer.line("CALSCALE", "GREGORIAN")
        writer.line("METHOD", "PUBLISH")
        let name = strings[.birthdays] + " · " + directory.config.title
        writer.text("X-WR-CALNAME", name)
        let stampText = ICalendarWriter.date(stamp, year: stamp.year ?? baseYear) + "T000000Z"
        for (index, birthday) in birthdays(of: directory) {
            let entry = directory.entries[index]
            let year = birthday.year ?? baseYear
            let start = PartialDate(year: year, month: birthday.month, day: birthday.day)
            let end = PartialDate(
                daysSince1970: LocalDateTime.days(year: year, month: start.month, day: start.day) + 1)
            writer.begin("VEVENT")
            writer.text("UID", entry.contact.id + "-birthday@rolodeck")
            writer.line("DTSTAMP", stampText)
            writer.line("DTSTART", parameters: ";VALUE=DATE", ICalendarWriter.date(start, year: year))
            writer.line("DTEND", parameters: ";VALUE=DATE", ICalendarWriter.date(end, year: end.year ?? year))
            let leapDay = birthday.month == 2 && birthday.day == 29
            writer.line("RRULE", leapDay ? "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "FREQ=YEARLY")
            writer.text("SUMMARY", strings.birthdayOf(entry.displayName))
            writer.line("TRANSP", "TRANSPARENT")
            writer.end("VEVENT")
        }
        writer.end("VCALENDAR")
        return writer.bytes
    }

    /// The shown birthdays by entry, in calendar order: month, day, then the directory's order.
    static func birthdays(of directory: Directory) -> [(entry: Int, birthday: PartialDate)] {
        guard directory.config.shows(.birthday) else { return [] }
        var found: [(entry: Int, birthday: PartialDate)] = []
        for (index, entry) in directory.entries.enumerated() {
            if let birthday = entry.contact.birthday { found.append((index, birthday)) }
        }
        return found.sorted {
            ($0.birthday.month, $0.birthday.day, $0.entry) < ($1.birthday.month, $1.birthday.day, $1.entry)
        }
    }
}
