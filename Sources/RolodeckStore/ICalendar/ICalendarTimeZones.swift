import Foundation
import RolodeckCore

/// Finds how far ahead of UTC a wall-clock time in a `TZID` is.
///
/// A `TZID` that names a zone of the time zone database (`Europe/Berlin`, also behind a prefix
/// such as Mozilla's `/mozilla.org/20050126_1/Europe/Berlin`) is looked up there: it is more
/// accurate than the simplified `VTIMEZONE` most writers include. Any other name (Outlook's
/// `W. Europe Standard Time`, a custom one) is looked up among the file's `VTIMEZONE`
/// definitions, whose observances are evaluated here: their `DTSTART`, `RDATE`s and yearly
/// `RRULE`s (`BYMONTH` with `BYDAY` such as `2SU` or `-1SU`, or with `BYMONTHDAY`).
struct ICalendarTimeZones {
    private let definitions: [String: [Observance]]

    /// The zones a file defines, from its `VTIMEZONE` components.
    init(_ components: [ICalendarComponent]) {
        var definitions: [String: [Observance]] = [:]
        for zone in components where zone.name == "VTIMEZONE" {
            guard let tzid = zone.property("TZID").map(ICalendarTimeZones.plainText) else { continue }
            let observances = zone.components.compactMap(Observance.init)
            if !observances.isEmpty { definitions[tzid] = observances }
        }
        self.definitions = definitions
    }

    /// Seconds ahead of UTC of a wall-clock time in the zone; nil when the zone is unknown.
    func utcOffset(of time: LocalDateTime, in tzid: String) -> Int? {
        if let zone = ICalendarTimeZones.databaseZone(tzid) {
            return ICalendarTimeZones.utcOffset(of: time, in: zone)
        }
        return definitions[tzid].flatMap { Observance.offset(of: time, in: $0) }
    }

    /// The zone of the database a `TZID` names, directly or after a path-like prefix.
    static func databaseZone(_ tzid: String) -> TimeZone? {
        if let zone = TimeZone(identifier: tzid) { return zone }
        let parts = tzid.split(separator: "/")
        guard parts.count > 2 else { return nil }
        for length in [3, 2] where parts.count > length {
            if let zone = TimeZone(identifier: parts.suffix(length).joined(separator: "/")) { return zone }
        }
        return nil
    }

