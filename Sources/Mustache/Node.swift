/// One instruction of a compiled template. Every node holds its payload unowned, owned by the
/// compiled template, so walking them retains nothing the other render threads share.
enum Node: Sendable {
    /// Literal text, with the offsets where source lines start (for partial indentation).
    case text(Unowned<TextRun>)
    /// A source line starts here, before a tag: indentation goes here.
    case lineStart
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
    case variable(Unowned<Name>, escaped: Bool)
    /// `{{#name}}…{{/name}}`.
    case section(Unowned<Section>)
    /// `{{^name}}…{{/name}}`.
    case invertedSection(Unowned<Section>)
    /// `{{>name}}`.
    case partial(Unowned<PartialCall>)
    /// `{{<name}}…{{/name}}`.
    case parent(Unowned<ParentCall>)
    /// `{{$name}}…{{/name}}` outside a parent: a slot with default content.
    case block(Unowned<Block>)
}

/// A dotted name, split and hashed once at compile time.
final class Name: Sendable {
    /// The first part, looked up through the context stack; nil for the implicit iterator `.`.
    let first: Key?
    /// The parts after the first, each looked up within the value of the one before.
    let rest: [Key]

    /// Splits `string` at dots; `.` becomes the implicit iterator.
    init(_ string: String) {
        let keys = string == "." ? [] : string.split(separator: ".").map { Key(String($0)) }
        first = keys.first
        rest = Array(keys.dropFirst())
    }

    /// The parts' text.
    var components: [String] {
        guard let first else { return [] }
        return [first.name] + rest.map(\.name)
    }
}

/// A section's name and body, for `{{#name}}` and `{{^name}}`.
final class Section: Sendable {
    /// The name the section looks up.
    let name: Name
    /// What the section renders.
    let body: [Node]

    /// Creates a section.
    init(name: Name, body: [Node]) {
        self.name = name
        self.body = body
    }
}

/// Text to append, and where its source lines start. The bytes live outside Swift arrays, so
/// appending them retains nothing: a template's nodes are shared by every thread rendering it,
/// and a retain on a shared object is an atomic write other cores wait for.
final class TextRun: @unchecked Sendable {
    /// UTF-8 bytes of the text.
    let bytes: UnsafeBufferPointer<UInt8>
    /// Offsets into `bytes` where a source line starts; 0 only when the run starts a line.
    let lineStarts: UnsafeBufferPointer<Int>

    /// Creates a text run.
    init(bytes: [UInt8], lineStarts: [Int]) {
        self.bytes = Self.copy(bytes)
        self.lineStarts = Self.copy(lineStarts)
    }

    deinit {
        bytes.deallocate()
        lineStarts.deallocate()
    }

    private static func copy<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = buffer.initialize(from: elements)
        return UnsafeBufferPointer(buffer)
    }
}

/// A reference a node holds without retaining it, so copying a node costs no atomic operation;
/// the compiled template owns the object (`CompiledTemplate.objects`) for as long as it lives.
struct Unowned<Object: AnyObject & Sendable>: @unchecked Sendable {
    private let reference: Unmanaged<Object>

    /// Refers to `object`, which someone else keeps alive.
    init(_ object: Object) {
        reference = .passUnretained(object)
    }

    /// Calls `body` with the object, without retaining it.
    @inline(__always)
    func with<Result>(_ body: (Object) -> Result) -> Result {
        reference._withUnsafeGuaranteedRef(body)
    }

    /// Calls `body` with the object, without retaining it, passing on what `body` throws.
    @inline(__always)
    func with<Result>(_ body: (Object) throws(MustacheError) -> Result) throws(MustacheError) -> Result {
        // `_withUnsafeGuaranteedRef` only rethrows untyped errors; carry the typed one across.
        var failure: MustacheError?
        let result = reference._withUnsafeGuaranteedRef { object -> Result? in
            do throws(MustacheError) {
                return try body(object)
            } catch {
                failure = error
                return nil
            }
        }
        if let failure { throw failure }
        return result!
    }

    /// The object, retained.
    var object: Object { reference.takeUnretainedValue() }
}
