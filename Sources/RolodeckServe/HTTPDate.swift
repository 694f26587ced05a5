/// HTTP dates (RFC 9110, 5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, in English whatever the locale.
///
/// Worked out with integer arithmetic on the Gregorian calendar, not with `timegm` and
/// `gmtime_r`: their `tm` fields are `Int32`, which a year sent by a client (`99999999999`)
/// overflows. Every date read or written here has a four-digit year, so no step can trap.
enum HTTPDate {
    private static let dayNames = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let monthNames = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ]
    /// The last second the format can show: Fri, 31 Dec 9999 23:59:59 GMT.
    static let latest = 253_402_300_799

    /// The date of a time in seconds since 1970, held to the years 1970 to 9999 (a file's time
    /// outside them is shown as the nearest end, never as a malformed date).
    static func format(secondsSince1970 seconds: Int) -> String {
        let time = min(max(seconds, 0), latest)
        let days = time / 86400
        let second = time % 86400
        let (year, month, day) = civilDate(days: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        // 1 January 1970 was a Thursday.
        return "\(dayNames[(days + 4) % 7]), \(two(day)) \(monthNames[month - 1]) \(year) "
            + "\(two(second / 3600)):\(two(second / 60 % 60)):\(two(second % 60)) GMT"
    }

    /// The time of a date in the preferred form, in seconds since 1970; nil for anything else,
    /// which a conditional request then ignores (RFC 9110, 13.1.3). The obsolete forms are not
    /// read: they only make a conditional request unconditional, which is always safe.
    static func parse(_ text: String) -> Int? {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 6, fields[0].utf8.count == 4, fields[0].last == ",",
            dayNames.contains(String(fields[0].dropLast())),
            let day = digits(fields[1], count: 2),
            let month = monthNames.firstIndex(of: String(fields[2])).map({ $0 + 1 }),
            let year = digits(fields[3], count: 4), fields[5] == "GMT"
        else { return nil }
        let clock = fields[4].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, let hour = digits(clock[0], count: 2),
            let minute = digits(clock[1], count: 2),
            let second = digits(clock[2], count: 2),
            hour < 24, minute < 60, second <= 60, day >= 1, day <= length(ofMonth: month, in: year)
        else { return nil }
        return days(year: year, month: month, day: day) * 86400 + hour * 3600 + minute * 60 + second
    }

    /// The value of exactly `count` ASCII digits; nil for anything else (a sign, a space, more
    /// digits), so the value is never more than 9999.
    private static func digits(_ text: Substring, count: Int) -> Int? {
        guard text.utf8.count == count else { return nil }
        var value = 0
        for byte in text.utf8 {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    private static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1 January 1970 of a Gregorian date (H. Hinnant's `days_from_civil`: years
    /// counted from March, so the leap day ends a year; eras of 400 years).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let year = month <= 2 ? year - 1 : year
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The Gregorian date of a day counted from 1 January 1970, the inverse of `days`.
    static func civilDate(days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
