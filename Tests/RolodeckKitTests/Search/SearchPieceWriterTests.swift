import Testing
@testable import RolodeckKit

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

    @Test func aFileEscapesBackslashesAndSingleQuotes() {
        let file = SearchPieceWriter.file(id: "t0", json: Array(#"{"a":"it's \\"}"#.utf8))
        #expect(
            String(decoding: file, as: UTF8.self) == #"rolodeckSearchPiece('t0','{"a":"it\'s \\\\"}');"#
                + "\n")
    }
}
