/// One template of a library, parsed once into nodes.
final class CompiledTemplate: Sendable {
    /// The template's name in the library.
    let name: String
    /// The UTF-8 source, kept to locate errors found while rendering.
    let source: [UInt8]
    /// The compiled instructions.
    let nodes: [Node]
    /// What the nodes refer to without owning it.
    let objects: [any AnyObject & Sendable]

    private init(name: String, source: [UInt8], nodes: [Node], objects: [any AnyObject & Sendable]) {
        self.name = name
        self.source = source
        self.nodes = nodes
        self.objects = objects
    }

    /// Compiles `text`; returns nil and the errors when it has a syntax error.
    static func compile(
        name: String, text: String, index: Int, strict: Bool, resolve: @escaping (String) -> Int?
    ) -> (template: CompiledTemplate?, errors: [MustacheError]) {
        let source = Array(text.utf8)
        var builder = TreeBuilder(source: source, strict: strict, resolve: resolve)
        do {
            var tokens = try Tokenizer.tokenize(source)
            StandaloneLines.apply(to: &tokens, source: source)
            let root = try builder.build(tokens)
            BlockIndentation.apply(to: root)
            var assembler = NodeAssembler(templateIndex: index)
            let nodes = assembler.nodes(for: root.items)
            let template = CompiledTemplate(
                name: name, source: source, nodes: nodes, objects: assembler.objects)
            return (template, builder.missingTemplates.map { error(for: $0, name: name, source: source) })
        } catch {
            let issues = builder.missingTemplates + [error]
            return (nil, issues.map { Self.error(for: $0, name: name, source: source) })
        }
    }

    /// An error at a byte offset of this template.
    func error(at offset: Int, _ reason: MustacheError.Reason) -> MustacheError {
        Self.error(for: ParseIssue(reason: reason, offset: offset), name: name, source: source)
    }

    private static func error(for issue: ParseIssue, name: String, source: [UInt8]) -> MustacheError {
        var line = 1
        var lineStart = 0
        for index in 0..<min(issue.offset, source.count) where source[index] == Byte.newline {
            line += 1
            lineStart = index + 1
        }
        let column = source[lineStart..<issue.offset].text.count + 1
        return MustacheError(templateName: name, line: line, column: column, reason: issue.reason)
    }
}
