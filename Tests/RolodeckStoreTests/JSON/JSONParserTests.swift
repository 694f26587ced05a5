@testable import RolodeckCore
import Testing
@testable import RolodeckStore

@Suite struct JSONParserTests {
    struct SyntaxCase: CustomTestStringConvertible, Sendable {
        var json: String
        var expected: String
        var testDescription: String { expected }
    }

    static let syntaxCases: [SyntaxCase] = [
        SyntaxCase(json: "", expected: "t.json:1:1: the file is empty; expected a JSON value such as []"),
        SyntaxCase(json: "[1,\n 2,\n]", expected:
            "t.json:3:1: a comma before ']' is not allowed in JSON; remove the trailing comma"),
        SyntaxCase(json: "{\"a\": 1,}", expected:
            "t.json:1:9: a comma before '}' is not allowed in JSON; remove the trailing comma"),
        SyntaxCase(json: "{\"a\": 1 \"b\": 2}", expected: "t.json:1:9: unexpected '\"'; expected ',' or '}'"),
        SyntaxCase(json: "{name: 1}", expected:
            "t.json:1:2: unexpected 'n'; object keys must be strings in double quotes"),
        SyntaxCase(json: "[\"Müller]\n", expected: "t.json:1:2: this string is never closed; add the closing '\"'"),
        SyntaxCase(json: "[\"a\\qb\"]", expected:
            "t.json:1:4: invalid escape \\q in a string; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"),
        SyntaxCase(json: "[\"\\u12G4\"]", expected: "t.json:1:3: invalid \\u escape; expected four hexadecimal digits"),
        SyntaxCase(json: "[\"\\uD800\"]", expected:
            "t.json:1:3: \\u escape is half of a surrogate pair; the other half is missing"),
        SyntaxCase(json: "[01]", expected: "t.json:1:2: '01' is not a valid JSON number"),
        SyntaxCase(json: "[1.]", expected: "t.json:1:2: '1.' is not a valid JSON number"),
        SyntaxCase(json: "[tru]", expected:
            "t.json:1:2: unexpected 'tru'; expected a value (strings need double quotes; the literals are true, false and null)"),
        SyntaxCase(json: "[True]", expected: "t.json:1:2: unexpected 'T'; expected a value"),
        SyntaxCase(json: "// list\n[]", expected: "t.json:1:1: comments are not allowed in JSON"),
        SyntaxCase(json: "[] []", expected: "t.json:1:4: unexpected '[' after the end of the JSON value"),
        SyntaxCase(json: "[\"tab\there\"]", expected:
            "t.json:1:6: control character U+0009 in a string; write it as an escape such as \\t or \\n"),
        SyntaxCase(json: "{\"a\":", expected: "t.json:1:6: the file ends too early; expected a value"),
        SyntaxCase(json: "[\"가나\", ü]", expected: "t.json:1:8: unexpected 'ü' (U+00FC); expected a value"),
    ]

    @Test(arguments: syntaxCases)
    func syntaxErrorsNameTheirPlace(_ testCase: SyntaxCase) {
        let source = SourceText(path: "t.json", text: testCase.json)
        do {
            let value = try JSONParser.parse(source.bytes)
            Issue.record("parsed \(value.typeDescription) instead of failing")
        } catch {
            #expect("\(source.location(at: error.offset)): \(error.message)" == testCase.expected)
        }
    }

    @Test func parsesEveryKindWithOffsets() throws {
        let text = "\u{FEFF}{\"s\": \"a\\n\\u00e9\\ud83d\\ude00\", \"n\": -1.5e2, \"t\": true, \"f\": false, \"z\": null, \"a\": [1, {}]}"
        let source = SourceText(path: "t.json", text: text)
        let value = try JSONParser.parse(source.bytes)
        guard case .object(let members) = value.kind else {
            Issue.record("expected an object")
            return
        }
        #expect(members.map(\.key) == ["s", "n", "t", "f", "z", "a"])
        #expect(members[0].value.stringValue == "a\né😀")
        if case .number(let number, let raw) = members[1].value.kind {
            #expect(number == -150)
            #expect(raw == "-1.5e2")
        } else {
            Issue.record("n is not a number")
        }
        if case .bool(true) = members[2].value.kind {} else { Issue.record("t is not true") }
        if case .bool(false) = members[3].value.kind {} else { Issue.record("f is not false") }
        if case .null = members[4].value.kind {} else { Issue.record("z is not null") }
        if case .array(let elements) = members[5].value.kind {
            #expect(elements.count == 2)
            #expect(source.location(at: elements[1].offset).column == 88)
        } else {
            Issue.record("a is not an array")
        }
        // The BOM is not a column: the object starts at column 1.
        #expect(source.location(at: value.offset) == SourceLocation(path: "t.json", line: 1, column: 1))
    }

