/// The UTF-8 bytes of many paths in one buffer, and the order that sorts them by those bytes,
/// as the output manifest lists them (and as the store's walk sorts ASCII paths).
///
/// A build sorts every file's path once, after its last page, while the other core has nothing
/// to do, so the sort is on the build's critical path. The paths are sorted by 8 bytes at a
/// time, packed in an integer (a most-significant-digit radix sort), so most steps compare two
/// integers, not two `String`s or two runs of bytes; from `parallelCount` paths on, on two
/// cores.
public struct PathBytes: Sendable {
    /// Every path's bytes, one after the other.
    public private(set) var bytes: [UInt8] = []
    /// Where each path starts in `bytes`, and one more: where the last one ends.
    public private(set) var starts: [Int] = [0]

    /// Collects the paths' bytes.
    public init<Paths: Collection<String>>(_ paths: Paths) {
        starts.reserveCapacity(paths.count + 1)
        bytes.reserveCapacity(paths.count * 32)
        for path in paths {
            bytes += path.utf8
            starts.append(bytes.count)
        }
    }

    /// No paths, to `append` to.
    public init() {}

    /// How many paths there are.
    public var count: Int { starts.count - 1 }

    /// Adds a path's bytes after the others.
    public mutating func append(_ path: [UInt8]) {
        bytes += path
        starts.append(bytes.count)
    }

    /// The paths at `positions`, in that order, as `String`s, made on every core from
    /// `parallelCount` paths on (a path's bytes that are not UTF-8 are shown as U+FFFD).
    public func strings(at positions: [Int]) -> [String] {
        guard positions.count >= Self.parallelCount else { return positions.map(string) }
        return ParallelWork.map(positions.count, batch: 1024) { string(at: positions[$0]) }
    }

    /// The path at `position` as a `String`.
    public func string(at position: Int) -> String {
        bytes.withUnsafeBufferPointer { bytes in
            let path = UnsafeBufferPointer(rebasing: bytes[starts[position]..<starts[position + 1]])
            return String(decoding: path, as: UTF8.self)
        }
    }

    /// The positions of the paths, sorted by their bytes (a path before the longer ones it
    /// begins). Paths that are equal come in no particular order.
    public func sortedOrder() -> [Int] {
        let count = starts.count - 1
        // A build's paths: each half sorted on a core of its own, then merged, which is
        // cheaper than the sort (the other core has nothing else to do by then).
        guard count >= Self.parallelCount else { return sortedOrder(of: 0..<count) }
        let halves = [0..<count / 2, count / 2..<count]
        let sorted = ParallelWork.map(2, batch: 1) { sortedOrder(of: halves[$0]) }
        return merged(sorted[0], sorted[1])
    }

    /// From how many paths on `sortedOrder` sorts on two cores.
    public static let parallelCount = 8192

    /// The positions in `positions`, sorted by their paths' bytes.
    private func sortedOrder(of positions: Range<Int>) -> [Int] {
        var order = Array(positions)
        guard order.count > 1 else { return order }
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                order.withUnsafeMutableBufferPointer { order in
                    var keyed: [(key: UInt64, path: Int)] = []
                    keyed.reserveCapacity(order.count)
                    Self.sort(order[...], from: 0, bytes: bytes, starts: starts, keyed: &keyed)
                }
            }
        }
        return order
    }

    /// Two sorted orders as one.
    private func merged(_ first: [Int], _ second: [Int]) -> [Int] {
        var order: [Int] = []
        order.reserveCapacity(first.count + second.count)
        bytes.withUnsafeBufferPointer { bytes in
            starts.withUnsafeBufferPointer { starts in
                var (left, right) = (0, 0)
                while left < first.count, right < second.count {
                    if Self.precedes(second[right], first[left], bytes: bytes, starts: starts) {
                        order.append(second[right])
                        right += 1
                    } else {
                        order.append(first[left])
                        left += 1
                    }
                }
                order += first[left...]
                order += second[right...]
            }
        }
        return order
    }

    /// Whether path `left` sorts before path `right`.
    private static func precedes(
        _ left: Int, _ right: Int, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int>
    ) -> Bool {
        var depth = 0
        while true {
            let leftKey = key(of: left, at: depth, bytes: bytes, starts: starts)
            let rightKey = key(of: right, at: depth, bytes: bytes, starts: starts)
            // Equal keys with a 0 in them: both paths ended, and are equal.
            if leftKey != rightKey || leftKey & 0xFF == 0 { return leftKey < rightKey }
            depth += 8
        }
    }

    /// Sorts `order`'s paths, which share their first `depth` bytes, by the bytes after those;
    /// `keyed` is scratch space.
    private static func sort(
        _ order: Slice<UnsafeMutableBufferPointer<Int>>, from depth: Int, bytes: UnsafeBufferPointer<UInt8>,
        starts: UnsafeBufferPointer<Int>, keyed: inout [(key: UInt64, path: Int)]
    ) {
        keyed.removeAll(keepingCapacity: true)
        for path in order {
            keyed.append((key(of: path, at: depth, bytes: bytes, starts: starts), path))
        }
        keyed.sort { $0.key < $1.key }
        var position = order.startIndex
        for entry in keyed {
            order.base[position] = entry.path
            position += 1
        }
        // Runs of paths with the same 8 bytes are sorted by the next 8, unless those bytes
        // ended the paths (paths have no NUL byte: a 0 in the key is past a path's end).
        var runStart = order.startIndex
        var runs: [Range<Int>] = []
        for index in order.indices.dropFirst() {
            let offset = index - order.startIndex
            if keyed[offset].key != keyed[offset - 1].key {
                if index - runStart > 1, keyed[offset - 1].key & 0xFF != 0 { runs.append(runStart..<index) }
                runStart = index
            }
        }
        if order.endIndex - runStart > 1, keyed[keyed.count - 1].key & 0xFF != 0 {
            runs.append(runStart..<order.endIndex)
        }
        for run in runs {
            sort(order.base[run], from: depth + 8, bytes: bytes, starts: starts, keyed: &keyed)
        }
    }

    /// The 8 bytes of a path from `depth` on, the first the most significant, 0 past its end.
    @inline(__always)
    private static func key(
        of path: Int, at depth: Int, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int>
    ) -> UInt64 {
        let start = starts[path] + depth
        let end = starts[path + 1]
        var key: UInt64 = 0
        if end - start >= 8 {
            let raw = UnsafeRawBufferPointer(bytes)
            key = UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: start, as: UInt64.self))
        } else if start < end {
            for offset in 0..<(end - start) {
                key |= UInt64(bytes[start + offset]) << (56 - 8 * offset)
            }
        }
        return key
    }
}
