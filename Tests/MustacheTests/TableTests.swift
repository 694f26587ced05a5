import Mustache
import Testing

/// A template and the dictionary context it is rendered with, once as is and once as a table.
struct TableCase: CustomTestStringConvertible, Sendable {
    let template: String
    let context: [String: any Sendable]
    let expected: String

    var testDescription: String { template }
}

@Suite("MustacheTable contexts")
struct TableTests {
    private func render(_ template: String, _ context: Any?) throws -> String {
        try TemplateLibrary(templates: ["t": template]).render("t", context)
    }

    private static let phoneKeys = MustacheTable.Keys(["label", "display", "tel"])

    private static func phone(_ label: String, _ display: String, tel: String?) -> MustacheTable {
        MustacheTable(
            keys: phoneKeys,
            values: [.string(label), .string(display), tel.map(MustacheValue.string) ?? .absent])
    }

    static let dictionaryCases: [TableCase] = [
        TableCase(
            template: "{{a}}|{{{a}}}|{{&a}}", context: ["a": "<b & 'c'>"],
            expected: "&lt;b &amp; &#39;c&#39;&gt;|<b & 'c'>|<b & 'c'>"),
        TableCase(
            template: "{{n}} {{d}} {{yes}} {{no}}", context: ["n": 7, "d": 1.5, "yes": true, "no": false],
            expected: "7 1.5 true false"),
        TableCase(template: "{{#items}}{{.}};{{/items}}", context: ["items": ["x", "y"]], expected: "x;y;"),
        TableCase(
            template: "{{missing}}[{{#missing}}x{{/missing}}{{^missing}}none{{/missing}}]", context: [:],
            expected: "[none]"),
        TableCase(
            template: "{{inner.k}}/{{#inner}}{{k}}{{outer}}{{/inner}}",
            context: ["inner": ["k": "v"] as [String: any Sendable], "outer": "o"], expected: "v/vo"),
    ]

    @Test("A table made from a dictionary renders as the dictionary does", arguments: dictionaryCases)
    func sameAsDictionary(_ example: TableCase) throws {
        #expect(try render(example.template, example.context) == example.expected)
        #expect(try render(example.template, MustacheTable(example.context)) == example.expected)
    }

    @Test("Dotted names, nested tables and lists of tables")
    func nested() throws {
        let keys = MustacheTable.Keys(["site", "phones", "tags"])
        let site = MustacheTable(["title": "Home"])
        let context = MustacheTable(
            keys: keys,
            values: [
                .table(site),
                .tables([Self.phone("Work", "1", tel: "tel:1"), Self.phone("Home", "2", tel: nil)]),
                .strings(["a", "b"]),
            ])
        let template =
            "{{site.title}}: {{#phones}}{{label}} {{#tel}}<{{.}}>{{/tel}}{{^tel}}{{display}}{{/tel}}; {{/phones}}"
            + "{{#tags}}{{.}}{{/tags}}"
        #expect(try render(template, context) == "Home: Work <tel:1>; Home 2; ab")
    }

    @Test("Dotted names read through tables, dictionaries and tables in dictionaries")
    func dottedThroughShapes() throws {
        let keys = MustacheTable.Keys(["b", "c", "gone", "off"])
        let innermost = MustacheTable(keys: keys, values: [.absent, .string("<c>"), .absent, .bool(false)])
        let middle = MustacheTable(keys: keys, values: [.table(innermost), .string("mid"), .absent, .int(0)])
        let dictionary: [String: Any] = ["t": innermost, "c": "dict"]
        let top = MustacheTable(
            keys: MustacheTable.Keys(["a", "d", "c"]),
            values: [.table(middle), MustacheValue(dictionary), .string("top")])
        let cases: [(template: String, expected: String)] = [
            ("{{a.b.c}}|{{{a.b.c}}}|{{a.c}}|{{d.c}}|{{d.t.c}}", "&lt;c&gt;|<c>|mid|dict|&lt;c&gt;"),
            // A part that is missing or absent ends the lookup: the outer `c` is not used.
            ("[{{a.gone.c}}][{{a.b.b.c}}][{{d.gone.c}}][{{a.c.c}}]", "[][][][]"),
            (
                "{{#a.b}}{{c}}{{/a.b}}|{{#d.t}}{{c}}{{/d.t}}|{{#a}}{{#b}}{{c}}{{/b}}{{/a}}",
                "&lt;c&gt;|&lt;c&gt;|&lt;c&gt;"
            ),
            ("{{^a.b.off}}off{{/a.b.off}}{{^a.off}}zero{{/a.off}}{{#a.b.off}}on{{/a.b.off}}", "offzero"),
            ("{{#a.b}}{{b.c}}({{a.c}}){{/a.b}}", "(mid)"),
        ]
        for (template, expected) in cases {
            #expect(try render(template, top) == expected, "\(template)")
        }
    }

