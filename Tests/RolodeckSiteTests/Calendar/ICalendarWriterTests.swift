import Testing
@testable import RolodeckSite

/// The iCalendar writer: escaping of text values, folding at 75 octets without splitting a
/// character, CRLF line ends.
@Suite struct ICalendarWriterTests {
    struct EscapeCase: Sendable, CustomTestStringConvertible {
        let input: String
        let expected: String
        var testDescription: String { input.debugDescription }
    }

    static let escapeCases: [EscapeCase] = [
        EscapeCase(input: "plain", expected: "plain"),
        EscapeCase(input: "a,b;c\\d", expected: "a\\,b\\;c\\\\d"),
        EscapeCase(input: "one\ntwo\r\nthree\rfour", expected: "one\\ntwo\\nthree\\nfour"),
        EscapeCase(
            input: "tab\tkept, bell\u{07} and delete\u{7F} dropped",
            expected: "tab\tkept\\, bell and delete dropped"),
        EscapeCase(input: "Zoë: 김철수", expected: "Zoë: 김철수"),
        EscapeCase(input: "김;철,수\\\r", expected: "김\\;철\\,수\\\\\\n"),
        EscapeCase(input: "\r\n\r\u{0}é\u{85}", expected: "\\n\\né\u{85}"),
    ]

    @Test(arguments: escapeCases)
    func textIsEscaped(_ testCase: EscapeCase) {
        #expect(ICalendarWriter.escaped(testCase.input) == testCase.expected)
    }

    /// The lines of the writer's bytes, split at CRLF, with the check that no bare CR or LF is left.
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
                lines.append(current)
                current = []
                index += 2
                continue
            }
            #expect(bytes[index] != 0x0D && bytes[index] != 0x0A, "a bare line break at \(index)")
            current.append(bytes[index])
            index += 1
        }
        #expect(current.isEmpty, "the last line does not end in CRLF")
        return lines
    }

    struct FoldCase: Sendable, CustomTestStringConvertible {
        let name: String
        let value: String
        var testDescription: String { name }
    }

    static let foldCases: [FoldCase] = [
        FoldCase(name: "ASCII", value: String(repeating: "abcdefghij", count: 20)),
        FoldCase(name: "two-byte characters", value: String(repeating: "ä", count: 120)),
        FoldCase(name: "three-byte characters", value: String(repeating: "김", count: 90)),
        FoldCase(
            name: "four-byte characters, shifted by one", value: "x" + String(repeating: "😀", count: 60)),
        FoldCase(name: "exactly 75 octets", value: String(repeating: "y", count: 75 - "SUMMARY:".count)),
    ]

    @Test(arguments: foldCases)
    func longLinesAreFoldedAt75OctetsOnCharacterBoundaries(_ testCase: FoldCase) throws {
        var writer = ICalendarWriter()
        writer.text("SUMMARY", testCase.value)
        let lines = Self.lines(writer.bytes)
        for (index, line) in lines.enumerated() {
            #expect(line.count <= 75, "line \(index) has \(line.count) octets")
            // Each piece is valid UTF-8 on its own: no character was cut.
            let piece = index == 0 ? line : Array(line.dropFirst())
            #expect(String(validating: piece, as: UTF8.self) != nil, "line \(index) splits a character")
            if index > 0 { #expect(line.first == 0x20, "a continuation line starts with a space") }
        }
        // Unfolding (dropping each CRLF and the space after it) gives the line back.
        let unfolded = lines.enumerated().flatMap {
            $0.offset == 0 ? $0.element : Array($0.element.dropFirst())
        }
        #expect(String(decoding: unfolded, as: UTF8.self) == "SUMMARY:" + testCase.value)
        let octets = "SUMMARY:".utf8.count + testCase.value.utf8.count
        #expect(lines.count == (octets <= 75 ? 1 : lines.count), "a line of 75 octets is not folded")
        if octets > 75 { #expect(lines.count > 1) }
    }

    @Test func listsEscapeEachItem() {
        var writer = ICalendarWriter()
        writer.list("CATEGORIES", ["Travel", "Q3, workshop"])
        #expect(String(decoding: writer.bytes, as: UTF8.self) == "CATEGORIES:Travel,Q3\\, workshop\r\n")
    }
}
