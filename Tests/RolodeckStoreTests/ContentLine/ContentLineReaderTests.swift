import Foundation
import Testing
@testable import RolodeckStore
@testable import RolodeckCore

@Suite struct ContentLineReaderTests {
    /// Each line as `line:valueLine:valueColumn group.NAME;PARAM=a,b:value`, and the warnings.
    static func read(_ bytes: [UInt8], keepingFoldWhitespace: Bool = false) -> (lines: [String], warnings: [String]) {
        var reader = ContentLineReader(source: SourceText(path: "a.vcf", bytes: bytes))
        reader.keepsFoldWhitespace = keepingFoldWhitespace
        var lines: [String] = []
        while let line = reader.next() {
            let group = line.group.isEmpty ? "" : line.group + "."
            let parameters = line.parameters.map { ";\($0.name)=\($0.values.joined(separator: ","))" }.joined()
            lines.append("\(line.location.line):\(line.valueLocation.line):\(line.valueLocation.column) "
                         + "\(group)\(line.name)\(parameters):\(String(decoding: line.value, as: UTF8.self))")
        }
        return (lines, reader.diagnostics.map(\.description))
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: [UInt8]
        var keepsFoldWhitespace = false
        var lines: [String]
        var warnings: [String] = []
        var testDescription: String { name }

        init(_ name: String, _ input: String, keepsFoldWhitespace: Bool = false, lines: [String], warnings: [String] = []) {
            self.init(name, Array(input.utf8), keepsFoldWhitespace: keepsFoldWhitespace, lines: lines, warnings: warnings)
        }

        init(_ name: String, _ input: [UInt8], keepsFoldWhitespace: Bool = false, lines: [String], warnings: [String] = []) {
            self.name = name
            self.input = input
            self.keepsFoldWhitespace = keepsFoldWhitespace
            self.lines = lines
            self.warnings = warnings
        }
    }

