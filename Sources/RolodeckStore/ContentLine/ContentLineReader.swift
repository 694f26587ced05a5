import Foundation
import RolodeckCore

/// Splits a vCard or iCalendar file into unfolded content lines, as leniently as real exports
/// need: a byte-order mark (UTF-8, or UTF-16 which is converted), CRLF, LF or CR line ends,
/// folding by the RFCs or by vCard 2.1 (which keeps the folding whitespace), quoted-printable
/// soft line breaks (a value ending in `=` continues on the next line, which has no leading
/// space), and base64 data written on lines of its own, ended by a blank line, as vCard 2.1 does.
///
/// A line that is not a property is reported and skipped; the rest of the file is still read.
struct ContentLineReader {
    /// A line of the file: its bytes are `bytes[start..<end]`, without the line break.
    private struct PhysicalLine {
        var start: Int
        var end: Int
    }

    /// The file's bytes (UTF-16 files converted to UTF-8).
    let bytes: [UInt8]
    /// The path used in locations.
    let path: String
    /// Whether folded lines keep their leading whitespace (vCard 2.1) instead of losing one
    /// space or tab (vCard 3.0 and 4.0, iCalendar). The vCard reader sets it per card.
    var keepsFoldWhitespace = false
    /// Problems found so far.
    private(set) var diagnostics: [Diagnostic] = []
    private let lines: [PhysicalLine]
    private var index = 0
    private var skippedLines = 0
    private var firstUnreported: SourceLocation?
    /// Lines that are not properties are reported one by one up to this many per file.
    private static let reportedSkipLimit = 10

    /// Prepares to read a file.
    init(source: SourceText) {
        path = source.path
        bytes = ContentLineReader.utf8Bytes(source.bytes)
        lines = ContentLineReader.physicalLines(bytes)
    }

    /// The next property, or nil at the end of the file.
    mutating func next() -> ContentLine? {
        while index < lines.count {
            let first = index
            index += 1
            guard let start = firstNonBlank(lines[first]) else { continue }
            var line = LogicalLine(bytes[start..<lines[first].end], physicalStart: start, line: first)
            readContinuations(of: &line)
            guard let header = line.header else {
                reportSkipped(at: location(of: 0, in: line.segments))
                continue
            }
            return ContentLine(
                group: header.group, name: header.name, parameters: header.parameters,
                value: Array(line.bytes[(header.colon + 1)...]),
                location: SourceLocation(path: path, line: first + 1, column: 1),
                valueLocation: location(of: header.colon + 1, in: line.segments))
        }
        reportLinesSkippedPastTheLimit()
        return nil
    }

    /// A property's line as it is unfolded: its bytes, the pieces of physical lines they came
    /// from, and its header as soon as the bytes have one.
    /// Its functions, and `readContinuations`, are inlined into `next`, which every line of a file
    /// passes through.
    private struct LogicalLine {
        /// The unfolded bytes.
        var bytes: [UInt8]
        /// Where each piece of `bytes` came from, in order.
        var segments: [Segment]
        /// The name, parameters and colon, once the bytes have them.
        private(set) var header: ContentLineHeader?
        /// The header's value encoding, looked up once.
        private(set) var encoding: ContentLine.Encoding?

        /// Starts a logical line with the part of a physical line from `physicalStart` on.
        @inline(__always)
        init(_ piece: ArraySlice<UInt8>, physicalStart: Int, line: Int) {
            bytes = Array(piece)
            segments = [Segment(logicalStart: 0, physicalStart: physicalStart, line: line)]
            findHeader()
        }

        /// Adds the part of a physical line from `physicalStart` on.
        @inline(__always)
        mutating func append(_ piece: ArraySlice<UInt8>, physicalStart: Int, line: Int) {
            segments.append(Segment(logicalStart: bytes.count, physicalStart: physicalStart, line: line))
            bytes += piece
        }

