import Mustache

// Compiles the benchmark templates once and renders the page many times, each with its own context.
// Pass `--sample` to print one rendered page instead.

/// How many pages a run renders.
let renderCount = 100_000
/// How many runs are timed; `--once` times one.
let runCount = CommandLine.arguments.contains("--once") ? 1 : 5
/// How many contexts are built, outside the timed part, before they are rendered.
let batchSize = 1_000

/// A duration in seconds.
func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// Renders `renderCount` pages `runCount` times and prints the time a page takes.
func benchmark(_ library: TemplateLibrary) throws {
    let clock = ContinuousClock()
    var runs: [Duration] = []
    var checksum = 0
    for run in 1...runCount {
        var elapsed = Duration.zero
        for batchStart in stride(from: 0, to: renderCount, by: batchSize) {
            // Contexts are built outside the timed part; every render gets a different one.
            let contexts = (batchStart..<batchStart + batchSize).map(BenchTemplates.context)
            elapsed += try clock.measure {
                for context in contexts {
                    checksum &+= try library.render("page", context).utf8.count
                }
            }
        }
        runs.append(elapsed)
        print("run \(run): \(seconds(elapsed)) s")
    }
    let median = seconds(runs.sorted()[runCount / 2])
    print("renders per run: \(renderCount), runs: \(runCount), output checksum: \(checksum)")
    print(
        "median of \(runCount) runs: \(median) s total, \(median * 1e6 / Double(renderCount)) µs per render")
}

do {
    let library = try TemplateLibrary(templates: BenchTemplates.all, options: .strict)
    let sample = try library.render("page", BenchTemplates.context(0))
    if CommandLine.arguments.contains("--sample") {
        print(sample, terminator: "")
    } else {
        print("one render: \(sample.utf8.count) bytes")
        try benchmark(library)
    }
} catch {
    print("error: \(error)")
}
