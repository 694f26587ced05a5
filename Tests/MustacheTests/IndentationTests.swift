import Mustache
import Testing

/// Behaviour beyond the spec's own cases: indentation of nested partials and blocks.
@Suite("Partial and block indentation")
struct IndentationTests {
    private func render(_ templates: [String: String], _ context: Any? = nil) throws -> String {
        try TemplateLibrary(templates: templates).render("page", context)
    }

    @Test("Indentation of nested standalone partials adds up")
    func nestedPartials() throws {
        let templates = [
            "page": "<body>\n  {{>list}}\n</body>\n",
            "list": "<ul>\n  {{>item}}\n</ul>\n",
            "item": "<li>\n  {{text}}\n</li>\n",
        ]
        #expect(
            try render(templates, ["text": "a\nb"])
                == "<body>\n  <ul>\n    <li>\n      a\nb\n    </li>\n  </ul>\n</body>\n")
    }

    @Test("An inline partial inside an indented partial keeps the outer indentation")
    func inlineInsideIndented() throws {
        let templates = ["page": "x\n  {{>outer}}\n", "outer": "<p>{{>inner}}</p>\n", "inner": "one\ntwo"]
        #expect(try render(templates) == "x\n  <p>one\n  two</p>\n")
    }

    @Test("Empty lines of a partial get no trailing indentation")
    func emptyLines() throws {
        let templates = ["page": "  {{>part}}", "part": "a\n\nb\n"]
        #expect(try render(templates) == "  a\n\n  b\n")
    }

    @Test("Indentation repeats for each item of a section inside a partial")
    func sectionLines() throws {
        let templates = [
            "page": "<ul>\n  {{>items}}\n</ul>", "items": "{{#list}}\n<li>{{.}}</li>\n{{/list}}\n",
        ]
        #expect(try render(templates, ["list": [1, 2]]) == "<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>")
    }

    @Test("Layout slots indent overrides, whether written inline or on their own lines")
    func layoutSlots() throws {
        let templates = [
            "layout": "<main>\n    {{$content}}\n    default\n    {{/content}}\n</main>\n",
            "page": "{{<layout}}{{$content}}{{body}}{{/content}}{{/layout}}",
            "page2": "{{<layout}}\n{{$content}}\n<p>\n  {{body}}\n</p>\n{{/content}}\n{{/layout}}\n",
        ]
        let library = try TemplateLibrary(templates: templates)
        #expect(try library.render("page", ["body": "hi"]) == "<main>\n    hi</main>\n")
        #expect(
            try library.render("page2", ["body": "hi"]) == "<main>\n    <p>\n      hi\n    </p>\n</main>\n")
        #expect(try library.render("layout") == "<main>\n    default\n</main>\n")
    }

    @Test("Blocks inside a partial can be overridden by the template that uses the parent")
    func blockInPartialOfParent() throws {
        let templates = [
            "layout": "{{>head}}|{{$body}}B{{/body}}",
            "head": "<title>{{$title}}Site{{/title}}</title>",
            "page": "{{<layout}}{{$title}}Page{{/title}}{{/layout}}",
        ]
        #expect(try render(templates) == "<title>Page</title>|B")
        #expect(try TemplateLibrary(templates: templates).render("layout") == "<title>Site</title>|B")
    }

    @Test("Set-delimiter changes do not leak into partials")
    func delimitersStayLocal() throws {
        let templates = ["page": "{{=<% %>=}}<%>part%> <%x%>", "part": "{{x}}<%x%>"]
        #expect(try render(templates, ["x": "1"]) == "1<%x%> 1")
    }
}
