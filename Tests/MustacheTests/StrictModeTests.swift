import Mustache
import Testing

@Suite("Missing partials and parents: default vs strict")
struct StrictModeTests {
    private func compileErrors(_ templates: [String: String]) -> [String] {
        do {
            _ = try TemplateLibrary(templates: templates, options: .strict)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    private func renderError(_ library: TemplateLibrary, _ context: [String: Any]) -> String? {
        do {
            _ = try library.render("page", context)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("Default mode renders missing static partials and parents as nothing")
    func defaultStatic() throws {
        let library = try TemplateLibrary(templates: ["page": "[{{>nope}}|{{<gone}}{{$a}}x{{/a}}{{/gone}}]"])
        #expect(try library.render("page") == "[|]")
    }

    @Test("Strict mode reports every missing static partial and parent at compile time")
    func strictStatic() {
        let errors = compileErrors([
            "page": "Hi\n  {{>header}}\n{{<layout}}\n{{/layout}} {{>footer}}",
            "other": "{{>page}}",
        ])
        #expect(
            errors == [
                "page:2:3: error: partial 'header' not found",
                "page:3:1: error: parent template 'layout' not found",
                "page:4:13: error: partial 'footer' not found",
            ])
    }

    @Test("Strict mode accepts partials and parents that exist")
    func strictPresent() throws {
        let library = try TemplateLibrary(
            templates: [
                "page": "{{>part}}/{{<base}}{{$b}}!{{/b}}{{/base}}", "part": "p", "base": "<{{$b}}{{/b}}>",
            ],
            options: .strict)
        #expect(try library.render("page") == "p/<!>")
    }

    @Test("Default mode renders missing dynamic partials and parents as nothing")
    func defaultDynamic() throws {
        let library = try TemplateLibrary(templates: ["page": "[{{>*which}}|{{<*base}}{{/*base}}]"])
        #expect(try library.render("page", ["which": "nope", "base": "gone"]) == "[|]")
        #expect(try library.render("page", [:]) == "[|]")
    }

    @Test("Strict mode reports a missing dynamic partial at render time, with its location")
    func strictDynamicPartial() throws {
        let library = try TemplateLibrary(templates: ["page": "a\n b {{>*which}}"], options: .strict)
        #expect(
            renderError(library, ["which": "nope"])
                == "page:2:4: error: partial 'nope' not found (name taken from '*which')")
    }

    @Test("Strict mode reports a missing dynamic parent at render time")
    func strictDynamicParent() throws {
        let library = try TemplateLibrary(
            templates: ["page": "{{<*layout.name}}{{/*layout.name}}"], options: .strict)
        #expect(
            renderError(library, ["layout": ["name": "wide"]])
                == "page:1:1: error: parent template 'wide' not found (name taken from '*layout.name')")
    }

    @Test("Strict mode reports a dynamic name that resolves to nothing")
    func strictUnresolved() throws {
        let library = try TemplateLibrary(templates: ["page": "{{>*which}}"], options: .strict)
        #expect(
            renderError(library, [:])
                == "page:1:1: error: dynamic name '*which' does not resolve to a template name")
    }

    @Test("Strict mode renders dynamic partials that exist")
    func strictDynamicPresent() throws {
        let library = try TemplateLibrary(
            templates: ["page": "{{#items}}{{>*kind}}{{/items}}", "text": "T{{v}} ", "image": "I{{v}} "],
            options: .strict)
        let items: [[String: Any]] = [["kind": "text", "v": 1], ["kind": "image", "v": 2]]
        #expect(try library.render("page", ["items": items]) == "T1 I2 ")
    }
}
