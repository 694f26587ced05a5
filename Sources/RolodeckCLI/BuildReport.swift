import Foundation
import RolodeckBuild
import RolodeckCore
import RolodeckPublish

/// What `build`, `watch` and `serve` print of a build: its warnings, then one line saying what
/// it did and how long it took, or its errors and a closing line saying what became of the
/// output.
struct BuildReport {
    /// Where the report is printed.
    let console: Console
    /// Whether the line a good build ends with is left out. Warnings and errors are printed all
    /// the same: cron mails whatever a quiet build prints, and a warning is news to act on.
    var quiet = false

    /// Prints what `rolodeck build` did; returns the exit status.
    func build(_ result: BuildResult, since started: ContinuousClock.Instant) -> ExitCode {
        result.warnings.forEach(console.report)
        switch result.outcome {
        case .upToDate(let files):
            let time = Self.elapsed(since: started)
            if !quiet {
                let unchanged = Self.count(files, "file") + " unchanged"
                console.print("\(result.outputPath) is up to date (\(unchanged)) in \(time)")
            }
        case .published(let report):
            if !quiet { console.print(built(result, report, since: started)) }
        case .failed(let error):
            return fail(error)
        case .notPublished(let error):
            error.diagnostics.forEach(console.report)
            console.printError("error: build failed; \(result.outputPath) was left as it was")
            return .failure
        case .unchanged, .cancelled:
            break
        }
        return .success
    }

    /// Prints what one build of `watch` or `serve` did, if it did anything; `outputPath` is
    /// where the last good site is.
    func rebuild(_ result: BuildResult, since started: ContinuousClock.Instant, outputPath: String) {
        result.warnings.forEach(console.report)
        let changed = describe(result.changedInputs)
        switch result.outcome {
        case .unchanged, .cancelled, .upToDate:
            return
        case .published(let report) where result.changedInputs.isEmpty:
            console.print(built(result, report, since: started))
        case .published(let report):
            let whole = result.isWhole ? "whole site rebuilt, " : ""
            let written = Self.count(report.written, "file") + " written"
            let time = Self.elapsed(since: started)
            console.print("\(changed) changed: \(whole)\(written), \(report.removed) removed in \(time)")
        case .failed(let error), .notPublished(let error):
            let count = console.report(error)
            let what = result.changedInputs.isEmpty ? "build" : "rebuild after \(changed) changed"
            console.printError(
                "error: \(what) failed with \(Self.errors(count)); \(outputPath) was left as it was")
        }
    }

    /// Prints every diagnostic of input that stopped a build before anything was written, and
    /// the closing line; returns the failure status.
    func fail(_ error: DiagnosticError) -> ExitCode {
        let count = console.report(error)
        console.printError("error: build failed with \(Self.errors(count)); nothing was written")
        return .failure
    }

    /// "Built 79 contacts (1 hidden), 10 groups, 18 todos into _site: 96 written, 0 unchanged,
    /// 0 removed in 0.24 s".
    private func built(_ result: BuildResult, _ report: PublishReport, since started: ContinuousClock.Instant)
        -> String
    {
        let counts = result.counts
        let records = Self.records(counts)
        return "Built \(records) into \(result.outputPath): \(report.written) written, "
            + "\(report.unchanged) unchanged, \(report.removed) removed in \(Self.elapsed(since: started))"
    }

    /// What a site was built from, as the summary lines say it: "79 contacts (1 hidden),
    /// 1 group, 18 todos", "78 contacts (1 hidden, 1 private), 1 group (2 private), 17 todos
    /// (1 private)"; the contacts, groups and todos are those the site shows.
    static func records(_ counts: BuildResult.Counts) -> String {
        let leftOutAsPrivate = counts.leftOutAsPrivate
        var leftOut: [String] = []
        if counts.hidden > 0 { leftOut.append("\(counts.hidden) hidden") }
        if leftOutAsPrivate.contacts > 0 { leftOut.append("\(leftOutAsPrivate.contacts) private") }
        func privateOnes(_ count: Int) -> String { count > 0 ? " (\(count) private)" : "" }
        let apart = leftOut.isEmpty ? "" : " (" + leftOut.joined(separator: ", ") + ")"
        return count(counts.contacts, "contact") + apart + ", " + count(counts.groups, "group")
            + privateOnes(leftOutAsPrivate.groups) + ", " + count(counts.todos, "todo")
            + privateOnes(leftOutAsPrivate.todos)
    }

    /// "1 group", "10 groups", "0 groups".
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// "store/contacts.json", "a.vcf and b.vcf", "a.vcf, b.vcf and 998 more files".
    func describe(_ paths: [String]) -> String {
        switch paths.count {
        case 0: return "nothing"
        case 1: return paths[0]
        case 2: return paths[0] + " and " + paths[1]
        case 3: return paths[0] + ", " + paths[1] + " and " + paths[2]
        default: return paths[0] + ", " + paths[1] + " and \(paths.count - 2) more files"
        }
    }

    /// "1 error", "3 errors".
    private static func errors(_ count: Int) -> String {
        Self.count(count, "error")
    }

    /// "0.42 s".
    static func elapsed(since start: ContinuousClock.Instant) -> String {
        let elapsed = (ContinuousClock.now - start).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        return String(format: "%.2f s", seconds)
    }
}