    @Test func columnsCountCharactersNotBytes() {
        let source = SourceText(path: "k.json", text: "[\"김철수\",\n  \"Jürgen\", x]")
        #expect(source.location(at: Array("[\"김철수\",".utf8).count).description == "k.json:1:8")
        let xOffset = Array("[\"김철수\",\n  \"Jürgen\", ".utf8).count
        #expect(source.location(at: xOffset).description == "k.json:2:13")
    }

    @Test func findsInvalidUTF8() {
        let bytes: [UInt8] = Array("[\"ok\", \"".utf8) + [0xC3, 0x28] + Array("\", \"".utf8) + [0xED, 0xA0, 0x80]
            + Array("\", \"\u{1F600}\"]".utf8) + [0xF8]
        #expect(UTF8Validator.invalidOffsets(in: bytes) == [8, 14, 15, 16, 27])
    }
}

@Suite struct JSONArraySplitterTests {
    @Test(arguments: [
        ("[]", Optional<[String]>.some([])),
        (" [ 1 , \"a,]\" ,{\"x\":[1,{}]}, [\"\\\"\"] ] \n", ["1 ", "\"a,]\" ", "{\"x\":[1,{}]}", "[\"\\\"\"] "]),
        ("\u{FEFF}[{}]", ["{}"]),
        ("[1,]", nil), ("[1 2]", ["1 2"]), ("[1,,2]", nil), ("{}", nil), ("[\"open]", nil), ("[1] x", nil),
    ])
    func splitsTopLevelElements(_ json: String, _ expected: [String]?) {
        let bytes = Array(json.utf8)
        let ranges = JSONArraySplitter.elements(of: bytes)
        #expect(ranges?.map { String(decoding: bytes[$0], as: UTF8.self) } == expected)
    }

    /// Where pieces may start: the first element, then the next line after each piece's length
    /// that starts with the first element's indentation and first byte after a line ending in a
    /// comma (a nested object indented deeper is not taken).
    @Test(arguments: [
        ("[\n{\"a\":1},\n{\"b\":2},\n{\"c\":3}\n]\n", 1, Optional<[String]>.some(["{\"a", "{\"b", "{\"c"])),
        ("[\n{\"a\":1},\n{\"b\":2},\n{\"c\":3}\n]\n", 12, ["{\"a", "{\"c"]),
        ("[\n  {\n    \"a\": [\n      {},\n      {}\n    ]\n  },\n  {\n    \"b\": 2\n  }\n]", 1,
         ["{\n ", "{\n "]),
        ("[\n\"x\",\n\"y\",\n{}]", 1, ["\"x\"", "\"y\""]),
        ("[\n\t{},\n {},\n\t{}\n]", 1, ["{},", "{}\n"]),
        ("[\n]", 1, nil), ("{\n}", 1, nil),
        // Without line breaks between elements: objects that begin as the first does, up to its
        // first key, after a comma after a closing brace. A nested one after a colon or a
        // bracket is not taken; one that follows another in a nested list is (a wrong guess,
        // which the piece before it finds).
        ("[{\"a\":1},\n{\"b\":2}]", 1, ["{\"a"]),
        ("[{\"id\":1},{\"id\":2}, {\"id\":3} ,\n {\"id\":4}]", 1, ["{\"i", "{\"i", "{\"i", "{\"i"]),
        ("[{\"id\":1},{\"id\":2},{\"id\":3},{\"id\":4}]", 20, ["{\"i", "{\"i"]),
        ("[{\"id\":1,\"s\":{\"id\":2}},{\"id\":3,\"l\":[{\"id\":4},{\"id\":5}]}]", 1, ["{\"i", "{\"i", "{\"i"]),
        ("[{ \"id\":1},{\"id\":2},{ \"id\":3}]", 1, ["{ \"", "{ \""]),
        ("[1,2,3]", 1, nil), ("[{\"a\\\"b\":1},{\"a\\\"b\":2}]", 1, nil), ("[{}]", 1, nil),
    ])
    func guessesWherePiecesStart(_ json: String, _ pieceLength: Int, _ expected: [String]?) {
        let bytes = Array(json.utf8)
        let starts = JSONArraySplitter.pieceStarts(of: bytes, pieceLength: pieceLength)
        let found = starts?.map { String(decoding: bytes[$0..<min($0 + 3, bytes.count)], as: UTF8.self) }
        #expect(found == expected)
    }