    @Test("Items of a list of tables: nested lists, the item itself and the contexts around it")
    func tableItems() throws {
        let keys = MustacheTable.Keys(["name", "rows"])
        let inner = [MustacheTable(["name": "x"]), MustacheTable(["other": 1])]
        let items = [
            MustacheTable(keys: keys, values: [.string("a"), .tables(inner)]),
            MustacheTable(keys: keys, values: [.string("b<"), .tables([])]),
        ]
        let context = MustacheTable(
            keys: MustacheTable.Keys(["items", "name", "p"]),
            values: [.tables(items), .string("outer"), .string("part")])
        let library = try TemplateLibrary(templates: [
            "t": "{{#items}}{{name}}:{{#rows}}[{{name}}]{{/rows}}{{^rows}}none{{/rows}};{{/items}}",
            "self": "{{#items}}{{#.}}{{name}}{{/.}}{{^.}}-{{/.}}|{{{.}}}|{{>*p}};{{/items}}",
            "part": "<{{name}}>",
        ])
        // A row without `name` finds the enclosing item's.
        #expect(try library.render("t", context) == "a:[x][a];b&lt;:none;")
        let first = "a|[\"name\": \"a\", \"rows\": \(inner)]|<a>;"
        let second = "b&lt;|[\"name\": \"b<\", \"rows\": []]|<b&lt;>;"
        #expect(try library.render("self", context) == first + second)
    }

    @Test("A key the table does not have is looked up in the enclosing contexts")
    func missingKeyFallsThrough() throws {
        // `tel` is absent from the second phone, so it comes from the context around the list.
        let phones: [MustacheTable] = [
            Self.phone("Work", "1", tel: "tel:1"), Self.phone("Home", "2", tel: nil),
        ]
        let outerTable = MustacheTable(
            keys: MustacheTable.Keys(["tel", "phones"]),
            values: [.string("outer"), .tables(phones)])
        #expect(try render("{{#phones}}{{tel}},{{/phones}}", outerTable) == "tel:1,outer,")
        let outerDictionary: [String: Any] = ["tel": "outer", "phones": phones]
        #expect(try render("{{#phones}}{{tel}},{{/phones}}", outerDictionary) == "tel:1,outer,")
        // Dotted names look only into the first part's value.
        #expect(try render("{{#phones}}[{{label.tel}}]{{/phones}}", outerTable) == "[][]")
        // A present but null value stops the lookup, as `[String: Any?]` does.
        let null = MustacheTable(keys: MustacheTable.Keys(["tel"]), values: [MustacheValue(nil)])
        #expect(try render("{{#inner}}[{{tel}}]{{/inner}}", ["tel": "outer", "inner": null]) == "[]")
    }