    /// The offset of a wall-clock time in a database zone (in a gap or an overlap, the offset
    /// before the change).
    static func utcOffset(of time: LocalDateTime, in zone: TimeZone) -> Int {
        let wall = time.secondsSince1970
        let guess = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall)))
        return zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(wall - guess)))
    }

    fileprivate static func plainText(_ line: ContentLine) -> String {
        TextValue.unescaped(String(decoding: line.value, as: UTF8.self)).trimmingWhitespace
    }

    /// One `STANDARD` or `DAYLIGHT` part of a `VTIMEZONE`.
    private struct Observance {
        var start: LocalDateTime
        var offsetFrom: Int
        var offsetTo: Int
        var dates: [LocalDateTime]
        var rule: YearlyRule?

        init?(_ component: ICalendarComponent) {
            guard component.name == "STANDARD" || component.name == "DAYLIGHT",
                  let startText = component.property("DTSTART").map(plainText),
                  case .dateTime(let start, _)? = ICalendarDateTime.parse(startText),
                  let to = component.property("TZOFFSETTO").flatMap({ Observance.offset(plainText($0)) })
            else { return nil }
            self.start = start
            offsetTo = to
            offsetFrom = component.property("TZOFFSETFROM").flatMap { Observance.offset(plainText($0)) } ?? to
            dates = component.properties.filter { $0.name == "RDATE" }
                .flatMap { plainText($0).split(separator: ",") }
                .compactMap { text -> LocalDateTime? in
                    switch ICalendarDateTime.parse(String(text)) {
                    case .dateTime(let time, _)?: return time
                    case .date(let date)?: return LocalDateTime(year: date.year ?? 0, month: date.month, day: date.day)
                    case nil: return nil
                    }
                }
            rule = component.property("RRULE").flatMap { YearlyRule(plainText($0), start: start) }
        }

        /// The offset in force at a wall-clock time: that of the latest onset at or before it.
        static func offset(of time: LocalDateTime, in observances: [Observance]) -> Int? {
            var latest: (onset: LocalDateTime, offset: Int)?
            for observance in observances {
                var onsets = [observance.start] + observance.dates
                if let rule = observance.rule {
                    for year in (time.year - 1)...time.year { onsets += rule.onsets(in: year) }
                }
                for onset in onsets where onset <= time && onset >= observance.start {
                    if latest == nil || onset > latest!.onset { latest = (onset, observance.offsetTo) }
                }
            }
            if let latest { return latest.offset }
            return observances.min { $0.start < $1.start }?.offsetFrom
        }

        /// `+0100`, `-0500`, `+013045` in seconds.
        static func offset(_ text: String) -> Int? {
            guard let sign = text.first, sign == "+" || sign == "-" else { return nil }
            let digits = text.dropFirst()
            guard digits.count == 4 || digits.count == 6, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let hours = Int(digits.prefix(2)), let minutes = Int(digits.dropFirst(2).prefix(2))
            else { return nil }
            let seconds = digits.count == 6 ? Int(digits.suffix(2)) ?? 0 : 0
            return (sign == "-" ? -1 : 1) * (hours * 3600 + minutes * 60 + seconds)
        }
    }

    /// A `FREQ=YEARLY` rule of a time zone observance.
    private struct YearlyRule {
        var start: LocalDateTime
        var month: Int
        var weekday: Int?
        var ordinal: Int?
        var monthDays: [Int]
        var until: LocalDateTime?
        var count: Int?

        private static let weekdays = ["SU": 0, "MO": 1, "TU": 2, "WE": 3, "TH": 4, "FR": 5, "SA": 6]

        init?(_ text: String, start: LocalDateTime) {
            var parts: [String: String] = [:]
            for piece in text.uppercased().split(separator: ";") {
                let pair = piece.split(separator: "=", maxSplits: 1)
                if pair.count == 2 { parts[String(pair[0])] = String(pair[1]) }
            }
            guard parts["FREQ"] == "YEARLY" else { return nil }
            self.start = start
            month = parts["BYMONTH"].flatMap { Int($0) } ?? start.month
            monthDays = parts["BYMONTHDAY"].map { $0.split(separator: ",").compactMap { Int($0) } } ?? []
            if let byDay = parts["BYDAY"]?.split(separator: ",").first {
                guard let weekday = YearlyRule.weekdays[String(byDay.suffix(2))] else { return nil }
                self.weekday = weekday
                ordinal = Int(byDay.dropLast(2))
            }
            if let untilText = parts["UNTIL"] {
                switch ICalendarDateTime.parse(untilText) {
                case .dateTime(let time, _)?: until = time
                case .date(let date)?: until = LocalDateTime(year: date.year ?? 0, month: date.month, day: date.day,
                                                            hour: 23, minute: 59, second: 59)
                case nil: return nil
                }
            }
            count = parts["COUNT"].flatMap { Int($0) }
        }

        /// The onset in a year, at the start's time of day; none before the start or after the end.
        func onsets(in year: Int) -> [LocalDateTime] {
            guard year >= start.year else { return [] }
            if let count, year - start.year >= count { return [] }
            let length = PartialDate.daysIn(month: month, year: year)
            var days: [Int]
            if let weekday {
                let matching = (1...length).filter {
                    LocalDateTime.weekday(year: year, month: month, day: $0) == weekday
                }
                if !monthDays.isEmpty {
                    days = matching.filter(monthDays.contains)
                } else if let ordinal, ordinal != 0 {
                    let index = ordinal > 0 ? ordinal - 1 : matching.count + ordinal
                    days = matching.indices.contains(index) ? [matching[index]] : []
                } else {
                    days = matching
                }
            } else {
                days = monthDays.isEmpty ? [min(start.day, length)] : monthDays.filter { (1...length).contains($0) }
            }
            return days.map {
                LocalDateTime(year: year, month: month, day: $0, hour: start.hour, minute: start.minute,
                              second: start.second)
            }.filter { onset in until.map { onset <= $0 } ?? true }
        }
    }
}
