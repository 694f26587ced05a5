import RolodeckCore
import RolodeckLocale
import RolodeckPlan
import Synchronization

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
        let (parts, _) = parts(directory: directory, strings: strings, stamp: stamp, kept: nil)
        return SiteRenderer.joined(parts)
    }

    /// The calendar's bytes as parts: its head, an event for each birthday, and its end. An
    /// event of `kept` (the last calendar's) for the same contact, name and birthday, stamped
    /// the same in the same language, is taken as it was; matched in order, so a contact that
    /// moves leaves the others' events kept. Returns the events to keep for the next calendar
    /// (with whether any event differs from `kept`'s: nil when none was kept).
    static func parts(directory: Directory, strings: InterfaceStrings, stamp: PartialDate, kept: Events?)
        -> (parts: [[UInt8]], events: Events)
    {
        var head = ICalendarWriter()
        head.begin("VCALENDAR")
        head.line("VERSION", "2.0")
        head.line("PRODID", "-//Rolodeck//Rolodeck//EN")
        head.line("CALSCALE", "GREGORIAN")
        head.line("METHOD", "PUBLISH")
        head.text("X-WR-CALNAME", strings[.birthdays] + " · " + directory.config.title)
        let stampText = ICalendarWriter.date(stamp, year: stamp.year ?? baseYear) + "T000000Z"
        let found = birthdays(of: directory)
        let ids = found.map { directory.entries[$0.entry].contact.id }
        let names = found.map { directory.entries[$0.entry].displayName }
        let birthdays = found.map(\.birthday)
        @Sendable func event(_ index: Int) -> [UInt8] {
            var writer = ICalendarWriter(capacity: 256)
            let birthday = birthdays[index]
            let year = birthday.year ?? baseYear
            let start = PartialDate(year: year, month: birthday.month, day: birthday.day)
            let end = PartialDate(
                daysSince1970: LocalDateTime.days(year: year, month: start.month, day: start.day) + 1)
            writer.begin("VEVENT")
            writer.text("UID", ids[index] + "-birthday@rolodeck")
            writer.line("DTSTAMP", stampText)
            writer.line("DTSTART", parameters: ";VALUE=DATE", ICalendarWriter.date(start, year: year))
            writer.line("DTEND", parameters: ";VALUE=DATE", ICalendarWriter.date(end, year: end.year ?? year))
            let leapDay = birthday.month == 2 && birthday.day == 29
            writer.line("RRULE", leapDay ? "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1" : "FREQ=YEARLY")
            writer.text("SUMMARY", strings.birthdayOf(names[index]))
            writer.line("TRANSP", "TRANSPARENT")
            writer.end("VEVENT")
            return writer.bytes
        }
        var events = Events(
            stamp: stampText, language: strings.language, ids: ids, names: names, birthdays: birthdays)
        if let kept, kept.stamp == stampText, kept.language == strings.language,
            let match = OrderedMatch(
                count: found.count, earlierCount: kept.ids.count,
                same: { index, place in
                    ids[index].hasSameBytes(as: kept.ids[place])
                        && names[index].hasSameBytes(as: kept.names[place])
                        && birthdays[index] == kept.birthdays[place]
                })
        {
            events.bytes = match.places.map { $0.map { kept.bytes[$0] } ?? [] }
            for index in match.unmatched { events.bytes[index] = event(index) }
            events.changed = !match.unmatched.isEmpty || !match.gone.isEmpty
        } else {
            events.bytes = ParallelWork.map(found.count, batch: 256) { event($0) }
            events.changed = kept.map { _ in true }
        }
        var end = ICalendarWriter(capacity: 32)
        end.end("VCALENDAR")
        return ([head.bytes] + events.bytes + [end.bytes], events)
    }

    /// The events of a calendar, and what each was made from, for the next calendar to take
    /// those it has too (`BirthdayEventCache`).
    struct Events: Sendable {
        /// The `DTSTAMP` and the language of the summaries they were made with.
        var stamp: String
        var language: InterfaceLanguage
        /// Each event's contact id, display name and birthday, in calendar order.
        var ids: [String]
        var names: [String]
        var birthdays: [PartialDate]
        /// Each event's bytes.
        var bytes: [[UInt8]] = []
        /// Whether an event was made anew, came or went since the calendar these were made
        /// from; nil when there was none.
        var changed: Bool? = nil
    }

    /// The shown birthdays by entry, in calendar order: month, day, then the directory's order.
    static func birthdays(of directory: Directory) -> [(entry: Int, birthday: PartialDate)] {
        guard directory.config.shows(.birthday) else { return [] }
        var found: [(entry: Int, birthday: PartialDate)] = []
        // Each entry read where it lies: a copy of one retains all its strings.
        for index in directory.entries.indices {
            if let birthday = directory.entries[index].contact.birthday { found.append((index, birthday)) }
        }
        // Found in the directory's order, so counted into a slot a day, not sorted again.
        return found.ordered(inSlots: 13 * 32) { $0.birthday.month * 32 + $0.birthday.day }
    }
}

/// The birthday calendar's events a watch rendered last, for the next save's calendar to take
/// those that are the same (`BirthdayCalendar.parts`): renaming a contact with a birthday then
/// makes its event anew, not the 60,000 of a directory of 100,000 contacts (0.15 s).
///
/// A renderer takes a ticket when it is made (`ticket`), and the cache keeps the events of the
/// newest renderer that made a calendar: a calendar made off the rebuilds' path, for an output
/// found up to date, never takes the place of one a later save made meanwhile.
public final class BirthdayEventCache: Sendable {
    private let events = NewestKept<BirthdayCalendar.Events>()

    /// An empty cache.
    public init() {}

    /// A number for a renderer made now, higher than those of every renderer made before.
    func ticket() -> Int { events.ticket() }

    /// The events last kept.
    var kept: BirthdayCalendar.Events? { events.kept }

    /// Keeps the events of the calendar just made by the renderer given `ticket`, in place of
    /// those kept, unless those were made by a newer renderer.
    func keep(_ made: BirthdayCalendar.Events, ticket: Int) {
        events.keep(made, ticket: ticket)
    }
}

/// A calendar's parts once a renderer made them, and whether they differ from the last ones the
/// cache kept.
final class MadeCalendar: Sendable {
    let made = Mutex<(parts: [[UInt8]], differs: Bool)?>(nil)
}
