import Mustache
import Testing

/// One template mistake and the exact error it must produce.
struct ErrorCase: Sendable, CustomTestStringConvertible {
    let label: String
    let template: String
    let expected: String
    var testDescription: String { label }
}

@Suite("Compile errors")
struct ErrorTests {
    static let cases: [ErrorCase] = [
        ErrorCase(
            label: "unclosed section", template: "<ul>\n  {{#items}}\n  <li>{{name}}</li>\n</ul>\n",
            expected: "page:2:3: error: unclosed section {{#items}}: no {{/items}} follows"),
        ErrorCase(
            label: "unclosed inverted section", template: "{{^empty}}none",
            expected: "page:1:1: error: unclosed inverted section {{^empty}}: no {{/empty}} follows"),
        ErrorCase(
            label: "unclosed parent", template: "{{<layout}}\n{{$title}}Hi{{/title}}\n",
            expected: "page:1:1: error: unclosed parent {{<layout}}: no {{/layout}} follows"),
        ErrorCase(
            label: "unclosed block", template: "<title>{{$title}}Home</title>",
            expected: "page:1:8: error: unclosed block {{$title}}: no {{/title}} follows"),
        ErrorCase(
            label: "innermost unclosed section is reported", template: "{{#a}}{{#b}}x",
            expected: "page:1:7: error: unclosed section {{#b}}: no {{/b}} follows"),
        ErrorCase(
            label: "mismatched closing tag", template: "{{#a}}\n  x {{/b}}\n{{/a}}",
            expected:
                "page:2:5: error: closing tag {{/b}} does not match the open section 'a'; expected {{/a}}"),
        ErrorCase(
            label: "closing tag with nothing open", template: "text\nmore {{/a}}",
            expected: "page:2:6: error: closing tag {{/a}} has no open section to close"),
        ErrorCase(
            label: "unclosed tag", template: "Hello {{name",
            expected: "page:1:7: error: unclosed tag: no '}}' ends the tag that starts here"),
        ErrorCase(
            label: "unclosed tag before another tag", template: "Hello {{name\n<p>{{other}}</p>",
            expected: "page:1:7: error: unclosed tag: no '}}' ends the tag that starts here"),
        ErrorCase(
            label: "unclosed triple mustache", template: "{{{html}}",
            expected: "page:1:1: error: unclosed tag: no '}}}' ends the tag that starts here"),
        ErrorCase(
            label: "unclosed tag with custom delimiters", template: "{{=<% %>=}}\n<%name",
            expected: "page:2:1: error: unclosed tag: no '%>' ends the tag that starts here"),
        ErrorCase(
            label: "empty tag", template: "a {{ }} b",
            expected: "page:1:3: error: empty tag: the tag has no name"),
        ErrorCase(
            label: "empty section name", template: "{{#}}{{/}}",
            expected: "page:1:1: error: empty tag: the tag has no name"),
        ErrorCase(
            label: "empty partial name", template: "{{> }}",
            expected: "page:1:1: error: empty tag: the tag has no name"),
        ErrorCase(
            label: "whitespace in name", template: "{{first name}}",
            expected: "page:1:1: error: invalid tag name 'first name': names cannot contain whitespace or "
                + "empty dotted parts"),
        ErrorCase(
            label: "empty dotted part", template: "{{user..name}}",
            expected: "page:1:1: error: invalid tag name 'user..name': names cannot contain whitespace or "
                + "empty dotted parts"),
        ErrorCase(
            label: "set-delimiter without trailing equals", template: "x\n{{=<% %>}}",
            expected: "page:2:1: error: invalid set-delimiter tag: it must end with '=', as in {{=<% %>=}}"),
        ErrorCase(
            label: "one delimiter", template: "{{=<%=}}",
            expected: "page:1:1: error: invalid set-delimiter tag: expected 2 delimiters separated by "
                + "whitespace, found 1"),
        ErrorCase(
            label: "three delimiters", template: "{{=<% %> |=}}",
            expected: "page:1:1: error: invalid set-delimiter tag: expected 2 delimiters separated by "
                + "whitespace, found 3"),
        ErrorCase(
            label: "delimiter containing equals", template: "{{=<=% %>=}}",
            expected: "page:1:1: error: invalid delimiter '<=%': delimiters cannot contain '='"),
        ErrorCase(
            label: "column counts Characters", template: "héllo 👍🏽 {{#x}}",
            expected: "page:1:9: error: unclosed section {{#x}}: no {{/x}} follows"),
        ErrorCase(
            label: "column after CRLF line ending", template: "a\r\n  {{/x}}",
            expected: "page:2:3: error: closing tag {{/x}} has no open section to close"),
    ]

    @Test("Mistake gives exact message", arguments: cases)
    func mistake(_ errorCase: ErrorCase) {
        let result = Result { () throws(MustacheErrors) in
            try TemplateLibrary(templates: ["page": errorCase.template])
        }
        guard case .failure(let failure) = result else {
            Issue.record("template compiled without error")
            return
        }
        #expect(failure.errors.map(\.description) == [errorCase.expected])
    }

    @Test("Errors of all templates are collected, sorted by template and position")
    func collectsAllTemplates() {
        let templates = [
            "b": "{{#open}}", "a": "fine {{x}}\n{{/close}}", "c": "{{ok}}", "d": "{{=x}}",
        ]
        do {
            _ = try TemplateLibrary(templates: templates)
            Issue.record("library compiled without error")
        } catch {
            #expect(
                error.description == """
                    a:2:1: error: closing tag {{/close}} has no open section to close
                    b:1:1: error: unclosed section {{#open}}: no {{/open}} follows
                    d:1:1: error: invalid set-delimiter tag: it must end with '=', as in {{=<% %>=}}
                    """)
            #expect(error.errors.map(\.templateName) == ["a", "b", "d"])
            #expect(error.errors.first?.reason == .unexpectedClosingTag(name: "close"))
        }
    }

    @Test("Rendering an unknown template names it")
    func unknownTemplate() throws {
        let library = try TemplateLibrary(templates: ["page": "x"])
        #expect(
            throws: MustacheError(templateName: "pgae", line: 0, column: 0, reason: .templateNotFound("pgae"))
        ) {
            try library.render("pgae")
        }
        #expect(
            MustacheError(templateName: "pgae", line: 0, column: 0, reason: .templateNotFound("pgae"))
                .description == "pgae: error: no template named 'pgae'")
    }

    @Test("Endless partial recursion is an error, not a crash")
    func recursionLimit() throws {
        let library = try TemplateLibrary(templates: ["page": "x\n {{>page}}"])
        #expect(throws: MustacheError.self) { try library.render("page") }
        do {
            _ = try library.render("page")
        } catch {
            #expect(error.description.hasPrefix("page:2:2: error: partials nested more than 100 levels deep"))
        }
    }
}
