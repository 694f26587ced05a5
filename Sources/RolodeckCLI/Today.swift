import Foundation
import RolodeckCore

/// The date ages are computed for: `SOURCE_DATE_EPOCH` when set (reproducible builds), else
/// today in the local time zone.
enum Today {
    /// Reads the date, or says why `SOURCE_DATE_EPOCH` is unusable.
    static func resolve(_ environment: [String: String]) -> Result<PartialDate, DiagnosticError> {
        if let text = environment["SOURCE_DATE_EPOCH"], !text.isEmpty {
            guard let seconds = Int(text) else {
                return .failure(
                    DiagnosticError([
                        Diagnostic(
                            .error, at: nil,
                            "SOURCE_DATE_EPOCH \"\(text)\" is not a whole number of seconds since 1970-01-01")
                    ]))
            }
            return .success(PartialDate(daysSince1970: floorDivide(seconds, 86_400)))
        }
        let now = Date().timeIntervalSince1970 + Double(TimeZone.current.secondsFromGMT())
        return .success(PartialDate(daysSince1970: floorDivide(Int(now.rounded(.down)), 86_400)))
    }

    private static func floorDivide(_ value: Int, _ divisor: Int) -> Int {
        value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
    }
}
