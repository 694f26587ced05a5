import Testing
@testable import RolodeckStore

@Suite struct TextDecodingTests {
    struct CharsetCase: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var charset: String?
        var text: String
        var problem: ContentLineIssue.Reason?
        var testDescription: String { name }
    }

    static let charsetCases: [CharsetCase] = [
        CharsetCase(name: "UTF-8 without a charset", bytes: Array("Müller".utf8), charset: nil, text: "Müller"),
        CharsetCase(name: "UTF-8 named", bytes: Array("Müller".utf8), charset: "utf-8", text: "Müller"),
        CharsetCase(name: "Latin-1", bytes: [0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72], charset: "ISO-8859-1", text: "Müller"),
        CharsetCase(name: "windows-1252 has the euro sign and curly quotes", bytes: [0x80, 0x20, 0x93, 0x61, 0x94],
                    charset: "windows-1252", text: "€ “a”"),
        CharsetCase(name: "Shift_JIS, whose second bytes can be a backslash", bytes: [0x88, 0xC9, 0x94, 0x5C],
                    charset: "SHIFT_JIS", text: "伊能"),
        CharsetCase(name: "8-bit text without a charset is read as windows-1252", bytes: [0x4A, 0xFC, 0x72, 0x67, 0x65, 0x6E],
                    charset: nil, text: "Jürgen", problem: .assumedWindows1252),
        CharsetCase(name: "a charset Rolodeck does not know", bytes: Array("Ann".utf8), charset: "X-KLINGON",
                    text: "Ann", problem: .unknownCharset("X-KLINGON")),
        CharsetCase(name: "UTF-8 named but not UTF-8", bytes: [0x4A, 0xFC], charset: "UTF-8", text: "Jü",
                    problem: .notInCharset("UTF-8")),
    ]

    @Test(arguments: charsetCases)
    func decodesCharsets(_ testCase: CharsetCase) {
        let (decoded, problem) = testCase.bytes.withUnsafeBufferPointer { bytes in
            let (decoded, problem) = TextDecoding.decode(bytes, charset: testCase.charset)
            switch decoded {
            case .utf8: return (String(decoding: bytes, as: UTF8.self), problem)
            case .text(let text): return (text, problem)
            }
        }
        #expect(decoded == testCase.text)
        #expect(problem == testCase.problem)
    }

    @Test(arguments: [
        ("=4D=C3=BCller", "Müller"),
        ("a=3Db", "a=b"),
        ("line=0D=0Anext", "line\r\nnext"),
        ("lower=c3=bc", "lowerü"),
        ("soft=\r\nbreak", "softbreak"),
        ("not=hex and trailing=", "not=hex and trailing="),
    ])
    func decodesQuotedPrintable(_ input: String, _ expected: String) {
        #expect(String(decoding: QuotedPrintable.decode(Array(input.utf8)[...]), as: UTF8.self) == expected)
    }

    @Test(arguments: [
        (#"a\,b\;c\\d\ne\Nf"#, "a,b;c\\d\ne\nf"),
        (#"http\://example.com \"quoted\""#, #"http://example.com "quoted""#),
        (#"C:\Users\x"#, #"C:\Users\x"#),
        ("crlf\r\nand\rcr", "crlf\nand\ncr"),
        (#"trailing\"#, #"trailing\"#),
    ])
    func unescapesText(_ input: String, _ expected: String) {
        #expect(TextValue.unescaped(input) == expected)
    }

    @Test func splitsComponentsAndListsAtUnescapedSeparatorsOnly() {
        #expect(TextValue.components(#"Doe;John;Richter\, James;Mr.;Sr."#, lists: true).lists
                == [["Doe"], ["John"], ["Richter, James"], ["Mr."], ["Sr."]])
        #expect(TextValue.components("Perreault;Simon;;;ing. jr,M.Sc.", lists: true).lists
                == [["Perreault"], ["Simon"], [""], [""], ["ing. jr", "M.Sc."]])
        // vCard 2.1 has no lists: a comma is a comma.
        #expect(TextValue.components("Doe;John;Richter, James", lists: false).lists == [["Doe"], ["John"], ["Richter, James"]])
        #expect(TextValue.split(#"Family,Tennis\, Squash,"#, at: ",") == ["Family", "Tennis, Squash", ""])
    }
}
