import ByteKernels
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
    /// The file's bytes (UTF-16 files converted to UTF-8).
    let bytes: [UInt8]
    /// The path used in locations.
    let path: String
    /// Whether folded lines keep their leading whitespace (vCard 2.1) instead of losing one
    /// space or tab (vCard 3.0 and 4.0, iCalendar). The vCard reader sets it per card.
    var keepsFoldWhitespace = false
    /// Problems found so far.
    private(set) var diagnostics: [Diagnostic] = []
    private let lines: [ContentLineFile.PhysicalLine]
    private var index: Int
    /// Where the lines this reader reads end: the file's end, or the end of a piece of it.
    private let endLine: Int
    private var skippedLines = 0
    /// Whether a line was skipped: lines skipped are counted, and reported up to a limit, for a
    /// file, not for a piece of it.
    private(set) var hasSkippedLines = false
    private var firstUnreported: SourceLocation?
    /// Lines that are not properties are reported one by one up to this many per file.
    private static let reportedSkipLimit = 10

    /// Prepares to read a file.
    init(source: SourceText) {
        self.init(file: ContentLineFile(source: source))
    }

    /// Prepares to read the physical lines `range` of a file (all of them by default), with
    /// locations in the whole file. A piece read on its own is read as the file is only when it
    /// starts where no logical line goes on (a line that begins a component).
    init(file: ContentLineFile, lines range: Range<Int>? = nil) {
        path = file.path
        bytes = file.bytes
        lines = file.lines
        index = range?.lowerBound ?? 0
        endLine = range?.upperBound ?? file.lines.count
    }

    /// The next property, or nil at the end of the file.
    mutating func next() -> ContentLine? {
        while index < endLine {
            let first = index
            index += 1
            guard let start = firstNonBlank(lines[first]) else { continue }
            let end = lines[first].end
            let header = bytes.withUnsafeBufferPointer {
                ContentLineHeader(UnsafeBufferPointer(rebasing: $0[start..<end]))
            }
            if let header, continuation(after: header.encoding, endingIn: bytes[end - 1]) == nil {
                // Most lines are whole on one physical line: no unfolding, and the value is the
                // rest of it.
                let valueStart = start + header.colon + 1
                return ContentLine(
                    header: header, value: bytes[valueStart..<end], path: path, lineNumber: first + 1,
                    valuePosition: position(at: valueStart, inLine: first))
            }
            var line = LogicalLine(bytes[start..<end], physicalStart: start, line: first, header: header)
            readContinuations(of: &line)
            guard let header = line.header else {
                let (number, column) = position(of: 0, in: line.segments)
                reportSkipped(at: SourceLocation(path: path, line: number, column: column))
                continue
            }
            return ContentLine(
                header: header, value: line.bytes[(header.colon + 1)...], path: path, lineNumber: first + 1,
                valuePosition: position(of: header.colon + 1, in: line.segments))
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

        /// Starts a logical line with the part of a physical line from `physicalStart` on, whose
        /// header is read already.
        @inline(__always)
        init(_ piece: ArraySlice<UInt8>, physicalStart: Int, line: Int, header: ContentLineHeader?) {
            bytes = Array(piece)
            segments = [Segment(logicalStart: 0, physicalStart: physicalStart, line: line)]
            self.header = header
        }

        /// The header's value encoding.
        var encoding: ContentLine.Encoding? { header?.encoding }

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
            header = bytes.withUnsafeBufferPointer { ContentLineHeader($0) }
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
        while index < endLine,
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

    /// How the physical line after the one just read goes on with the logical line before it,
    /// whose value has `encoding` and whose last byte is `last`; nil when it begins a line of its
    /// own or there is none.
    @inline(__always)
    private func continuation(after encoding: ContentLine.Encoding?, endingIn last: UInt8) -> Continuation? {
        guard index < endLine else { return nil }
        return continuation(at: lines[index], after: encoding, endingIn: last)
    }

    /// How `next` goes on with the logical line before it, whose value has `encoding` and whose
    /// last byte is `last`; nil when it begins a line of its own.
    @inline(__always)
    private func continuation(
        at next: ContentLineFile.PhysicalLine, after encoding: ContentLine.Encoding?, endingIn last: UInt8?
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
    private func firstNonBlank(_ line: ContentLineFile.PhysicalLine) -> Int? {
        var start = line.start
        while start < line.end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        return start == line.end ? nil : start
    }

    /// The value of the first `VERSION` property from the next line up to `END:<component>` (or
    /// the next `BEGIN:<component>`, when the end is missing), looked up before the lines are
    /// unfolded, since unfolding depends on it.
    func peekVersion(until component: String) -> String? {
        peek(until: component) { text in
            guard ASCIIBytes.hasPrefix(text, "VERSION:") else { return nil }
            let value = UnsafeBufferPointer(rebasing: text[8...])
            guard ASCIIBytes.isASCII(value) else {
                return String(decoding: value, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            // In ASCII, `.whitespaces` are the space and the tab.
            let trimmed = ASCIIBytes.trimmingBlanks(value, 0..<value.count)
            return ASCIIBytes.string(UnsafeBufferPointer(rebasing: value[trimmed]))
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
    private func peek<Answer>(
        until component: String, _ look: (UnsafeBufferPointer<UInt8>) -> Answer?
    ) -> Answer? {
        var component = component
        return component.withUTF8 { name in
            bytes.withUnsafeBufferPointer { bytes in
                for line in lines[index..<endLine] {
                    let text = UnsafeBufferPointer(rebasing: bytes[line.start..<line.end])
                    if Self.hasPrefix(text, "END:", name) || Self.hasPrefix(text, "BEGIN:", name) {
                        return nil
                    }
                    if let answer = look(text) { return answer }
                }
                return nil
            }
        }
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
        hasSkippedLines = true
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

    /// The line and column of a byte of the unfolded line, in the physical line it came from.
    private func position(of logicalIndex: Int, in segments: [Segment]) -> (line: Int, column: Int) {
        let segment = segments.last { $0.logicalStart <= logicalIndex } ?? segments[0]
        let offset = segment.physicalStart + (logicalIndex - segment.logicalStart)
        return position(at: offset, inLine: segment.line)
    }

    /// The line and column (from 1) of the byte at `offset` (at most the line's end) of the
    /// physical line `number` (from 0).
    private func position(at offset: Int, inLine number: Int) -> (line: Int, column: Int) {
        let line = lines[number]
        let offset = min(offset, line.end)
        // Every value's place is found, and nearly every line is ASCII up to its value: a byte
        // is a column there, told eight bytes at a time.
        let isASCII = bytes.withUnsafeBufferPointer {
            ASCIIBytes.isASCII(UnsafeBufferPointer(rebasing: $0[line.start..<offset]))
        }
        if isASCII { return (number + 1, offset - line.start + 1) }
        var column = 1
        var position = line.start
        while position < offset {
            // Continuation bytes (10xxxxxx) belong to the character before them.
            if bytes[position] & 0xC0 != 0x80 { column += 1 }
            position += 1
        }
        return (number + 1, column)
    }

    private func startsWithEnd(_ line: ContentLineFile.PhysicalLine) -> Bool {
        bytes.withUnsafeBufferPointer {
            ASCIIBytes.hasPrefix(UnsafeBufferPointer(rebasing: $0[line.start..<line.end]), "END:")
        }
    }

    private func isBase64Only(_ line: ContentLineFile.PhysicalLine) -> Bool {
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

    /// Whether `text` starts with `keyword` and then `name`, a lowercase letter of `text`
    /// matching the uppercase one of theirs.
    static func hasPrefix(
        _ text: UnsafeBufferPointer<UInt8>, _ keyword: StaticString, _ name: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let keyword = UnsafeBufferPointer(start: keyword.utf8Start, count: keyword.utf8CodeUnitCount)
        guard text.count >= keyword.count + name.count else { return false }
        for (offset, expected) in keyword.enumerated() where !matches(text[offset], expected) { return false }
        for (offset, expected) in name.enumerated() where !matches(text[keyword.count + offset], expected) {
            return false
        }
        return true
    }

    @inline(__always)
    private static func matches(_ byte: UInt8, _ expected: UInt8) -> Bool {
        byte == expected || (byte >= 0x61 && byte <= 0x7A && byte - 0x20 == expected)
    }
}
