import RolodeckCore

/// An iCalendar `DATE` or `DATE-TIME` value.
enum ICalendarDateTime: Sendable, Equatable {
    /// `19980415`.
    case date(PartialDate)
    /// `19980415T133000`, floating, or with `Z` for UTC.
    case dateTime(LocalDateTime, isUTC: Bool)

    /// Parses `YYYYMMDD` or `YYYYMMDDTHHMMSS[Z]` (the extended forms with `-` and `:` too); nil
    /// when the text is not a date that exists.
    static func parse(_ text: String) -> ICalendarDateTime? {
        let trimmed = text.trimmingWhitespace
        let parts = trimmed.split(separator: "T", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        let dateDigits = parts[0].filter { $0 != "-" }
        guard dateDigits.count == 8, dateDigits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let year = Int(dateDigits.prefix(4)), let month = Int(dateDigits.dropFirst(4).prefix(2)),
              let day = Int(dateDigits.suffix(2)) else { return nil }
        let date = PartialDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        guard parts.count == 2 else { return .date(date) }
        var time = parts[1].filter { $0 != ":" }
        let isUTC = time.hasSuffix("Z") || time.hasSuffix("z")
        if isUTC { time.removeLast() }
        guard time.count == 6 || time.count == 4, time.allSatisfy({ $0.isASCII && $0.isNumber }),
              let hour = Int(time.prefix(2)), let minute = Int(time.dropFirst(2).prefix(2)),
              hour < 24, minute < 60 else { return nil }
        let second = time.count == 6 ? Int(time.suffix(2)) ?? 0 : 0
        guard second <= 60 else { return nil }
        return .dateTime(LocalDateTime(year: year, month: month, day: day, hour: hour, minute: minute,
                                       second: min(second, 59)), isUTC: isUTC)
    }

    /// An iCalendar `DURATION` (`P1W`, `P4DT3H2M1S`, `-PT15M`) in seconds; a day counts 24 hours.
    static func duration(_ text: String) -> Int? {
        var rest = Substring(text.trimmingWhitespace.uppercased())
        var sign = 1
        if rest.first == "+" || rest.first == "-" {
            if rest.first == "-" { sign = -1 }
            rest = rest.dropFirst()
        }
        guard rest.first == "P" else { return nil }
        rest = rest.dropFirst()
        var total = 0
        var number = ""
        var inTime = false
        var sawUnit = false
        for character in rest {
            if character.isASCII, character.isNumber {
                number.append(character)
                continue
            }
            if character == "T", number.isEmpty, !inTime {
                inTime = true
                continue
            }
            guard let value = Int(number) else { return nil }
            switch (character, inTime) {
            case ("W", false): total += value * 604_800
            case ("D", false): total += value * 86_400
            case ("H", true): total += value * 3600
            case ("M", true): total += value * 60
            case ("S", true): total += value
            default: return nil
            }
            number = ""
            sawUnit = true
        }
        guard number.isEmpty, sawUnit else { return nil }
        return sign * total
    }
}
