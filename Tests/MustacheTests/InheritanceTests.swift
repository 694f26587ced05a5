import Mustache
import Testing

/// Inheritance beyond the spec's own cases: multi-level layouts, dynamic parents, scoping.
@Suite("Template inheritance")
struct InheritanceTests {
    static let templates = [
        "base": """
        <html>
        <head><title>{{$title}}Site{{/title}}</title></head>
        <body>
          {{$body}}
          <p>empty</p>
          {{/body}}
        </body>
        </html>

        """,
        "article": """
        {{<base}}
        {{$title}}{{$articleTitle}}Article{{/articleTitle}} | Site{{/title}}
        {{$body}}
        <article>
          {{$content}}
          {{/content}}
        </article>
        {{/body}}
        {{/base}}

        """,
        "post": """
        {{<article}}
        {{$articleTitle}}{{title}}{{/articleTitle}}
        {{$content}}
        <p>{{text}}</p>
        {{/content}}
        {{/article}}

        """,
    ]

    @Test("Three-level layout: blocks nested in overrides are filled from the outermost template")
    func threeLevels() throws {
        let library = try TemplateLibrary(templates: Self.templates, options: .strict)
        let expected = """
            <html>
            <head><title>Hello | Site</title></head>
            <body>
              <article>
                <p>World</p>
              </article>
            </body>
            </html>

            """
        #expect(try library.render("post", ["title": "Hello", "text": "World"]) == expected)
        #expect(
            try library.render("base")
                == "<html>\n<head><title>Site</title></head>\n<body>\n  <p>empty</p>\n</body>\n</html>\n")
    }

    @Test("Dynamic parents take their overrides")
    func dynamicParent() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{<*layout}}{{$main}}M{{/main}}{{/*layout}}", "wide": "[{{$main}}{{/main}}]",
            "narrow": "({{$main}}{{/main}})",
        ])
        #expect(try library.render("page", ["layout": "wide"]) == "[M]")
        #expect(try library.render("page", ["layout": "narrow"]) == "(M)")
    }

    @Test("An override nesting a parent with the same block name does not recurse endlessly")
    func lexicalScope() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{<outer}}{{$a}}<{{<inner}}{{$a}}in{{/a}}{{/inner}}>{{/a}}{{/outer}}",
            "outer": "O{{$a}}o{{/a}}", "inner": "I{{$a}}i{{/a}}",
        ])
        #expect(try library.render("page") == "O<Iin>")
    }

    @Test("Blocks render in the context stack of the slot")
    func blockContext() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{<list}}{{$item}}<{{name}}>{{/item}}{{/list}}",
            "list": "{{#people}}{{$item}}{{/item}}{{/people}}",
        ])
        let people: [[String: Any]] = [["name": "Ann"], ["name": "Bob"]]
        #expect(try library.render("page", ["people": people]) == "<Ann><Bob>")
    }

    @Test("Of two overrides with one name in a parent tag, the last counts; others are left alone")
    func repeatedOverride() throws {
        let library = try TemplateLibrary(templates: [
            "page": "{{<layout}}{{$a}}first{{/a}}{{$b}}B{{/b}}{{$a}}second{{/a}}{{/layout}}",
            "layout": "[{{$a}}a{{/a}}|{{$b}}b{{/b}}|{{$c}}c{{/c}}]",
        ])
        #expect(try library.render("page") == "[second|B|c]")
    }
}
