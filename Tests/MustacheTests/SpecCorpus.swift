import Foundation
import Mustache
import Testing

/// One test case of the Mustache spec.
struct SpecCase: Sendable, CustomTestStringConvertible {
    /// The module (spec file) name without `~` and extension, e.g. "inheritance".
    let module: String
    let name: String
    let template: String
    let partials: [String: String]
    let data: JSONValue
    let expected: String

    var testDescription: String { "\(module): \(name)" }

    /// Renders the case with a fresh library in default (non-strict) mode.
    func render() throws -> String {
        let mainName = "(spec template)"
        var templates = partials
        templates[mainName] = template
        let library = try TemplateLibrary(templates: templates)
        return try library.render(mainName, data.context)
    }

    /// Renders the case as `render` does, with every object of the data a `MustacheTable`, so
    /// that values are read where tables hold them; an object at the top is handed over as a
    /// table, not as `Any`.
    func renderWithTables() throws -> String {
        let mainName = "(spec template)"
        var templates = partials
        templates[mainName] = template
        let library = try TemplateLibrary(templates: templates)
        var bytes: [UInt8] = []
        if let object = data.object {
            try library.render(mainName, JSONValue.table(object), into: &bytes)
        } else {
            try library.render(mainName, data.tableContext.value, into: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Whether rendering gives the expected output.
    var passes: Bool {
        (try? render()) == expected
    }
}

/// Locates and loads the spec corpus: `$ROLODECK_CORPORA/mustache-spec`, else
/// `<package root>/../shared/corpora/mustache-spec`.
enum SpecCorpus {
    /// The spec files run, without `.json`; lambdas are not supported.
    static let moduleFiles = [
        "comments", "delimiters", "interpolation", "inverted", "partials", "sections",
        "~dynamic-names", "~inheritance",
    ]

    /// The folder holding the spec JSON files.
    static let directory: URL = {
        if let corpora = ProcessInfo.processInfo.environment["ROLODECK_CORPORA"], !corpora.isEmpty {
            return URL(fileURLWithPath: corpora).appendingPathComponent("mustache-spec")
        }
        return packageRoot.deletingLastPathComponent()
            .appendingPathComponent("shared/corpora/mustache-spec")
    }()

    /// Whether the spec files are there.
    static var isAvailable: Bool {
        moduleFiles.allSatisfy {
            FileManager.default.fileExists(atPath: directory.appendingPathComponent("\($0).json").path)
        }
    }

    /// Every case of every module; empty when the corpus is absent.
    static let cases: [SpecCase] = moduleFiles.flatMap { (try? load($0)) ?? [] }

    /// The module display names, in file order.
    static var modules: [String] { moduleFiles.map(displayName) }

    private static var packageRoot: URL {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder = folder.deletingLastPathComponent()
        }
        return folder
    }

    private static func displayName(_ file: String) -> String {
        file.hasPrefix("~") ? String(file.dropFirst()) : file
    }

    private static func load(_ file: String) throws -> [SpecCase] {
        let data = try Data(contentsOf: directory.appendingPathComponent("\(file).json"))
        let root = JSONValue(
            foundation: try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]))
        return (root.object?["tests"]?.array ?? []).compactMap { test in
            guard let object = test.object, let name = object["name"]?.string,
                let template = object["template"]?.string, let expected = object["expected"]?.string
            else { return nil }
            let partials = (object["partials"]?.object ?? [:]).compactMapValues(\.string)
            return SpecCase(
                module: displayName(file), name: name, template: template, partials: partials,
                data: object["data"] ?? .null, expected: expected)
        }
    }
}