        /// Reads the header, if the bytes have one and it is not read yet.
        @inline(__always)
        mutating func findHeader() {
            guard header == nil else { return }
            header = ContentLineHeader(bytes)
            encoding = header?.encoding
        }
    }

    /// How the physical line after a logical line goes on with it.
    private enum Continuation {
        /// After a quoted-printable soft line break (a value ending in `=`): the whole line,
        /// whatever it starts with, in place of the `=`.
        case softBreak
        /// A folded line, without the space or tab it starts with (with it, in vCard 2.1).
        case fold
        /// A line of vCard 2.1 base64 data.
        case base64Data
        /// The blank line that ends vCard 2.1 base64 data; it is passed over.
        case base64End
    }

    /// Adds the physical lines that go on with a logical line to it.
    @inline(__always)
    private mutating func readContinuations(of line: inout LogicalLine) {
        while index < lines.count,
            let way = continuation(at: lines[index], after: line.encoding, endingIn: line.bytes.last)
        {
            let next = lines[index]
            let number = index
            index += 1
            switch way {
            case .softBreak:
                line.bytes.removeLast()
                line.append(bytes[next.start..<next.end], physicalStart: next.start, line: number)
            case .fold:
                let start = next.start + (keepsFoldWhitespace ? 0 : 1)
                line.append(bytes[start..<next.end], physicalStart: start, line: number)
                line.findHeader()
            case .base64Data:
                line.append(bytes[next.start..<next.end], physicalStart: next.start, line: number)
            case .base64End:
                return
            }
        }
    }

    /// How `next` goes on with the logical line before it, whose value has `encoding` and whose
    /// last byte is `last`; nil when it begins a line of its own.
    private func continuation(
        at next: PhysicalLine, after encoding: ContentLine.Encoding?, endingIn last: UInt8?
    )
        -> Continuation?
    {
        let isEmpty = next.start == next.end
        if encoding == .quotedPrintable, last == UInt8(ascii: "="), !isEmpty, !startsWithEnd(next) {
            return .softBreak
        }
        if !isEmpty, bytes[next.start] == 0x20 || bytes[next.start] == 0x09 { return .fold }
        if encoding == .base64 {
            if isEmpty { return .base64End }
            if isBase64Only(next) { return .base64Data }
        }
        return nil
    }

    /// Where a line's text starts after its leading spaces and tabs; nil for a blank line.
    private func firstNonBlank(_ line: PhysicalLine) -> Int? {
        var start = line.start
        while start < line.end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        return start == line.end ? nil : start
    }

