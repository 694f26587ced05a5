import Testing
@testable import RolodeckSearch

/// The escapes of the pieces' JSON strings and of the script literal around them.
@Suite struct SearchPieceWriterTests {
    @Test func stringsEscapeQuotesControlsMarkupAndLineSeparators() {
        var bytes: [UInt8] = []
        SearchPieceWriter.append(
            string: "a\"b\\c\nd\re\tf<g>h&i\u{1}j\u{7F}k\u{2028}l\u{2029}m\u{2027}n€", to: &bytes)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == #""a\"b\\c\nd\re\tf\u003cg\u003eh\u0026i\u0001j\u007fk\u2028l\u2029m‧n€""#)
    }

    @Test func aStringWithNothingToEscapeIsCopiedAsItIs() {
        var bytes = Array("[".utf8)
        SearchPieceWriter.append(strings: ["Müller", "김철수", ""], to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"[["Müller","김철수",""]"#)
    }

    /// Quotes and backslashes at every place of the eight-byte words the writer tests at once,
    /// and in the bytes after the last whole word.
    @Test func aFileEscapesEveryQuoteWhereverItIs() {
        for length in 0..<40 {
            for place in 0..<length {
                for special in [UInt8(ascii: "'"), UInt8(ascii: "\\")] {
                    var json = Array(repeating: UInt8(ascii: "a"), count: length)
                    json[place] = special
                    if place + 3 < length { json[place + 3] = UInt8(ascii: "'") }
                    var expected = Array("rolodeckSearchPiece('r7','".utf8)
                    for byte in json {
                        if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\\") {
                            expected.append(UInt8(ascii: "\\"))
                        }
                        expected.append(byte)
                    }
                    expected += "');\n".utf8
                    #expect(SearchPieceWriter.file(id: "r7", json: json) == expected, "\(length) \(place)")
                }
            }
        }
    }

    @Test func aFileEscapesBackslashesAndSingleQuotes() {
        let file = SearchPieceWriter.file(id: "t0", json: Array(#"{"a":"it's \\"}"#.utf8))
        #expect(
            String(decoding: file, as: UTF8.self) == #"rolodeckSearchPiece('t0','{"a":"it\'s \\\\"}');"#
                + "\n")
    }
}
