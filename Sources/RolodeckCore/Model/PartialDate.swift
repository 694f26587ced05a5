/// A calendar date whose year may be unknown, as birthdays often are.
public struct PartialDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year, when known.
    public var year: Int?
    /// The month, 1–12.
    public var month: Int
    /// The day of the month, 1–31.
    public var day: Int

    /// Creates a date; use `parse` to validate text.
    public init(year: Int?, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD`, or `--MM-DD` for a date without a year; nil unless the date exists.
    public static func parse(_ text: String) -> PartialDate? {
        let bytes = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let date: PartialDate
        if bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
           let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) {
            date = PartialDate(year: year, month: month, day: day)
        } else if bytes.count == 7, bytes[0] == UInt8(ascii: "-"), bytes[1] == UInt8(ascii: "-"),
                  bytes[4] == UInt8(ascii: "-"), let month = number(2..<4), let day = number(5..<7) {
            date = PartialDate(year: nil, month: month, day: day)
        } else {
            return nil
        }
        return date.isValid ? date : nil
    }

    /// Whether the date exists in the proleptic Gregorian calendar (Feb 29 only in leap years;
    /// without a year, Feb 29 is allowed).
    public var isValid: Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        if let year, year < 1 { return false }
        return day <= PartialDate.daysIn(month: month, year: year)
    }

    /// The number of days in a month; February has 29 when the year is unknown.
    public static func daysIn(month: Int, year: Int?) -> Int {
        switch month {
        case 2:
            guard let year else { return 29 }
            let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
            return leap ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `YYYY-MM-DD` or `--MM-DD`, the form the store uses.
    public var description: String {
        let monthDay = "\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
        guard let year else { return "--" + monthDay }
        let yearText = String(year)
        return String(repeating: "0", count: max(0, 4 - yearText.count)) + yearText + "-" + monthDay
    }

    /// The form HTML's `<time datetime>` takes: `1990-03-05`, or `03-05` without a year.
    public var htmlDateString: String {
        year == nil ? String(description.dropFirst(2)) : description
    }

    /// Orders by year (unknown first), month, then day.
    public static func < (lhs: PartialDate, rhs: PartialDate) -> Bool {
        (lhs.year ?? Int.min, lhs.month, lhs.day) < (rhs.year ?? Int.min, rhs.month, rhs.day)
    }

    /// Whole years from this date to `today`; nil when the year is unknown or the date is in the
    /// future. A Feb 29 birthday is reached on Mar 1 in common years.
    public func age(on today: PartialDate) -> Int? {
        guard let year, let todayYear = today.year, todayYear >= year else { return nil }
        var age = todayYear - year
        var birthdayMonth = month
        var birthdayDay = day
        if month == 2, day == 29, PartialDate.daysIn(month: 2, year: todayYear) == 28 {
            birthdayMonth = 3
            birthdayDay = 1
        }
        if (today.month, today.day) < (birthdayMonth, birthdayDay) { age -= 1 }
        return age >= 0 ? age : nil
    }
}

extension PartialDate {
    /// The date `days` days after 1970-01-01 (negative: before), in the proleptic Gregorian
    /// calendar; the civil-from-days algorithm, so no time zone or locale is involved.
    public init(daysSince1970 days: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(year: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: day)
    }
}
