import Mustache
import Testing

@Suite("TemplateLibrary API")
struct LibraryTests {
    @Test("Names, lookup and rendering into a byte buffer")
    func api() throws {
        let library = try TemplateLibrary(templates: ["b": "B{{x}}", "a": "A{{>b}}"])
        #expect(library.templateNames == ["a", "b"])
        #expect(library.contains("a") && !library.contains("c"))
        #expect(library.options == [])
        var buffer = Array("start:".utf8)
        try library.render("a", ["x": 1], into: &buffer)
        try library.render("b", ["x": "<"], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "start:AB1B&lt;")
    }

    @Test("One compiled partial renders at different indentations")
    func sharedPartialIndentation() throws {
        let library = try TemplateLibrary(templates: [
            "page": "a\n  {{>p}}\n    {{>p}}\n{{>p}}-{{>p}}", "p": "x\ny\n",
        ])
        #expect(try library.render("page") == "a\n  x\n  y\n    x\n    y\nx\ny\n-x\ny\n")
    }

    @Test("A library renders many times with different contexts")
    func manyRenders() throws {
        let library = try TemplateLibrary(templates: [
            "t": "{{#items}}{{.}},{{/items}}{{^items}}none{{/items}}"
        ])
        for count in 0..<50 {
            let items = (0..<count).map { $0 }
            let expected = count == 0 ? "none" : items.map { "\($0)," }.joined()
            #expect(try library.render("t", ["items": items]) == expected)
        }
    }
}
