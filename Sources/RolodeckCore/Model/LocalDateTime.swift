import Foundation

/// A wall-clock date and time, without a time zone.
public struct LocalDateTime: Sendable, Hashable, Comparable {
    /// The year of the proleptic Gregorian calendar.
    public var year: Int
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int
    /// The hour, 0–23.
    public var hour = 0
    /// The minute, 0–59.
    public var minute = 0
    /// The second, 0–59.
    public var second = 0

    /// The date part.
    public var date: PartialDate { PartialDate(year: year, month: month, day: day) }

    /// Seconds since 1970-01-01T00:00 as if the time were UTC.
    public var secondsSince1970: Int {
        LocalDateTime.days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    }

    /// The date and time `seconds` after 1970-01-01T00:00.
    public init(secondsSince1970 seconds: Int) {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let date = PartialDate(daysSince1970: days)
        let rest = seconds - days * 86_400
        self.init(year: date.year ?? 1970, month: date.month, day: date.day,
                  hour: rest / 3600, minute: rest % 3600 / 60, second: rest % 60)
    }

    /// Creates a date and time from its parts.
    public init(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (days-from-civil).
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The day of the week of a date, 0 for Sunday to 6 for Saturday.
    public static func weekday(year: Int, month: Int, day: Int) -> Int {
        let days = days(year: year, month: month, day: day)
        return ((days % 7) + 11) % 7
    }

    /// Orders by date, then time of day.
    public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
        (lhs.year, lhs.month, lhs.day, lhs.hour, lhs.minute, lhs.second)
            < (rhs.year, rhs.month, rhs.day, rhs.hour, rhs.minute, rhs.second)
    }
}

extension DueDate {
    /// The same moment as wall-clock time in `zone`; a date, or a time written without a zone,
    /// stays as it is.
    public func converted(to zone: TimeZone) -> DueDate {
        guard let offset = utcOffset, let hour, let minute, let year = date.year else { return self }
        let written = LocalDateTime(year: year, month: date.month, day: date.day, hour: hour, minute: minute)
        let instant = written.secondsSince1970 - offset
        let target = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        let local = LocalDateTime(secondsSince1970: instant + target)
        return DueDate(date: local.date, hour: local.hour, minute: local.minute, utcOffset: target)
    }
}
