// Times each byte kernel against the plain Swift it stands in for, on the input sizes a build
// sees, and prints the medians and their ratio (docs/performance.md, "Byte kernels").
//
// Usage: kernel-bench [--rounds N] [--passes N] [--only NAME] [--variant kernel|plain]
//   --rounds   timed rounds of each variant, alternating (median reported; default 15)
//   --passes   passes over the 100,000 inputs per round (default 10)
//   --only     the benchmarks whose name contains NAME
//   --variant  runs only that side once, untimed: for counting instructions with callgrind

import ByteKernels

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

nonisolated(unsafe) var exitCode: Int32 = 0
var rounds = 15, passes = 10
var only: String?
var variant: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--rounds": rounds = Int(arguments.next() ?? "") ?? rounds
    case "--passes": passes = Int(arguments.next() ?? "") ?? passes
    case "--only": only = arguments.next()
    case "--variant": variant = arguments.next()
    default:
        print("unknown argument \(argument)")
        exitCode = 64
    }
}

let operations = 100_000
let inputs = Inputs(runs: operations)
let selected = benchmarks.filter { only == nil || $0.name.contains(only ?? "") }
// Made outside every timed round.
_ = otherKeys(inputs)
_ = sortedUnits(inputs)

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The median time of one operation, in nanoseconds, of timings of `passes` passes each.
func median(_ times: [Duration], passes: Int) -> Double {
    seconds(times.sorted()[times.count / 2]) * 1e9 / Double(passes * operations)
}

if exitCode == 0, let variant {
    // One pass of one side: `valgrind --tool=callgrind kernel-bench --only X --variant kernel`
    // minus the same with `--passes 0` is the instruction count of 100,000 operations.
    for benchmark in selected {
        var checksum = 0
        for _ in 0..<passes {
            checksum &+= variant == "plain" ? benchmark.plain(inputs) : benchmark.kernel(inputs)
        }
        print("\(benchmark.name) \(variant): checksum \(checksum)")
    }
} else if exitCode == 0 {
    let clock = ContinuousClock()
    print("\(operations) operations a pass, \(passes) passes a round, median of \(rounds) rounds")
    let header = [
        "kernel".padding(30), "sizes".padding(11), "kernel ns".padding(10, left: true),
        "plain ns".padding(10, left: true), "ratio".padding(7, left: true), "  plain",
    ]
    print(header.joined())
    for benchmark in selected {
        let expected = benchmark.plain(inputs)
        guard benchmark.kernel(inputs) == expected else {
            print("\(benchmark.name): the kernel and the plain version disagree")
            exitCode = 1
            continue
        }
        var kernelTimes: [Duration] = [], plainTimes: [Duration] = []
        // The sums keep the work from being optimized away, and must agree.
        var kernelSum = 0, plainSum = 0
        for _ in 0..<rounds {
            kernelTimes.append(
                clock.measure { for _ in 0..<passes { kernelSum &+= benchmark.kernel(inputs) } })
            plainTimes.append(clock.measure { for _ in 0..<passes { plainSum &+= benchmark.plain(inputs) } })
        }
        if kernelSum != plainSum {
            print("\(benchmark.name): the kernel and the plain version disagree")
            exitCode = 1
        }
        let kernel = median(kernelTimes, passes: passes), plain = median(plainTimes, passes: passes)
        let row = [
            benchmark.name.padding(30), benchmark.sizes.padding(11), format(kernel).padding(10, left: true),
            format(plain).padding(10, left: true), (format(kernel / plain) + "×").padding(7, left: true),
            "  " + benchmark.plainName,
        ]
        print(row.joined())
    }
}
exit(exitCode)

/// Two decimals.
func format(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100)." + (fraction < 10 ? "0" : "") + "\(fraction)"
}

extension String {
    /// The string padded with spaces to `width` characters, on the right or the left.
    func padding(_ width: Int, left: Bool = false) -> String {
        let pad = String(repeating: " ", count: Swift.max(0, width - count))
        return left ? pad + self : self + pad
    }
}
