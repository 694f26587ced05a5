import RolodeckCore

/// Writes iCalendar text (RFC 5545) as bytes: every content line ends in CRLF and is folded at
/// 75 octets, never inside a UTF-8 character; `TEXT` values are escaped.
///
/// The writer knows lines, not meaning: `BirthdayCalendar` and `TodoCalendar` say which
/// properties to write. Nothing it writes depends on the clock, so the same calls give the same
/// bytes.
struct ICalendarWriter {
    /// The octets a line may have before the CRLF, continuation lines' leading space included.
    static let lineLimit = 75

    /// What has been written so far.
    private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    init() {
        bytes.reserveCapacity(4096)
    }

    /// `BEGIN:<name>`.
    mutating func begin(_ component: String) {
        line("BEGIN", component)
    }

    /// `END:<name>`.
    mutating func end(_ component: String) {
        line("END", component)
    }

    /// A property whose value is written as given: a date, a number, a rule. `parameters` are
    /// written as given too (`;VALUE=DATE`).
    mutating func line(_ name: String, parameters: String = "", _ value: String) {
        fold(Array((name + parameters + ":" + value).utf8))
    }

    /// A property whose value is text, escaped as `TEXT` values are.
    mutating func text(_ name: String, _ value: String) {
        line(name, Self.escaped(value))
    }

    /// A property whose value is a list of texts (`CATEGORIES`), each escaped, joined by commas.
    mutating func list(_ name: String, _ values: [String]) {
        line(name, values.map(Self.escaped).joined(separator: ","))
    }

    /// `text` escaped as RFC 5545 §3.3.11 says: a backslash, semicolon and comma get a
    /// backslash, a line break (CRLF, LF or CR) becomes `\n`; other control characters, which
    /// `TEXT` cannot hold, are left out.
    static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\\": result += "\\\\"
            case ";": result += "\\;"
            case ",": result += "\\,"
            case "\r":
                result += "\\n"
                // CRLF is one break.
                if pending == "\n" { pending = scalars.next() }
            case "\n": result += "\\n"
            case "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Appends one unfolded line, folded: a CRLF and a space go in before the octet that would
    /// make a line longer than 75 octets, moved back to the start of the character it is in.
    private mutating func fold(_ line: [UInt8]) {
        var start = 0
        var limit = Self.lineLimit
        while line.count - start > limit {
            var cut = start + limit
            // A UTF-8 continuation byte (10xxxxxx) is never the first of a line.
            while cut > start, line[cut] & 0xC0 == 0x80 { cut -= 1 }
            bytes += line[start..<cut]
            bytes += [0x0D, 0x0A, 0x20]
            start = cut
            // The space that begins a continuation line counts.
            limit = Self.lineLimit - 1
        }
        bytes += line[start...]
        bytes += [0x0D, 0x0A]
    }

    /// A date as `DATE` values are written: `20260315`.
    static func date(_ date: PartialDate, year: Int) -> String {
        digits(year, 4) + digits(date.month, 2) + digits(date.day, 2)
    }

    /// A date-time in UTC as `DATE-TIME` values are written: `20260315T093000Z`.
    static func utcDateTime(_ time: LocalDateTime) -> String {
        localDateTime(time) + "Z"
    }

    /// A date-time without a zone (floating, or in the zone a `TZID` names): `20260315T093000`.
    static func localDateTime(_ time: LocalDateTime) -> String {
        digits(time.year, 4) + digits(time.month, 2) + digits(time.day, 2) + "T" + digits(time.hour, 2)
            + digits(time.minute, 2) + digits(time.second, 2)
    }

    /// `value` in at least `width` digits, zeros in front.
    static func digits(_ value: Int, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
