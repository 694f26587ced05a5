import Foundation

extension DueDate {
    /// The same moment as wall-clock time in `zone`; a date, or a time written without a zone,
    /// stays as it is.
    func converted(to zone: TimeZone) -> DueDate {
        guard let offset = utcOffset, let hour, let minute, let year = date.year else { return self }
        let written = LocalDateTime(year: year, month: date.month, day: date.day, hour: hour, minute: minute)
        let instant = written.secondsSince1970 - offset
        let target = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant)))
        let local = LocalDateTime(secondsSince1970: instant + target)
        return DueDate(date: local.date, hour: local.hour, minute: local.minute, utcOffset: target)
    }
}
