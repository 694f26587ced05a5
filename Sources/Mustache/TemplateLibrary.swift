import Synchronization

/// A set of named Mustache templates, compiled once and rendered by name; the templates
/// double as each other's partials and parents. Immutable, so safe to share between threads.
///
/// ```swift
/// let library = try TemplateLibrary(templates: ["page": "<h1>{{title}}</h1>{{>footer}}", "footer": "…"])
/// let html = try library.render("page", ["title": "Home"])
/// ```
///
/// Conforms to the Mustache spec (comments, delimiters, interpolation, inverted, partials,
/// sections, inheritance, dynamic names; no lambdas). Contexts are `MustacheTable`, `[String: Any]`,
/// `[String: Any?]`, arrays, strings, numbers, `Bool`, nil and `MustacheBoxable` values.
/// Sections skip falsey values: nil, false, "", 0, empty lists (as JavaScript's `!!value`).
/// `{{x}}` escapes `& < > " '`.
public final class TemplateLibrary: Sendable {
    /// The options the library was compiled with.
    public let options: MustacheOptions
    /// The compiled templates; renders refer to them by position.
    let templates: [CompiledTemplate]
    /// The position in `templates` of each template, by name.
    let indexByName: [String: Int]
    /// What each template's rendering can reach, by name, once asked (`usage(of:)`).
    let usages = Mutex<[String: TemplateUsage]>([:])

    /// Compiles every template, resolving static partial and parent names up front.
    ///
    /// Throws every mistake of every template at once, sorted by template, line and column.
    public init(templates sources: [String: String], options: MustacheOptions = []) throws(MustacheErrors) {
        let names = sources.keys.sorted()
        let indexByName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        var templates: [CompiledTemplate] = []
        var errors: [MustacheError] = []
        for (index, name) in names.enumerated() {
            let (template, templateErrors) = CompiledTemplate.compile(
                name: name, text: sources[name] ?? "", index: index, strict: options.contains(.strict),
                resolve: { indexByName[$0] })
            errors += templateErrors
            if let template { templates.append(template) }
        }
        guard errors.isEmpty else { throw MustacheErrors(errors) }
        self.options = options
        self.templates = templates
        self.indexByName = indexByName
    }

    /// The names of all templates, sorted.
    public var templateNames: [String] {
        templates.map(\.name)
    }

    /// Whether the library holds a template called `name`.
    public func contains(_ name: String) -> Bool {
        indexByName[name] != nil
    }

    /// Renders template `name` with `context` (dictionaries, arrays, strings, numbers, `Bool`,
    /// nil or `MustacheBoxable` values).
    public func render(_ name: String, _ context: Any? = nil) throws(MustacheError) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        try render(name, context, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Renders template `name` with `context`, appending UTF-8 bytes to `buffer`.
    public func render(_ name: String, _ context: Any?, into buffer: inout [UInt8]) throws(MustacheError) {
        let index = try templateIndex(name)
        var renderer = Renderer(library: self)
        // What was written before a failure is handed over too: the caller sees how far it got.
        defer { renderer.output.withBytes { buffer.append(contentsOf: $0) } }
        try renderer.render(template: index, context: context)
    }

    /// Renders template `name` with a table as its context, appending UTF-8 bytes to `buffer`;
    /// the same as passing the table as `Any?`, but the table is read where the caller holds it.
    public func render(
        _ name: String, _ context: borrowing MustacheTable, into buffer: inout [UInt8]
    ) throws(MustacheError) {
        let index = try templateIndex(name)
        var renderer = Renderer(library: self)
        defer { renderer.output.withBytes { buffer.append(contentsOf: $0) } }
        try renderer.render(template: index, table: context)
    }

    /// The index of the template called `name`.
    private func templateIndex(_ name: String) throws(MustacheError) -> Int {
        guard let index = indexByName[name] else {
            throw MustacheError(templateName: name, line: 0, column: 0, reason: .templateNotFound(name))
        }
        return index
    }
}
