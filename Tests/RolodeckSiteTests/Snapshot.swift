import Foundation
import Testing
@testable import RolodeckTestSupport

/// Golden files under `Tests/RolodeckSiteTests/Snapshots/`. They are rewritten only when
/// `ROLODECK_RECORD_SNAPSHOTS=1` is set; otherwise a difference fails the test.
enum Snapshot {
    static let folder = Fixtures.packageRoot.appendingPathComponent("Tests/RolodeckSiteTests/Snapshots")
    static var recording: Bool { ProcessInfo.processInfo.environment["ROLODECK_RECORD_SNAPSHOTS"] == "1" }

    /// Compares `actual` with the golden file at `name`, or records it.
    static func assertMatches(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = folder.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(actual.utf8).write(to: url)
            return
        }
        guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
            Issue.record("missing snapshot \(name); run the tests with ROLODECK_RECORD_SNAPSHOTS=1 to record it",
                         sourceLocation: sourceLocation)
            return
        }
        if expected != actual {
            let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let first = zip(expectedLines, actualLines).enumerated().first { $1.0 != $1.1 }?.offset
                ?? min(expectedLines.count, actualLines.count)
            let want = first < expectedLines.count ? String(expectedLines[first]) : "<end of file>"
            let got = first < actualLines.count ? String(actualLines[first]) : "<end of file>"
            Issue.record("""
                \(name) differs from its snapshot at line \(first + 1):
                  expected: \(want)
                  actual:   \(got)
                (re-record on purpose with ROLODECK_RECORD_SNAPSHOTS=1)
                """, sourceLocation: sourceLocation)
        }
    }
}
