import RolodeckCore
import RolodeckPlan

/// `todos.ics`: the todo list as a calendar of `VTODO`s, so that it opens in a calendar or
/// task app, and so that a todo read from an `.ics` file goes out with what it came in with.
///
/// Each todo gives `UID` (its id), `SUMMARY`, `STATUS` (`COMPLETED` or `NEEDS-ACTION`), `DUE`,
/// `PRIORITY` (high 1, medium 5, low 9, the values the reader takes back to the same level),
/// `DESCRIPTION` (its notes, as written), `CATEGORIES`, `RELATED-TO` (its parent), `CLASS` (as it
/// was read) and `X-APPLE-SORT-ORDER` (its place in the user's order, from 1), which Apple's
/// Reminders and Rolodeck's own reader sort by.
///
/// `DUE` is a `DATE` for a day, a floating time for a time written without a zone, a UTC time
/// for one written in UTC, and otherwise the time as written with a `TZID` of its offset from
/// UTC (`UTC+0100`), defined by a `VTIMEZONE` in the file. A due date without a year cannot be
/// written and is left out. `DTSTAMP` is the day the caller passes, never the clock.
enum TodoCalendar {
    /// The calendar's bytes.
    static func bytes(directory: Directory, name: String, stamp: PartialDate) -> [UInt8] {
        var writer = ICalendarWriter()
        writer.begin("VCALENDAR")
        writer.line("VERSION", "2.0")
        writer.line("PRODID", "-//Rolodeck//Rolodeck//EN")
        writer.text("X-WR-CALNAME", name)
        var offsets: Set<Int> = []
        for entry in directory.todos {
            if let due = entry.todo.due, due.hour != nil, let offset = due.utcOffset, offset != 0 {
                offsets.insert(offset)
            }
        }
        for offset in offsets.sorted() {
            writer.begin("VTIMEZONE")
            writer.line("TZID", zoneName(offset))
            writer.begin("STANDARD")
            writer.line("DTSTART", "19700101T000000")
            writer.line("TZOFFSETFROM", offsetText(offset))
            writer.line("TZOFFSETTO", offsetText(offset))
            writer.end("STANDARD")
            writer.end("VTIMEZONE")
        }
        let stampText = ICalendarWriter.date(stamp, year: stamp.year ?? 1970) + "T000000Z"
        for (position, entry) in directory.todos.enumerated() {
            let todo = entry.todo
            writer.begin("VTODO")
            writer.text("UID", todo.id)
            writer.line("DTSTAMP", stampText)
            writer.text("SUMMARY", todo.title)
            writer.line("STATUS", todo.done ? "COMPLETED" : "NEEDS-ACTION")
            if let due = todo.due { write(due, to: &writer) }
            if let priority = todo.priority {
                let value =
                    switch priority {
                    case .high: "1"
                    case .medium: "5"
                    case .low: "9"
                    }
                writer.line("PRIORITY", value)
            }
            if !todo.notes.isEmpty { writer.text("DESCRIPTION", todo.notes) }
            if !todo.categories.isEmpty { writer.list("CATEGORIES", todo.categories) }
            if let parent = entry.parent { writer.text("RELATED-TO", directory.todos[parent].todo.id) }
            // The class it was read with: published with `publishPrivate`, it stays private.
            if let classification = todo.classification { writer.text("CLASS", classification) }
            writer.line("X-APPLE-SORT-ORDER", String(position + 1))
            writer.end("VTODO")
        }
        writer.end("VCALENDAR")
        return writer.bytes
    }

    /// Writes `DUE` as the type comment says.
    private static func write(_ due: DueDate, to writer: inout ICalendarWriter) {
        guard let year = due.date.year else { return }
        guard let hour = due.hour, let minute = due.minute else {
            writer.line("DUE", parameters: ";VALUE=DATE", ICalendarWriter.date(due.date, year: year))
            return
        }
        let time = LocalDateTime(
            year: year, month: due.date.month, day: due.date.day, hour: hour, minute: minute)
        switch due.utcOffset {
        case nil: writer.line("DUE", ICalendarWriter.localDateTime(time))
        case 0?: writer.line("DUE", ICalendarWriter.utcDateTime(time))
        case let offset?:
            writer.line("DUE", parameters: ";TZID=" + zoneName(offset), ICalendarWriter.localDateTime(time))
        }
    }

    /// The `TZID` of a fixed offset from UTC: `UTC+0100`, `UTC-0330` (no colon, which would
    /// need quotes in a parameter).
    static func zoneName(_ offset: Int) -> String {
        "UTC" + offsetText(offset)
    }

    /// An offset as `TZOFFSETTO` writes it: `+0100`, `-0330` (seconds, which no zone in use
    /// has, are left out).
    static func offsetText(_ offset: Int) -> String {
        let minutes = abs(offset) / 60
        return (offset < 0 ? "-" : "+") + ICalendarWriter.digits(minutes / 60, 2)
            + ICalendarWriter.digits(minutes % 60, 2)
    }
}
