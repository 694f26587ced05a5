// What the system calls a build makes for every file cost on this machine: the floor under an
// unchanged build (a status for every store file and every output file) and under the reading
// part of `check` (an open, a status, a read and a close for every store file).
//
// Usage: syscall-bench FOLDER...  Each folder's plain files (not those of its subfolders) are
// looked at by name relative to the folder, as the build looks at them. Prints, for each
// folder, the median over five passes of the microseconds a file takes on one core, and of the
// seconds all the files take on every core (as the build spreads them: batches of 32 files
// taken in turn); and once the cost of a system call that does nothing (getppid). Two cores do
// not halve the time of one: the kernel's work on one folder's entries is shared.

import Dispatch
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `text` padded with spaces to `width` characters, on the left unless `left`.
func column(_ text: String, _ width: Int, left: Bool = false) -> String {
    let padding = String(repeating: " ", count: max(0, width - text.count))
    return left ? text + padding : padding + text
}

/// Microseconds since an arbitrary start.
func microseconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
}

/// The median of five passes of `pass`, in microseconds per item of `count`.
func median(_ count: Int, _ pass: () -> Void) -> Double {
    let times = (0..<5).map { _ -> Double in
        let start = microseconds()
        pass()
        return (microseconds() - start) / Double(max(count, 1))
    }
    return times.sorted()[2]
}

/// The median of five passes of `pass` on every core at once, in seconds: each core calls `pass`
/// with its number and the number of cores.
func medianOnEveryCore(_ pass: @Sendable (Int, Int) -> Void) -> Double {
    let cores = ProcessInfo.processInfo.activeProcessorCount
    let times = (0..<5).map { _ -> Double in
        let start = microseconds()
        DispatchQueue.concurrentPerform(iterations: cores) { core in pass(core, cores) }
        return (microseconds() - start) / 1e6
    }
    return times.sorted()[2]
}

/// The indices of `count` files a core takes of them: batches of 32, every `cores`th from its
/// own.
func batches(of count: Int, core: Int, cores: Int) -> [Range<Int>] {
    stride(from: core * 32, to: count, by: cores * 32).map { $0..<min($0 + 32, count) }
}

/// Opens, looks at, reads into `buffer` and closes the file `name` in the folder open as
/// `folder`, as `check` reads a store file.
func readFile(_ name: [CChar], in folder: Int32, into buffer: UnsafeMutableRawBufferPointer) {
    let file = openat(folder, name, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return }
    var info = stat()
    _ = fstat(file, &info)
    _ = Glibc.read(file, buffer.baseAddress, min(buffer.count, Int(info.st_size) + 1))
    close(file)
}

/// The names of the plain files in the folder open as `folder`, each a C string.
func plainFiles(in folder: Int32) -> [[CChar]] {
    guard let stream = fdopendir(dup(folder)) else { return [] }
    defer { closedir(stream) }
    var names: [[CChar]] = []
    while let entry = readdir(stream) {
        guard entry.pointee.d_type == UInt8(DT_REG) else { continue }
        let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
            tuple.withMemoryRebound(to: CChar.self, capacity: 256) {
                Array(UnsafeBufferPointer(start: $0, count: strlen($0) + 1))
            }
        }
        names.append(name)
    }
    return names
}

let folders = CommandLine.arguments.dropFirst()
if folders.isEmpty {
    print("usage: syscall-bench FOLDER...")
    exit(64)
}
let calls = 100_000
let nothing = median(calls) {
    for _ in 0..<calls { _ = getppid() }
}
print(
    column("folder", 40, left: true), column("files", 8), column("stat µs", 10),
    column("open+stat+read+close µs", 25), column("stat s, all cores", 19), column("read s, all cores", 19))
var buffer = [UInt8](repeating: 0, count: 1 << 20)
for path in folders {
    let folder = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard folder >= 0 else {
        print("cannot open \(path)")
        exit(1)
    }
    let names = plainFiles(in: folder)
    let status = median(names.count) {
        var info = stat()
        for name in names { _ = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) }
    }
    let read = median(names.count) {
        buffer.withUnsafeMutableBytes { buffer in
            for name in names { readFile(name, in: folder, into: buffer) }
        }
    }
    let statusEverywhere = medianOnEveryCore { core, cores in
        var info = stat()
        for batch in batches(of: names.count, core: core, cores: cores) {
            for index in batch { _ = fstatat(folder, names[index], &info, AT_SYMLINK_NOFOLLOW) }
        }
    }
    let readEverywhere = medianOnEveryCore { core, cores in
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        for batch in batches(of: names.count, core: core, cores: cores) {
            for index in batch { readFile(names[index], in: folder, into: buffer) }
        }
    }
    close(folder)
    print(
        column(String(path.suffix(40)), 40, left: true), column("\(names.count)", 8),
        column(String(format: "%.2f", status), 10), column(String(format: "%.2f", read), 25),
        column(String(format: "%.3f", statusEverywhere), 19),
        column(String(format: "%.3f", readEverywhere), 19))
}
print(String(format: "a system call that does nothing (getppid): %.2f µs", nothing))
