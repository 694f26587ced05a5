import Mustache
import Testing

/// A value interpolated escaped and unescaped, and the escaped text expected.
struct EscapeCase: CustomTestStringConvertible, Sendable {
    let value: String
    let escaped: String

    var testDescription: String { String(reflecting: value) }
}

/// What the renderer writes for interpolated values: escaping copies the runs between special
/// bytes whole, so every special byte is tried at the start, middle and end of a value, next to
/// another, and next to multi-byte characters.
@Suite("Output bytes")
struct OutputBytesTests {
    private func render(_ template: String, _ context: Any?) throws -> String {
        try TemplateLibrary(templates: ["t": template]).render("t", context)
    }

    /// The five special bytes and the entities that replace them.
    private static let entities: [(special: String, entity: String)] = [
        ("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ("\"", "&quot;"), ("'", "&#39;"),
    ]

    /// Each special byte alone, first, in the middle, last, and doubled.
    static var specialByteCases: [EscapeCase] {
        var cases: [EscapeCase] = []
        for (special, entity) in entities {
            cases.append(EscapeCase(value: special, escaped: entity))
            cases.append(EscapeCase(value: special + "ab", escaped: entity + "ab"))
            cases.append(EscapeCase(value: "a" + special + "b", escaped: "a" + entity + "b"))
            cases.append(EscapeCase(value: "ab" + special, escaped: "ab" + entity))
            cases.append(EscapeCase(value: special + special, escaped: entity + entity))
        }
        return cases
    }

    /// Runs between special bytes, bytes just beside them in value, and non-ASCII text.
    static let runCases: [EscapeCase] = [
        EscapeCase(value: "", escaped: ""),
        EscapeCase(value: "plain text, no specials", escaped: "plain text, no specials"),
        EscapeCase(value: "&<>\"'", escaped: "&amp;&lt;&gt;&quot;&#39;"),
        EscapeCase(value: "a&b<c>d\"e'f", escaped: "a&amp;b&lt;c&gt;d&quot;e&#39;f"),
        // Neighbours of the special bytes, and bytes 64 apart from them, pass unchanged.
        EscapeCase(value: "!#%()=;?@`|~bfg|~", escaped: "!#%()=;?@`|~bfg|~"),
        EscapeCase(value: "Zoë & Jürgen <李>", escaped: "Zoë &amp; Jürgen &lt;李&gt;"),
        EscapeCase(value: "👋'👋", escaped: "👋&#39;👋"),
    ]

    /// Each special byte at every position of a value three words long, among its neighbours
    /// and bytes 64 and 128 apart from it: values are scanned eight bytes at a time, and each
    /// word with a special byte must be caught wherever in the word it lies.
    static var positionCases: [EscapeCase] {
        let filler = Array("!#%()=;?`fgb|~\u{A2}\u{E6}bfg!#%()".utf8)
        var cases: [EscapeCase] = []
        for (special, entity) in entities {
            for position in filler.indices {
                var value = filler
                var escaped = filler
                value[position] = special.utf8.first ?? 0
                escaped.replaceSubrange(position...position, with: entity.utf8)
                // A position inside a two-byte character makes invalid UTF-8; keep whole ones.
                guard let text = String(validating: value, as: UTF8.self) else { continue }
                cases.append(EscapeCase(value: text, escaped: String(decoding: escaped, as: UTF8.self)))
            }
        }
        let mixed = String(repeating: "Zoë & Jürgen <李> 'x' \"y\" ", count: 3)
        let mixedEscaped = String(
            repeating: "Zoë &amp; Jürgen &lt;李&gt; &#39;x&#39; &quot;y&quot; ", count: 3)
        cases.append(EscapeCase(value: mixed, escaped: mixedEscaped))
        return cases
    }

    /// Values of every length up to twenty bytes, plain and with each special byte at each
    /// position: values of 4 to 16 bytes are tested as two overlapping words, longer ones end
    /// with a word that overlaps the one before, and a special byte in either overlap counts.
    static var lengthCases: [EscapeCase] {
        let filler = Array("abcdefghij!#%()=;?`|".utf8)
        var cases: [EscapeCase] = []
        for length in 1...filler.count {
            let plain = Array(filler[..<length])
            let text = String(decoding: plain, as: UTF8.self)
            cases.append(EscapeCase(value: text, escaped: text))
            for (special, entity) in entities {
                for position in 0..<length {
                    var value = plain
                    var escaped = plain
                    value[position] = special.utf8.first ?? 0
                    escaped.replaceSubrange(position...position, with: entity.utf8)
                    cases.append(
                        EscapeCase(
                            value: String(decoding: value, as: UTF8.self),
                            escaped: String(decoding: escaped, as: UTF8.self)))
                }
            }
        }
        return cases
    }

    @Test(
        "Escaping replaces each special byte and keeps the runs around it",
        arguments: specialByteCases + runCases + positionCases + lengthCases)
    func escaping(_ example: EscapeCase) throws {
        #expect(try render("[{{v}}]", ["v": example.value]) == "[" + example.escaped + "]")
        #expect(try render("[{{{v}}}]", ["v": example.value]) == "[" + example.value + "]")
        // A table's values are appended from where the table holds them, not copied out first.
        let table = MustacheTable(["v": example.value])
        #expect(try render("[{{v}}]", table) == "[" + example.escaped + "]")
        #expect(try render("[{{{v}}}]", table) == "[" + example.value + "]")
        #expect(try render("[{{#t}}{{v}}{{/t}}]", ["t": table]) == "[" + example.escaped + "]")
        let bytes = MustacheTable(
            keys: MustacheTable.Keys(["v"]), values: [.bytes(Array(example.value.utf8))])
        #expect(try render("[{{v}}|{{{v}}}]", bytes) == "[" + example.escaped + "|" + example.value + "]")
    }

    @Test("A page longer than the first allocation grows without losing bytes")
    func growth() throws {
        let piece = "<a href='x'>R&D</a>\n"
        let value = String(repeating: piece, count: 1_000)
        let rendered = try render("{{#items}}{{.}}|{{{.}}}{{/items}}", ["items": [value, value]])
        let escapedPiece = "&lt;a href=&#39;x&#39;&gt;R&amp;D&lt;/a&gt;\n"
        let one = String(repeating: escapedPiece, count: 1_000) + "|" + value
        #expect(rendered == one + one)
    }

    @Test("Integers are written in decimal, negative ones and the extremes too")
    func integers() throws {
        let values = [0, 7, 10, -1, -10, 1_234_567_890, Int.max, Int.min]
        let rendered = try render("{{#n}}{{.}},{{/n}}", ["n": values])
        #expect(rendered == values.map(String.init).joined(separator: ",") + ",")
    }

    @Test("Rendering into a buffer appends after what it holds")
    func appendsToBuffer() throws {
        let library = try TemplateLibrary(templates: ["t": "{{a}}\n  {{>p}}", "p": "x\ny"])
        var buffer = Array("head:".utf8)
        try library.render("t", ["a": "<"], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "head:&lt;\n  x\n  y")
        // What the buffer held before does not count as a line of this render's output.
        var indented = Array("head:".utf8)
        try TemplateLibrary(templates: ["t": "  {{>p}}", "p": "x\ny"]).render("t", nil, into: &indented)
        #expect(String(decoding: indented, as: UTF8.self) == "head:  x\n  y")
    }
}