    /// Computed, since `MustacheValue` is not `Sendable`.
    static var falsey: [(name: String, value: MustacheValue, isFalsey: Bool)] {
        [
            ("false", .bool(false), true), ("true", .bool(true), false), ("empty string", .string(""), true),
            ("space", .string(" "), false), ("zero", .int(0), true), ("one", .int(1), false),
            ("no tables", .tables([]), true), ("a table", .tables([MustacheTable([:])]), false),
            ("no strings", .strings([]), true), ("empty table", .table(MustacheTable([:])), false),
            ("nil", MustacheValue(nil), true), ("empty [Any]", MustacheValue([Any]()), true),
            ("no bytes", .bytes([]), true), ("a byte", .bytes([0x20]), false),
        ]
    }

    @Test("Falsey values follow the dictionary rules", arguments: falsey.indices)
    func falseyValues(_ index: Int) throws {
        let example = Self.falsey[index]
        let table = MustacheTable(keys: MustacheTable.Keys(["x"]), values: [example.value])
        let rendered = try render("{{#x}}T{{/x}}{{^x}}F{{/x}}", table)
        #expect(rendered == (example.isFalsey ? "F" : "T"), "\(example.name)")
    }

    @Test("Bytes render as the string of them, escaped or not, and read back as it")
    func bytes() throws {
        let text = "<p>Zoë & 'Jürgen'</p>"
        let keys = MustacheTable.Keys(["html", "text"])
        let table = MustacheTable(keys: keys, values: [.bytes(Array(text.utf8)), .string(text)])
        let template = "{{html}}|{{{html}}}|{{#html}}{{{.}}}{{/html}}"
        let escaped = "&lt;p&gt;Zoë &amp; &#39;Jürgen&#39;&lt;/p&gt;"
        #expect(try render(template, table) == "\(escaped)|\(text)|\(text)")
        let textTemplate = "{{text}}|{{{text}}}|{{#text}}{{{.}}}{{/text}}"
        #expect(try render(textTemplate, table) == render(template, table))
        #expect(table["html"] as? String == text)
    }

    @Test("Keys, the subscript and the description")
    func accessors() {
        let phone = Self.phone("Work", "1", tel: nil)
        #expect(phone.keyNames == ["label", "display"])
        #expect(phone["label"] as? String == "Work")
        #expect(phone["tel"] == nil && phone["nope"] == nil)
        #expect(phone.description == #"["label": "Work", "display": "1"]"#)
        #expect(MustacheTable([:]).description == "[:]")
    }

    @Test("Contexts nested deeper than the stack's first room: each level, the ones below, the root")
    func deepNesting() throws {
        let keys = MustacheTable.Keys(["depth", "child"])
        // The innermost `child` is false: absent, it would be found one level out, endlessly.
        var table = MustacheTable(keys: keys, values: [.int(60), .bool(false)])
        var dictionary: [String: Any] = ["depth": 60, "child": false]
        for depth in (0..<60).reversed() {
            table = MustacheTable(keys: keys, values: [.int(depth), .table(table)])
            dictionary = ["depth": depth, "child": dictionary]
        }
        let root = MustacheTable(
            keys: MustacheTable.Keys(["root", "child"]), values: [.string("r"), .table(table)])
        let library = try TemplateLibrary(templates: [
            "t": "{{#child}}{{>level}}{{/child}}",
            "level": "{{depth}}{{root}}{{#child}}({{>level}}){{/child}}",
        ])
        let expected = (0...60).map { "\($0)r" }.joined(separator: "(") + String(repeating: ")", count: 60)
        #expect(try library.render("t", root) == expected)
        var bytes: [UInt8] = []
        try library.render("t", root, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
        #expect(try library.render("t", ["root": "r", "child": dictionary]) == expected)
    }

    @Test("Many keys: every one is found and no other")
    func manyKeys() throws {
        let names = (0..<300).map { "key\($0)" }
        let table = MustacheTable(keys: MustacheTable.Keys(names), values: names.indices.map { .int($0) })
        for (index, name) in names.enumerated() {
            #expect(table[name] as? Int == index)
        }
        #expect(table["key300"] == nil && table[""] == nil && table["key"] == nil)
        #expect(try render("{{key0}}.{{key299}}.{{key300}}", table) == "0.299.")
    }
}
