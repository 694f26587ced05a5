// What decoding a store costs without the file system: the part of `check` and of a cold
// build that turns the files' bytes into contacts, timed apart from reading them, whose cost
// the kernel sets and the host's load moves.
//
// Usage: decode-bench FOLDER [RUNS]. FOLDER's plain files are read once: `.vcf` files as vCard
// files of a vdir, `.json` files as one contact each (as in `store/contacts/`). Then the store
// is decoded RUNS times (7 unless given), on every core as a build decodes it, after one run
// that is not counted. Prints each run's wall and CPU time (user and system, of the whole
// process), then the median and the least of each, and the CPU microseconds a file takes.

import Foundation
import RolodeckCore
import RolodeckStore

#if canImport(Glibc)
    import Glibc
#endif

/// Seconds since an arbitrary start.
func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The CPU seconds the process has taken, user and system.
func processCPU() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

let arguments = CommandLine.arguments
guard arguments.count >= 2, let runs = arguments.count > 2 ? Int(arguments[2]) : 7, runs > 0 else {
    FileHandle.standardError.write(Data("usage: decode-bench FOLDER [RUNS]\n".utf8))
    exit(2)
}
let folder = URL(fileURLWithPath: arguments[1])
let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
var files: [StoreFile] = []
for name in names where name.hasSuffix(".vcf") || name.hasSuffix(".json") {
    let path = folder.appendingPathComponent(name).path
    guard let data = FileManager.default.contents(atPath: path) else { continue }
    let source = SourceText(path: "store/" + folder.lastPathComponent + "/" + name, bytes: [UInt8](data))
    files.append(
        name.hasSuffix(".vcf") ? .vCard(source) : StoreFile(kind: .contact, layout: .single, source: source))
}
guard !files.isEmpty else {
    FileHandle.standardError.write(Data("decode-bench: no .vcf or .json files in \(folder.path)\n".utf8))
    exit(1)
}

var walls: [Double] = []
var cpus: [Double] = []
var contacts = 0
for run in 0...runs {
    let (wallStart, cpuStart) = (now(), processCPU())
    let decoded = StoreDecoder.decode(files)
    let (wall, cpu) = (now() - wallStart, processCPU() - cpuStart)
    contacts = decoded.store.contacts.count
    guard run > 0 else { continue }
    walls.append(wall)
    cpus.append(cpu)
    print(String(format: "run %d: wall %.3f s, cpu %.3f s", run, wall, cpu))
}
let (sortedWalls, sortedCPUs) = (walls.sorted(), cpus.sorted())
print(
    String(
        format: "%d files, %d contacts: wall median %.3f s (least %.3f), cpu median %.3f s (least %.3f), "
            + "%.2f µs cpu a file",
        files.count, contacts, sortedWalls[runs / 2], sortedWalls[0], sortedCPUs[runs / 2], sortedCPUs[0],
        sortedCPUs[runs / 2] / Double(files.count) * 1e6))