    /// Elements read one after another start where the splitter finds them, and reading stops
    /// before the first element that starts at or after the stop.
    @Test func readsElementsUntilTheStop() throws {
        let json = " [ 1 , \"a,]\" ,{\"x\":[1,{}]}, [\"\\\"\"] ] \n"
        let bytes = Array(json.utf8)
        let ranges = try #require(JSONArraySplitter.elements(of: bytes))
        var starts: [Int] = []
        let whole = try JSONParser.readElements(bytes, from: ranges[0].lowerBound, stoppingAt: .max) {
            (parser) throws(JSONSyntaxError) in
            starts.append(parser.offset)
            _ = try parser.parseValue(depth: 0)
        }
        #expect(starts == ranges.map(\.lowerBound))
        #expect(whole.next == nil && whole.isValidUTF8)
        starts = []
        let stop = ranges[2].lowerBound - 1
        let part = try JSONParser.readElements(bytes, from: ranges[1].lowerBound, stoppingAt: stop) {
            (parser) throws(JSONSyntaxError) in
            starts.append(parser.offset)
            _ = try parser.parseValue(depth: 0)
        }
        #expect(starts == [ranges[1].lowerBound])
        #expect(part.next == ranges[2].lowerBound)
        #expect(throws: JSONSyntaxError(.trailingContent("'x'"), at: 4)) {
            try JSONParser.readElements(Array("[1] x".utf8), from: 1, stoppingAt: .max) {
                (parser) throws(JSONSyntaxError) in _ = try parser.parseValue(depth: 0)
            }
        }
    }

    @Test func elementsParseWithOffsetsIntoTheWholeFile() throws {
        let bytes = Array("[1, {\"a\": tru}]".utf8)
        let ranges = try #require(JSONArraySplitter.elements(of: bytes))
        let first = try JSONParser.parse(bytes, range: ranges[0])
        #expect(first.offset == 1)
        #expect(throws: JSONSyntaxError(.invalidLiteral("tru"), at: 10)) {
            try JSONParser.parse(bytes, range: ranges[1])
        }
    }
}

@Suite struct JSONParserUTF8Tests {
    struct UTF8Case: CustomTestStringConvertible, Sendable {
        var name: String
        var bytes: [UInt8]
        var strings: [String]
        var isValidUTF8: Bool
        var testDescription: String { name }
    }

    static let long = "0123456789abcdefghij"

