// What the system calls a build makes for every file cost on this machine, one core: the floor
// under an unchanged build (a status for every store file and every output file) and under the
// reading part of `check` (an open, a status, a read and a close for every store file).
//
// Usage: syscall-bench FOLDER...  Each folder's plain files (not those of its subfolders) are
// looked at by name relative to the folder, as the build looks at them. Prints, for each
// folder, the median over five passes of the microseconds a file takes, and once the cost of a
// system call that does nothing (getppid).

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
    column("open+stat+read+close µs", 25))
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
            for name in names {
                let file = openat(folder, name, O_RDONLY | O_CLOEXEC)
                guard file >= 0 else { continue }
                var info = stat()
                _ = fstat(file, &info)
                _ = Glibc.read(file, buffer.baseAddress, min(buffer.count, Int(info.st_size) + 1))
                close(file)
            }
        }
    }
    close(folder)
    print(
        column(String(path.suffix(40)), 40, left: true), column("\(names.count)", 8),
        column(String(format: "%.2f", status), 10), column(String(format: "%.2f", read), 25))
}
print(String(format: "a system call that does nothing (getppid): %.2f µs", nothing))
