import Foundation
import Synchronization
import Testing
@testable import RolodeckBuild
@testable import RolodeckCore
@testable import RolodeckPublish
@testable import RolodeckTestSupport

/// What `SiteBuild.build` tells its caller as it goes, and how the caller stops it.
@Suite struct SiteBuildProgressTests {
    /// The steps heard, in order.
    final class Heard: Sendable {
        private let steps = Mutex<[BuildProgress]>([])
        func append(_ step: BuildProgress) { steps.withLock { $0.append(step) } }
        var all: [BuildProgress] { steps.withLock { $0 } }
    }

    /// A step's name, without its counts.
    static func name(_ step: BuildProgress) -> String {
        switch step {
        case .reading: "reading"
        case .decoding: "decoding"
        case .sorting: "sorting"
        case .waiting: "waiting"
        case .rendering: "rendering"
        case .publishing: "publishing"
        }
    }

    @Test func everyStepIsHeardInOrderFromTheFirst() throws {
        let (_, out, build) = try SiteBuildTests.demo()
        let heard = Heard()
        let result = build.build(today: SiteBuildTests.today, progress: { heard.append($0) })
        guard case .published(let report) = result.outcome else {
            Issue.record("the build did not publish: \(result.outcome)")
            return
        }
        var names: [String] = []
        for step in heard.all where names.last != Self.name(step) { names.append(Self.name(step)) }
        #expect(names == ["reading", "decoding", "sorting", "rendering", "publishing"])
        #expect(heard.all.contains(.sorting(contacts: 80)))
        // Every file but the manifest, which is written after the pages.
        #expect(heard.all.last == .publishing(files: report.written - 1))
        #expect(try SiteBuildTests.files(out).count == report.written - 1)
    }

    /// An output with nothing to do is told from the statuses alone: reading is the only step.
    @Test func anUpToDateBuildOnlyReads() throws {
        let (_, _, build) = try SiteBuildTests.demo()
        build.settleMargin = 0
        _ = build.build(today: SiteBuildTests.today)
        let heard = Heard()
        guard case .upToDate = build.build(today: SiteBuildTests.today, progress: { heard.append($0) }).outcome else {
            Issue.record("the second build was not up to date")
            return
        }
        #expect(heard.all == [.reading])
    }

    /// A stop asked for at any step ends the build `.cancelled`, with the output as it was and
    /// nothing beside it; `willWrite` is heard only by builds that got as far as writing.
    @Test(arguments: ["reading", "decoding", "sorting", "rendering", "publishing"])
    func aStopAtAnyStepLeavesTheOutputAsItWas(_ step: String) throws {
        let (site, out, build) = try SiteBuildTests.demo()
        _ = build.build(today: SiteBuildTests.today)
        let before = try SiteBuildTests.files(out)
        try Data(#"{"title": "Stopped"}"#.utf8).write(to: site.appendingPathComponent("rolodeck.json"))
        let stop = Atomic(false)
        let wrote = Atomic(false)
        let control = PublishControl(
            willWrite: { wrote.store(true, ordering: .relaxed) }, isCancelled: { stop.load(ordering: .relaxed) })
        let result = build.build(
            today: SiteBuildTests.today,
            progress: { if Self.name($0) == step { stop.store(true, ordering: .relaxed) } }, control: control)
        guard case .cancelled = result.outcome else {
            Issue.record("stopped while \(step): \(result.outcome)")
            return
        }
        #expect(try SiteBuildTests.files(out) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).sorted()
                == ["out", "site"])
        #expect(wrote.load(ordering: .relaxed) == ["rendering", "publishing"].contains(step))
    }
}
