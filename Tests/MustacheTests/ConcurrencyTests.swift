import Mustache
import Testing

@Suite("Concurrent rendering")
struct ConcurrencyTests {
    static let templates = [
        "layout":
            "<html>\n  <title>{{$title}}Site{{/title}}</title>\n  <body>\n    {{$body}}{{/body}}\n  </body>\n</html>\n",
        "page":
            "{{<layout}}\n{{$title}}{{name}}{{/title}}\n{{$body}}\n<ul>\n{{#items}}\n  {{>item}}\n{{/items}}\n</ul>\n{{/body}}\n{{/layout}}\n",
        "item": "<li>{{label}} #{{n}}</li>\n",
    ]

    static func context(_ index: Int) -> [String: Any] {
        let items: [[String: Any]] = (0..<(index % 7 + 1)).map { ["label": "item <\(index)>", "n": $0] }
        return ["name": "Page \(index)", "items": items]
    }

    @Test("Several tasks rendering one library get the same results as one task")
    func parallelRendering() async throws {
        let library = try TemplateLibrary(templates: Self.templates)
        let count = 400
        let expected = try (0..<count).map { try library.render("page", Self.context($0)) }
        #expect(expected[3].contains("<title>Page 3</title>"))
        #expect(expected[3].contains("      <li>item &lt;3&gt; #3</li>\n"))
        let results = try await withThrowingTaskGroup(of: [(Int, String)].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var rendered: [(Int, String)] = []
                    for index in stride(from: worker, to: count, by: 8) {
                        rendered.append((index, try library.render("page", Self.context(index))))
                    }
                    return rendered
                }
            }
            var all: [Int: String] = [:]
            for try await batch in group {
                for (index, text) in batch { all[index] = text }
            }
            return all
        }
        #expect(results.count == count)
        for index in 0..<count {
            #expect(results[index] == expected[index], "page \(index) differs")
        }
    }
}
