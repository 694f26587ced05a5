import Synchronization
@testable import RolodeckCore

/// The bytes libFuzzer hands a target, and the invariants the targets check on what the
/// readers make of them.
///
/// A broken invariant traps, which libFuzzer reports as a crash and saves the input for, just
/// as it does a crash of the reader itself.
public enum FuzzInput {
    /// The `size` bytes at `data` as an array (libFuzzer may pass a null pointer for no bytes).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Traps with `message` unless `condition` holds.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: \(message())") }
    }

    /// How a format ends its lines.
    public enum LineEnds {
        /// JSON: a line feed ends a line (a carriage return before it is part of the line).
        case lineFeed
        /// vCard and iCalendar: CRLF, a lone CR or a lone LF, as their readers accept.
        case any
    }

    /// Checks that each diagnostic's location, when it has one, names `source` and a line and
    /// column inside it: a message pointing past the end of the file, or at a line it does
    /// not have, sends the user to the wrong place.
    public static func requireLocations(
        _ diagnostics: [Diagnostic], in source: SourceText, lineEnds: LineEnds = .lineFeed
    ) {
        for diagnostic in diagnostics {
            guard let location = diagnostic.location else { continue }
            requireInside(location, of: source, lineEnds: lineEnds, diagnostic.description)
        }
    }

    /// Checks that `location` names `source` and lies inside it: line 1 up to the number of
    /// lines, column 1 up to one past the line's last scalar.
    public static func requireInside(
        _ location: SourceLocation, of source: SourceText, lineEnds: LineEnds, _ what: String
    ) {
        require(location.path == source.path, "\(what): the path is not \(source.path)")
        let lines = FuzzInput.lines(of: source.bytes, lineEnds: lineEnds)
        require(location.line >= 1 && location.line <= lines.count, "\(what): line outside 1...\(lines.count)")
        guard location.line >= 1 && location.line <= lines.count else { return }
        let scalars = source.bytes[lines[location.line - 1]].count { $0 & 0xC0 != 0x80 }
        require(
            location.column >= 1 && location.column <= scalars + 1,
            "\(what): column outside 1...\(scalars + 1)")
    }

    /// The byte ranges of the lines of `bytes`, without their line ends.
    public static func lines(of bytes: [UInt8], lineEnds: LineEnds = .lineFeed) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            switch (bytes[index], lineEnds) {
            case (0x0A, _):
                lines.append(start..<index)
                start = index + 1
            case (0x0D, .any):
                lines.append(start..<index)
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                start = index + 1
            default:
                break
            }
            index += 1
        }
        lines.append(start..<bytes.count)
        return lines
    }
}

/// libFuzzer's hook, called once before the first input: what the readers would free on a thread
/// of its own is freed before the input's run ends, so that LeakSanitizer, which libFuzzer runs
/// after an input, never finds it still held by a thread that has not yet run.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    ParallelWork.releasesAlongside.store(false, ordering: .relaxed)
    return 0
}
