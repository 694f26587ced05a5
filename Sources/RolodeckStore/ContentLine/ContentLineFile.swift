import ByteKernels
import Foundation
import RolodeckCore

/// A vCard or iCalendar file as `ContentLineReader` reads it: its bytes as UTF-8 and where each
/// physical line is. Made once per file, it is shared by the readers of the file's pieces, which
/// may read on every core (`VCardParser.parse(_:lines:)`).
struct ContentLineFile: Sendable {
    /// A line of the file: its bytes are `bytes[start..<end]`, without the line break.
    struct PhysicalLine: Sendable {
        var start: Int
        var end: Int
    }

    /// The path used in locations.
    let path: String
    /// The file's bytes (UTF-16 files converted to UTF-8).
    let bytes: [UInt8]
    /// The file's physical lines, in order.
    let lines: [PhysicalLine]

    /// Splits a file into its lines.
    init(source: SourceText) {
        path = source.path
        bytes = Self.utf8Bytes(source.bytes)
        lines = Self.physicalLines(bytes)
    }

    /// The lines that may begin a piece of the file read on its own: each is `BEGIN:<component>`
    /// (any case, blanks after it), and the line before it that is not blank is
    /// `END:<component>`, so no logical line goes on into it. The first of `lines` after the
    /// byte offset `from` that is one, or nil.
    func componentStart(from offset: Int, component: StaticString) -> Int? {
        bytes.withUnsafeBufferPointer { bytes in
            var low = 0, high = lines.count
            while low < high {
                let middle = (low + high) / 2
                if lines[middle].start < offset { low = middle + 1 } else { high = middle }
            }
            for index in low..<lines.count where Self.isLine(lines[index], "BEGIN:", component, in: bytes) {
                var before = index - 1
                while before >= 0, Self.isBlank(lines[before], in: bytes) { before -= 1 }
                if before >= 0, Self.isLine(lines[before], "END:", component, in: bytes) { return index }
            }
            return nil
        }
    }

    /// Every line that begins a component a piece of the file may start at: the first
    /// `BEGIN:<component>` when only blank lines come before it, and each that
    /// `componentStart` finds.
    func componentStarts(_ component: StaticString) -> [Int] {
        bytes.withUnsafeBufferPointer { bytes in
            var starts: [Int] = []
            // Whether the last line that is not blank ends a component, or none came yet.
            var afterEnd = true
            for index in lines.indices {
                let line = lines[index]
                if Self.isBlank(line, in: bytes) { continue }
                if afterEnd, Self.isLine(line, "BEGIN:", component, in: bytes) { starts.append(index) }
                afterEnd = Self.isLine(line, "END:", component, in: bytes)
            }
            return starts
        }
    }

    /// Whether `line` is `keyword` and `name` (a lowercase letter matching the uppercase one),
    /// then only spaces and tabs.
    private static func isLine(
        _ line: PhysicalLine, _ keyword: StaticString, _ name: StaticString,
        in bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        let text = UnsafeBufferPointer(rebasing: bytes[line.start..<line.end])
        let name = UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount)
        guard ContentLineReader.hasPrefix(text, keyword, name) else { return false }
        let rest = text[(keyword.utf8CodeUnitCount + name.count)...]
        return rest.allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// Whether `line` holds only spaces and tabs, if anything.
    private static func isBlank(_ line: PhysicalLine, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes[line.start..<line.end].allSatisfy { $0 == 0x20 || $0 == 0x09 }
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

    /// The lines of the file, without their line breaks (CR LF, LF or CR), the UTF-8 byte-order
    /// mark left out of the first; line breaks are looked for eight bytes at a time.
    private static func physicalLines(_ bytes: [UInt8]) -> [PhysicalLine] {
        bytes.withUnsafeBufferPointer { bytes in
            var lines: [PhysicalLine] = []
            // About as many as a card's lines of some 30 bytes make: grown one by one, the array
            // of a 300-byte file was copied five times, a tenth of the time it took to read.
            lines.reserveCapacity(bytes.count / 32 + 4)
            var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let count = bytes.count
            while start < count {
                let end = ByteWord.firstIndex(in: bytes, from: start) { word in
                    ByteWord.bytes(equalTo: 0x0A, in: word) | ByteWord.bytes(equalTo: 0x0D, in: word)
                }
                lines.append(PhysicalLine(start: start, end: end))
                guard end < count else { break }
                start = end + ((bytes[end] == 0x0D && end + 1 < count && bytes[end + 1] == 0x0A) ? 2 : 1)
            }
            return lines
        }
    }
}