    static let cases: [Case] = [
        Case("CRLF line ends", "BEGIN:VCARD\r\nFN:Ann\r\nEND:VCARD\r\n",
             lines: ["1:1:7 BEGIN:VCARD", "2:2:4 FN:Ann", "3:3:5 END:VCARD"]),
        Case("LF line ends", "BEGIN:VCARD\nFN:Ann\nEND:VCARD",
             lines: ["1:1:7 BEGIN:VCARD", "2:2:4 FN:Ann", "3:3:5 END:VCARD"]),
        Case("CR line ends (classic Mac OS)", "BEGIN:VCARD\rFN:Ann\rEND:VCARD\r",
             lines: ["1:1:7 BEGIN:VCARD", "2:2:4 FN:Ann", "3:3:5 END:VCARD"]),
        Case("blank lines are skipped", "\r\nFN:Ann\r\n\r\n   \r\nNOTE:x\r\n",
             lines: ["2:2:4 FN:Ann", "5:5:6 NOTE:x"]),
        Case("a UTF-8 byte-order mark is not part of the first line", [0xEF, 0xBB, 0xBF] + Array("FN:Ann\nN:A;B\n".utf8),
             lines: ["1:1:4 FN:Ann", "2:2:3 N:A;B"]),
        Case("UTF-16 with a byte-order mark is converted",
             [0xFF, 0xFE] + "FN:Jürgen\r\nTEL:1\r\n".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
             lines: ["1:1:4 FN:Jürgen", "2:2:5 TEL:1"]),
        Case("folding drops one space or tab (3.0, 4.0, iCalendar)", "NOTE:one\r\n  two\r\n\tthree\r\nFN:x\r\n",
             lines: ["1:1:6 NOTE:one twothree", "4:4:4 FN:x"]),
        Case("vCard 2.1 folding keeps the whitespace", "NOTE:one\r\n two\r\n\tthree\r\n", keepsFoldWhitespace: true,
             lines: ["1:1:6 NOTE:one two\tthree"]),
        Case("a header folded before its colon", "TEL;TYPE=\r\n work:1\r\n",
             lines: ["1:2:7 TEL;TYPE=work:1"]),
        Case("quoted-printable soft breaks join the next line whatever it starts with",
             "NOTE;ENCODING=QUOTED-PRINTABLE:=E3=81=\r\n=82 and=\r\nTEL;CELL:not a property\r\nFN:x\r\n",
             lines: ["1:1:32 NOTE;ENCODING=QUOTED-PRINTABLE:=E3=81=82 andTEL;CELL:not a property", "4:4:4 FN:x"]),
        Case("a bare QUOTED-PRINTABLE parameter is an encoding", "N;CHARSET=UTF-8;QUOTED-PRINTABLE:M=\r\n=C3=BCller;;;;\r\n",
             lines: ["1:1:34 N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:M=C3=BCller;;;;"]),
        Case("a soft break does not swallow END", "NOTE;QUOTED-PRINTABLE:x=\r\nEND:VCARD\r\n",
             lines: ["1:1:23 NOTE;ENCODING=QUOTED-PRINTABLE:x=", "2:2:5 END:VCARD"]),
        Case("vCard 2.1 base64 on lines of its own, ended by a blank line",
             "PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQ\r\n  SkZJRgAB\r\nAQAAAQAB\r\n\r\nTEL;CELL:1\r\n",
             keepsFoldWhitespace: true,
             lines: ["1:1:33 PHOTO;ENCODING=BASE64;TYPE=JPEG:/9j/4AAQ  SkZJRgABAQAAAQAB", "5:5:10 TEL;TYPE=CELL:1"]),
        Case("unindented base64 lines in a 3.0 card", "PHOTO;ENCODING=b:iVBORw0K\r\nGgoAAAAN\r\nSUhEUg==\r\nFN:x\r\n",
             lines: ["1:1:18 PHOTO;ENCODING=b:iVBORw0KGgoAAAANSUhEUg==", "4:4:4 FN:x"]),
        Case("parameters in every form",
             "TEL;TYPE=work;TYPE=voice;type=pref:1\nTEL;TYPE=work,voice:2\nTEL;TYPE=\"work,voice\":3\nTEL;CELL;PREF:4\n",
             lines: ["1:1:36 TEL;TYPE=work;TYPE=voice;TYPE=pref:1", "2:2:21 TEL;TYPE=work,voice:2",
                     "3:3:23 TEL;TYPE=work,voice:3", "4:4:15 TEL;TYPE=CELL;TYPE=PREF:4"]),
        Case("quoted parameter values hold colons and semicolons",
             "ADR;LABEL=\"Main St; Suite 5: rear\";TYPE=home:;;Main St\n",
             lines: ["1:1:46 ADR;LABEL=Main St; Suite 5: rear;TYPE=home:;;Main St"]),
        Case("RFC 6868 caret escapes in parameter values", "X-A;LABEL=a^nb ^'c^' ^^ ^x:v\n",
             lines: ["1:1:28 X-A;LABEL=a\nb \"c\" ^ ^x:v"]),
        Case("a group before the name", "item1.TEL:555\nITEM1.X-ABLabel:Pager\n",
             lines: ["1:1:11 item1.TEL:555", "2:2:17 item1.X-ABLABEL:Pager"]),
        Case("columns count characters, not bytes", "FN;X-Ä=ü:Jü\n", lines: ["1:1:10 FN;X-Ä=ü:Jü"]),
        Case("a line that is not a property is skipped with a warning", "FN:Ann\nthis is not a property\nTEL:1\n",
             lines: ["1:1:4 FN:Ann", "3:3:5 TEL:1"],
             warnings: ["a.vcf:2:1: warning: this line is not a property (NAME:value) and is ignored"]),
        Case("an unbalanced quote still finds the value", "TEL;TYPE=\"work:1\n",
             lines: ["1:1:16 TEL;TYPE=work:1"]),
        Case("after ten lines that are not properties, the rest are counted",
             (1...13).map { "junk \($0)\n" }.joined() + "FN:x\n",
             lines: ["14:14:4 FN:x"],
             warnings: (1...10).map { "a.vcf:\($0):1: warning: this line is not a property (NAME:value) and is ignored" }
                + ["a.vcf:11:1: warning: 3 more lines that are not properties are ignored, from here on"]),
    ]

    @Test(arguments: cases)
    func readsContentLines(_ testCase: Case) {
        let (lines, warnings) = Self.read(testCase.input, keepingFoldWhitespace: testCase.keepsFoldWhitespace)
        #expect(lines == testCase.lines)
        #expect(warnings == testCase.warnings)
    }

    @Test func versionIsFoundBeforeTheLinesAreUnfolded() {
        var reader = ContentLineReader(source: SourceText(path: "a.vcf", text: """
            BEGIN:VCARD\r
            FN:A\r
            VERSION:2.1\r
            END:VCARD\r
            BEGIN:VCARD\r
            N;CHARSET=ISO-8859-1:x\r
            END:VCARD\r
            BEGIN:VCARD\r
            FN:B\r
            END:VCARD\r
            """))
        #expect(reader.next()?.name == "BEGIN")
        #expect(reader.peekVersion(until: "VCARD") == "2.1")
        while let line = reader.next(), line.name != "END" {}
        #expect(reader.next()?.name == "BEGIN")
        #expect(reader.peekVersion(until: "VCARD") == nil)
        #expect(reader.peekLooksLikeVersion21(until: "VCARD"))
        while let line = reader.next(), line.name != "END" {}
        #expect(reader.next()?.name == "BEGIN")
        #expect(!reader.peekLooksLikeVersion21(until: "VCARD"))
    }
}