    static let utf8Cases: [UTF8Case] = [
        UTF8Case(name: "ASCII", bytes: Array("[\"a\", \"\(long)\"]".utf8), strings: ["a", long], isValidUTF8: true),
        UTF8Case(name: "well-formed, with escapes", bytes: Array("[\"Jürgen\\n\(long)\\u00e9\\\"김\"]".utf8),
                 strings: ["Jürgen\n\(long)é\"김"], isValidUTF8: true),
        UTF8Case(name: "ill-formed, no escapes", bytes: Array("[\"ok\", \"J".utf8) + [0xFC] + Array("rgen\"]".utf8),
                 strings: ["ok", "J\u{FFFD}rgen"], isValidUTF8: false),
        UTF8Case(name: "ill-formed before an escape", bytes: Array("[\"\(long)".utf8) + [0xE2, 0x82] + Array("\\n\"]".utf8),
                 strings: ["\(long)\u{FFFD}\n"], isValidUTF8: false),
        // The escape's own bytes must not complete the lead byte before it.
        UTF8Case(name: "a lead byte before a \\u escape", bytes: Array("[\"".utf8) + [0xC3] + Array("\\u00a9\"]".utf8),
                 strings: ["\u{FFFD}©"], isValidUTF8: false),
        UTF8Case(name: "ill-formed after an escape", bytes: Array("[\"a\\tb".utf8) + [0xBF] + Array("\"]".utf8),
                 strings: ["a\tb\u{FFFD}"], isValidUTF8: false),
        // Up to 15 bytes of ASCII are made into a string without validating them.
        UTF8Case(name: "short strings of every kind",
                 bytes: Array(#"["", "a", "abcdefg", "abcdefgh", "#.utf8)
                    + Array(#""abcdefghijklmno", "abcdefghijklmnop", "#.utf8)
                    + Array("\"abcdefghijkl\u{E9}\", \"\u{E9}bcdefgh\"]".utf8),
                 strings: ["", "a", "abcdefg", "abcdefgh", "abcdefghijklmno", "abcdefghijklmnop",
                           "abcdefghijkl\u{E9}", "\u{E9}bcdefgh"],
                 isValidUTF8: true),
        UTF8Case(name: "ill-formed, short, in the last byte",
                 bytes: Array("[\"abcdefghijklmn".utf8) + [0xFF] + Array("\"]".utf8),
                 strings: ["abcdefghijklmn\u{FFFD}"], isValidUTF8: false),
        UTF8Case(name: "ill-formed, short, in the middle",
                 bytes: Array("[\"abc".utf8) + [0xC3] + Array("defghi\"]".utf8),
                 strings: ["abc\u{FFFD}defghi"], isValidUTF8: false),
        // Longer strings are checked by `UTF8Validator.check` and then made without the standard
        // library's check; ill-formed ones still go through its repair.
        UTF8Case(name: "well-formed, long, other scripts",
                 bytes: Array("[\"木村けんじ \(long) 김서연\", \"\u{1F600}\u{E9}\(long)\"]".utf8),
                 strings: ["木村けんじ \(long) 김서연", "\u{1F600}\u{E9}\(long)"], isValidUTF8: true),
        UTF8Case(name: "ill-formed, long, a surrogate",
                 bytes: Array("[\"木村\(long)".utf8) + [0xED, 0xA0, 0x80] + Array("x\"]".utf8),
                 strings: ["木村\(long)\u{FFFD}\u{FFFD}\u{FFFD}x"], isValidUTF8: false),
        UTF8Case(name: "ill-formed, long, cut off at the end",
                 bytes: Array("[\"\(long)けん".utf8) + [0xE3, 0x81] + Array("\"]".utf8),
                 strings: ["\(long)けん\u{FFFD}"], isValidUTF8: false),
        UTF8Case(name: "ill-formed in a key", bytes: Array("{\"k".utf8) + [0xFF] + Array("\": 1}".utf8),
                 strings: ["k\u{FFFD}"], isValidUTF8: false),
    ]

    @Test(arguments: utf8Cases)
    func saysWhetherTheBytesAreUTF8(_ testCase: UTF8Case) throws {
        let (value, isValidUTF8) = try JSONParser.parseCheckingUTF8(testCase.bytes, range: 0..<testCase.bytes.count)
        #expect(isValidUTF8 == testCase.isValidUTF8)
        switch value.kind {
        case .array(let elements): #expect(elements.map(\.stringValue) == testCase.strings)
        case .object(let members): #expect(members.map(\.key) == testCase.strings)
        default: Issue.record("parsed \(value.typeDescription)")
        }
        // The same text as a parse that does not check.
        let plain = try JSONParser.parse(testCase.bytes)
        #expect("\(plain.kind)" == "\(value.kind)")
    }
}
