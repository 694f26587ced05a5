import Synchronization

/// A file's bytes with the means to turn a byte offset into a line and column.
///
/// Line starts are found once, when the first location is asked for; most files never need it.
public final class SourceText: Sendable {
    /// The path printed in locations.
    public let path: String
    /// The raw bytes of the file.
    public let bytes: [UInt8]
    private let lineStarts = Mutex<[Int]?>(nil)

    /// Wraps a file's bytes.
    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.bytes = bytes
    }

    /// Wraps a string (tests and in-memory sites).
    convenience init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The location of a byte offset: 1-based line, and column counted in Unicode scalars.
    public func location(at offset: Int) -> SourceLocation {
        let starts = lineStartOffsets()
        let clamped = min(max(offset, 0), bytes.count)
        // The last line start at or before the offset, by binary search: the starts are sorted.
        var low = 0
        var high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= clamped { low = mid } else { high = mid - 1 }
        }
        var start = starts[low]
        if low == 0, bytes.starts(with: [0xEF, 0xBB, 0xBF]), clamped >= 3 { start = 3 }
        var column = 1
        var index = start
        while index < clamped {
            // Continuation bytes (10xxxxxx) belong to the scalar before them.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(path: path, line: low + 1, column: column)
    }

    /// The location of a file as a whole (line 1, column 1).
    public var start: SourceLocation { SourceLocation(path: path, line: 1, column: 1) }

    private func lineStartOffsets() -> [Int] {
        lineStarts.withLock { cached in
            if let cached { return cached }
            var starts = [0]
            for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
                starts.append(index + 1)
            }
            cached = starts
            return starts
        }
    }
}
