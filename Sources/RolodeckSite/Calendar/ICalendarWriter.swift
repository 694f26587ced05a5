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

    /// Creates an empty writer, with room for `capacity` bytes.
    init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
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
        // Every byte escaped or left out is ASCII, and no byte of a longer UTF-8 character is,
        // so the text is read as bytes: appended scalar by scalar, a birthday calendar's
        // summaries took 14,000 instructions each. Most text has nothing to escape and is kept.
        var text = text
        guard text.withUTF8({ $0.contains(where: changes) }) else { return text }
        return text.withUTF8 { bytes in
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count + 16)
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","):
                    result.append(UInt8(ascii: "\\"))
                    result.append(byte)
                case 0x0D, 0x0A:
                    result.append(UInt8(ascii: "\\"))
                    result.append(UInt8(ascii: "n"))
                    // CRLF is one break.
                    if byte == 0x0D, index < bytes.count, bytes[index] == 0x0A { index += 1 }
                case 0x09, 0x20..<0x7F, 0x80...:
                    result.append(byte)
                default:
                    // Other control characters.
                    continue
                }
            }
            return String(decoding: result, as: UTF8.self)
        }
    }

    /// Whether `escaped` changes a byte: one it escapes, or a control character (not a tab).
    private static func changes(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: ","), 0x7F: return true
        case 0x09: return false
        default: return byte < 0x20
        }
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
