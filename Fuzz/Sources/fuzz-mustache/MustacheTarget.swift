import FuzzSupport
import Mustache

/// Templates compiled and rendered by the Mustache engine.
///
/// The input is up to three templates separated by NUL bytes, named `page`, `partial` and
/// `layout`, so that partials, parents and blocks can name one another. The library is
/// compiled in strict mode when the input's length is odd. Every compile error must point at a
/// line and column inside its template; `page` is rendered with a context that has a value of
/// each kind, its arrays of one element so that nested sections cannot multiply the output.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMustache(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let parts = FuzzInput.bytes(data, size).split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
    let names = ["page", "partial", "layout"]
    var sources: [String: [UInt8]] = [:]
    for (name, part) in zip(names, parts) { sources[name] = Array(part) }
    let library: TemplateLibrary
    do {
        library = try TemplateLibrary(
            templates: sources.mapValues { String(decoding: $0, as: UTF8.self) },
            options: size % 2 == 1 ? .strict : [])
    } catch {
        for mistake in error.errors { requireInside(mistake, sources) }
        FuzzInput.require(!error.errors.isEmpty, "a compile failure without an error")
        return 0
    }
    let person: [String: Any] = ["name": "Ann <b>&\"", "id": 7, "flag": true]
    let context: [String: Any] = [
        "name": "Ann", "html": "<b>bold</b>", "count": 3, "ratio": 0.5, "yes": true, "no": false,
        "none": String?.none as Any, "list": [person], "empty": [Any](), "person": person,
        "nested": ["a": ["b": ["c": "deep"]]], "partial": "partial", "layout": "layout",
    ]
    do {
        _ = try library.render("page", context)
    } catch {
        if error.line > 0 { requireInside(error, sources) }
    }
    return 0
}

/// Checks that a template error names a template of the input and a line and column inside it
/// (columns count Characters, as the engine does).
func requireInside(_ error: MustacheError, _ sources: [String: [UInt8]]) {
    guard let source = sources[error.templateName] else {
        FuzzInput.require(false, "\(error): no template is called \(error.templateName)")
        return
    }
    let lines = FuzzInput.lines(of: source)
    FuzzInput.require(error.line >= 1 && error.line <= lines.count, "\(error): line outside 1...\(lines.count)")
    let characters = String(decoding: source[lines[error.line - 1]], as: UTF8.self).count
    FuzzInput.require(
        error.column >= 1 && error.column <= characters + 1, "\(error): column outside 1...\(characters + 1)")
}
