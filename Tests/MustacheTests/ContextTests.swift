import Foundation
import Mustache
import Testing

/// A user type exposing keys through the protocol.
private struct Person: MustacheBoxable {
    let name: String
    let age: Int
    let friends: [Person]
    var address: Address?

    func mustacheValue(forKey key: String) -> Any? {
        switch key {
        case "name": return name
        case "age": return age
        case "friends": return friends
        case "address": return address
        default: return nil
        }
    }
}

private struct Address: MustacheBoxable {
    let city: String
    func mustacheValue(forKey key: String) -> Any? { key == "city" ? city : nil }
}

/// A user type that is a list and may be falsey.
private struct Shelf: MustacheBoxable {
    let books: [String]
    let isClosed: Bool
    func mustacheValue(forKey key: String) -> Any? { key == "count" ? books.count : nil }
    var mustacheIsFalsey: Bool { isClosed }
    var mustacheListElements: [Any]? { books }
}

@Suite("Swift values as contexts")
struct ContextTests {
    private func render(_ template: String, _ context: Any?) throws -> String {
        try TemplateLibrary(templates: ["t": template]).render("t", context)
    }

    @Test("Protocol values, arrays of them and dotted names through them")
    func boxable() throws {
        let ann = Person(name: "Ann", age: 31, friends: [], address: Address(city: "Oslo"))
        let bob = Person(name: "Bob", age: 40, friends: [ann], address: nil)
        let template = "{{name}} ({{age}}): {{#friends}}{{name}} in {{address.city}};{{/friends}}"
        #expect(try render(template, bob) == "Bob (40): Ann in Oslo;")
        #expect(
            try render("{{#address}}{{city}}{{/address}}{{^address}}nowhere{{/address}}", bob) == "nowhere")
        #expect(try render("{{boss.friends.0}}|{{boss.address.city}}", ["boss": bob]) == "|")
        // A key the object does not know is looked up further down the stack.
        #expect(
            try render("{{#friends}}{{title}} {{name}}{{/friends}}", ["title": "Dr", "friends": [ann]])
                == "Dr Ann")
    }

    @Test("Protocol values can be lists and falsey")
    func boxableListAndFalsey() throws {
        let open = Shelf(books: ["A", "B"], isClosed: false)
        #expect(try render("{{#shelf}}<{{.}}>{{/shelf}} {{shelf.count}}", ["shelf": open]) == "<A><B> 2")
        let closed = Shelf(books: ["A"], isClosed: true)
        #expect(try render("{{#shelf}}x{{/shelf}}{{^shelf}}closed{{/shelf}}", ["shelf": closed]) == "closed")
        let empty = Shelf(books: [], isClosed: false)
        #expect(try render("{{#shelf}}x{{/shelf}}{{^shelf}}empty{{/shelf}}", ["shelf": empty]) == "empty")
    }

    @Test("Nested dictionaries, [String: String] and [String: Any?]")
    func dictionaries() throws {
        let site: [String: Any] = ["meta": ["title": "Home", "lang": ["code": "en"]] as [String: Any]]
        #expect(
            try render("{{meta.title}}/{{meta.lang.code}}/{{#meta}}{{title}}{{/meta}}", site)
                == "Home/en/Home")
        #expect(try render("{{a}}-{{b}}", ["a": "1", "b": "2"] as [String: String]) == "1-2")
        let optional: [String: Any?] = ["x": nil, "y": "why"]
        #expect(try render("[{{x}}][{{y}}]{{^x}}no x{{/x}}", optional) == "[][why]no x")
    }

    @Test("A nil value in a nearer context hides the same key further out")
    func nilStopsLookup() throws {
        let inner: [String: Any?] = ["name": nil]
        #expect(try render("{{#inner}}[{{name}}]{{/inner}}", ["name": "outer", "inner": inner]) == "[]")
    }

    @Test("Numbers render like JSON numbers")
    func numbers() throws {
        let context: [String: Any] = [
            "int": 85, "negative": -12, "decimal": 1.21, "whole": 85.0, "float": Float(2.5),
            "small": Int8(7), "big": UInt64(12_345_678_901), "tiny": 0.000001, "min": Int.min,
        ]
        let template =
            "{{int}} {{negative}} {{decimal}} {{whole}} {{float}} {{small}} {{big}} {{tiny}} {{min}}"
        #expect(
            try render(template, context) == "85 -12 1.21 85 2.5 7 12345678901 1e-06 -9223372036854775808")
    }

    @Test("Bool, nil and NSNull")
    func boolAndNil() throws {
        let context: [String: Any] = [
            "yes": true, "no": false, "none": Optional<String>.none as Any, "null": NSNull(),
        ]
        #expect(try render("{{yes}} {{no}} [{{none}}] [{{null}}]", context) == "true false [] []")
        #expect(
            try render("{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{#none}}x{{/none}}{{#null}}x{{/null}}", context)
                == "Y")
        #expect(
            try render("{{^none}}a{{/none}}{{^null}}b{{/null}}{{^missing}}c{{/missing}}", context) == "abc")
        #expect(try render("[{{.}}]", nil) == "[]")
    }

    @Test("Falsey values: false, nil, empty string, zero, empty list")
    func truthiness() throws {
        let context: [String: Any] = [
            "emptyString": "", "zero": 0, "zeroDouble": 0.0, "emptyList": [Any](), "space": " ", "one": 1,
            "emptyDictionary": [String: Any](),
        ]
        let names = ["emptyString", "zero", "zeroDouble", "emptyList", "space", "one", "emptyDictionary"]
        let template = names.map { "{{#\($0)}}T{{/\($0)}}{{^\($0)}}F{{/\($0)}}" }.joined(separator: ",")
        #expect(try render(template, context) == "F,F,F,F,T,T,T")
    }

    @Test("Arrays of strings, dictionaries and structs; the implicit iterator")
    func arrays() throws {
        #expect(try render("{{#tags}}#{{.}} {{/tags}}", ["tags": ["swift", "web"]]) == "#swift #web ")
        let rows: [[String: Any]] = [["n": 1], ["n": 2]]
        #expect(try render("{{#rows}}{{n}}{{/rows}}", ["rows": rows]) == "12")
        #expect(try render("{{#.}}({{.}}){{/.}}", [1, 2, 3]) == "(1)(2)(3)")
        let nested: [Any] = [[1, 2], ["a"]]
        #expect(try render("{{#.}}[{{#.}}{{.}}{{/.}}]{{/.}}", nested) == "[12][a]")
    }

    @Test("HTML escaping covers & < > \" and '")
    func escaping() throws {
        let context = ["x": "<a href=\"/?a=1&b='2'\">"]
        #expect(try render("{{x}}", context) == "&lt;a href=&quot;/?a=1&amp;b=&#39;2&#39;&quot;&gt;")
        #expect(try render("{{{x}}}|{{&x}}", context) == "<a href=\"/?a=1&b='2'\">|<a href=\"/?a=1&b='2'\">")
        #expect(try render("{{x}}", ["x": "héllo 👍🏽 & ü"]) == "héllo 👍🏽 &amp; ü")
    }

    @Test("JSONSerialization output works without conversion")
    func foundationJSON() throws {
        let json = #"{"flag": true, "off": false, "count": 3, "price": 1.5, "none": null, "list": [1, 0]}"#
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8))
        let template =
            "{{flag}} {{off}} {{count}} {{price}} [{{none}}] {{#off}}x{{/off}}{{#list}}<{{.}}>{{/list}}"
        let rendered = try render(template, object)
        #expect(rendered == "true false 3 1.5 [] <1><0>")
    }
}
