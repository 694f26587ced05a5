import Mustache
import Testing

@Suite("TemplateLibrary usage")
struct UsageTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var templates: [String: String]
        var root: String
        var expected: TemplateUsage?
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "names of variables and sections, dotted names split",
            templates: ["a": "{{x}}{{#s.t}}{{{y}}}{{/s.t}}{{^z}}{{.}}{{/z}}"],
            root: "a",
            expected: TemplateUsage(templates: ["a"], names: ["x", "s", "t", "y", "z"], isDynamic: false)),
        Case(
            label: "partials are followed, unrelated templates are not",
            templates: ["a": "{{>b}}", "b": "{{>c}}{{q}}", "c": "{{r}}", "d": "{{u}}"],
            root: "a",
            expected: TemplateUsage(templates: ["a", "b", "c"], names: ["q", "r"], isDynamic: false)),
        Case(
            label: "a partial inside a section is followed",
            templates: ["a": "{{#list}}{{>row}}{{/list}}", "row": "{{name}}"],
            root: "a",
            expected: TemplateUsage(templates: ["a", "row"], names: ["list", "name"], isDynamic: false)),
        Case(
            label: "parents and the blocks given to them",
            templates: [
                "page": "{{<layout}}{{$main}}{{>part}}{{body}}{{/main}}{{/layout}}",
                "layout": "{{title}}{{$main}}{{default}}{{/main}}",
                "part": "{{p}}", "other": "{{o}}",
            ],
            root: "page",
            expected: TemplateUsage(
                templates: ["page", "layout", "part"], names: ["body", "title", "default", "p"],
                isDynamic: false)),
        Case(
            label: "recursive partials end",
            templates: ["item": "{{name}}{{#children}}{{>item}}{{/children}}"],
            root: "item",
            expected: TemplateUsage(templates: ["item"], names: ["name", "children"], isDynamic: false)),
        Case(
            label: "a dynamic partial reaches the whole library",
            templates: ["a": "{{>*which}}", "b": "{{x}}", "c": "{{>d}}", "d": "{{y}}"],
            root: "a",
            expected: TemplateUsage(
                templates: ["a", "b", "c", "d"], names: ["which", "x", "y"], isDynamic: true)),
        Case(label: "an unknown template has no usage", templates: ["a": "{{x}}"], root: "b", expected: nil),
    ]

    @Test(arguments: cases)
    func usage(_ test: Case) throws {
        let library = try TemplateLibrary(templates: test.templates)
        #expect(library.usage(of: test.root) == test.expected)
    }

    /// A library keeps each template's usage once worked out: asked again, in any order, each
    /// template gives its own.
    @Test func eachTemplateKeepsItsOwnUsage() throws {
        let templates = ["a": "{{>b}}{{x}}", "b": "{{y}}", "c": "{{z}}"]
        let library = try TemplateLibrary(templates: templates)
        for name in ["b", "a", "c", "a", "b", "missing", "c"] {
            let fresh = try TemplateLibrary(templates: templates)
            #expect(library.usage(of: name) == fresh.usage(of: name), "\(name)")
        }
        #expect(library.usage(of: "a")?.templates == ["a", "b"])
        #expect(library.usage(of: "missing") == nil)
    }
}