    /// The value of the first `VERSION` property from the next line up to `END:<component>` (or
    /// the next `BEGIN:<component>`, when the end is missing), looked up before the lines are
    /// unfolded, since unfolding depends on it.
    func peekVersion(until component: String) -> String? {
        peek(until: component) { text in
            guard hasPrefix(text, Array("VERSION:".utf8)) else { return nil }
            return String(decoding: text.dropFirst(8), as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Whether any line up to `END:<component>` has a parameter only vCard 2.1 writes
    /// (quoted-printable or `CHARSET`), for a card that does not say its version.
    func peekLooksLikeVersion21(until component: String) -> Bool {
        let found: Bool? = peek(until: component) { text in
            guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return nil }
            let head = String(decoding: text[..<colon], as: UTF8.self).uppercased()
            return head.contains("QUOTED-PRINTABLE") || head.contains("CHARSET=") ? true : nil
        }
        return found ?? false
    }

    /// The first answer `look` gives for a raw (still folded) line from the next one up to
    /// `END:<component>` or the next `BEGIN:<component>`, without moving on.
    private func peek<Answer>(until component: String, _ look: (ArraySlice<UInt8>) -> Answer?) -> Answer? {
        let end = Array("END:\(component)".utf8), begin = Array("BEGIN:\(component)".utf8)
        var position = index
        while position < lines.count {
            let line = lines[position]
            let text = bytes[line.start..<line.end]
            if hasPrefix(text, end) || hasPrefix(text, begin) { return nil }
            if let answer = look(text) { return answer }
            position += 1
        }
        return nil
    }

    /// Records a problem with a property.
    mutating func report(_ reason: ContentLineIssue.Reason, at location: SourceLocation) {
        diagnostics.append(ContentLineIssue.warning(reason, at: location))
    }

    // MARK: - Lines and locations

    /// A piece of an unfolded line and where it came from.
    private struct Segment {
        var logicalStart: Int
        var physicalStart: Int
        var line: Int
    }

    /// Reports a line that is not a property, one by one up to the limit, then only where the
    /// first unreported one is.
    private mutating func reportSkipped(at location: SourceLocation) {
        skippedLines += 1
        if skippedLines <= Self.reportedSkipLimit {
            report(.notAProperty, at: location)
        } else if firstUnreported == nil {
            firstUnreported = location
        }
    }

    /// Says at the end of the file how many lines past the limit were skipped, and starts the
    /// count again.
    private mutating func reportLinesSkippedPastTheLimit() {
        if skippedLines > Self.reportedSkipLimit, let firstUnreported {
            report(.moreLinesSkipped(skippedLines - Self.reportedSkipLimit), at: firstUnreported)
        }
        skippedLines = 0
        firstUnreported = nil
    }

    /// The location of a byte of the unfolded line, in the physical line it came from.
    private func location(of logicalIndex: Int, in segments: [Segment]) -> SourceLocation {
        let segment = segments.last { $0.logicalStart <= logicalIndex } ?? segments[0]
        let line = lines[segment.line]
        let offset = min(segment.physicalStart + (logicalIndex - segment.logicalStart), line.end)
        var column = 1
        var position = line.start
        while position < offset {
            // Continuation bytes (10xxxxxx) belong to the character before them.
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        return SourceLocation(path: path, line: segment.line + 1, column: column)
    }

    private func startsWithEnd(_ line: PhysicalLine) -> Bool {
        hasPrefix(bytes[line.start..<line.end], Array("END:".utf8))
    }

    private func isBase64Only(_ line: PhysicalLine) -> Bool {
        bytes[line.start..<line.end].allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "/"),
                UInt8(ascii: "="),
                0x20, 0x09:
                return true
            default:
                return false
            }
        }
    }

    /// Whether `text` starts with `prefix`, ignoring ASCII case.
    private func hasPrefix(_ text: ArraySlice<UInt8>, _ prefix: [UInt8]) -> Bool {
        guard text.count >= prefix.count else { return false }
        return zip(text, prefix).allSatisfy { lhs, rhs in
            lhs == rhs || (lhs >= 0x61 && lhs <= 0x7A && lhs - 0x20 == rhs)
        }
    }

    /// The bytes as UTF-8: a UTF-8 byte-order mark stays (locations skip it), UTF-16 is converted.
    private static func utf8Bytes(_ bytes: [UInt8]) -> [UInt8] {
        let encoding: String.Encoding
        if bytes.starts(with: [0xFF, 0xFE]) {
            encoding = .utf16LittleEndian
        } else if bytes.starts(with: [0xFE, 0xFF]) {
            encoding = .utf16BigEndian
        } else {
            return bytes
        }
        guard let text = String(bytes: bytes.dropFirst(2), encoding: encoding) else { return bytes }
        return Array(text.utf8)
    }

    private static func physicalLines(_ bytes: [UInt8]) -> [PhysicalLine] {
        var lines: [PhysicalLine] = []
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var position = start
        let count = bytes.count
        while position < count {
            let byte = bytes[position]
            if byte == 0x0A || byte == 0x0D {
                lines.append(PhysicalLine(start: start, end: position))
                position += (byte == 0x0D && position + 1 < count && bytes[position + 1] == 0x0A) ? 2 : 1
                start = position
            } else {
                position += 1
            }
        }
        if start < count { lines.append(PhysicalLine(start: start, end: count)) }
        return lines
    }
}
