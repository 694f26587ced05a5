import Foundation
import RolodeckCore

/// The "last updated" date of a site: the day its store last changed, or the day
/// `SOURCE_DATE_EPOCH` names when it is set, so that a reproducible build does not depend on
/// when the files were copied.
enum LastUpdated {
    /// `SOURCE_DATE_EPOCH` from the environment, when it is a whole number of seconds. (The
    /// command checks it is, before any build: `Today`.)
    static func sourceDateEpoch(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Int?
    {
        environment["SOURCE_DATE_EPOCH"].flatMap { Int($0) }
    }

    /// The day: `SOURCE_DATE_EPOCH`'s in UTC, as the command takes today from it; else the
    /// store's newest file's in the local time zone, as the command takes today from the clock;
    /// nil when neither is known.
    static func day(storeModified: Int64?, sourceDateEpoch: Int?) -> PartialDate? {
        if let sourceDateEpoch { return PartialDate(daysSince1970: floorDivide(sourceDateEpoch, 86_400)) }
        guard let storeModified else { return nil }
        let seconds = Int(floorDivide(Int(storeModified), 1_000_000_000))
        let local =
            seconds + TimeZone.current.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))
        return PartialDate(daysSince1970: floorDivide(local, 86_400))
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
