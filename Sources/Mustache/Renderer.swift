/// Renders compiled nodes against a context stack into a byte buffer; one per render call.
struct Renderer: ~Copyable {
    /// Deepest allowed nesting of partials and parents; guards against endless recursion.
    static let nestingLimit = 100

    /// A parent tag whose blocks override slots, and the scope that was current at that tag.
    struct OverrideScope {
        /// The tag, unretained: its compiled template keeps it alive.
        let parent: Unowned<ParentCall>
        /// The scope that was current at the tag, as a position in `scopes`; -1 for none.
        let enclosing: Int
    }

    /// The library rendering, unretained: it renders only from its own methods.
    let library: Unowned<TemplateLibrary>
    /// The library's templates, read where it holds them.
    let templates: UnsafeBufferPointer<CompiledTemplate>
    /// Whether missing partials, parents and dynamic names are errors (`MustacheOptions.strict`).
    let strict: Bool
    /// The rendered bytes.
    var output = OutputBytes()
    /// The contexts names are looked up in, innermost last.
    var stack = ContextStack()
    /// What the standalone partials and slots being rendered add to the start of each line.
    var indentation: [UInt8] = []
    /// Every parent tag being rendered, outermost first.
    var scopes: [OverrideScope] = []
    /// The position in `scopes` of the scope blocks are looked up in; -1 for none.
    var currentScope = -1
    /// How many partials and parents are being rendered inside each other.
    var nesting = 0

    /// Creates a renderer over a library's templates, for a render the library makes.
    ///
    /// Nothing here retains the library or its templates, which every render thread shares (a
    /// retain of a shared object is an atomic write the other cores wait for): the library
    /// lives until its `render` returns, and never changes its `templates` array, so the
    /// array's elements stay where they are.
    init(library: TemplateLibrary) {
        self.library = Unowned(library)
        templates = library.templates.withUnsafeBufferPointer { $0 }
        strict = library.options.contains(.strict)
    }

    /// Renders template `index` with `context` as the bottom of the context stack.
    mutating func render(template index: Int, context: Any?) throws(MustacheError) {
        stack.push(Value(context))
        try render(template: index)
    }

    /// Renders template `index` with `context` as the bottom of the context stack, read where
    /// the caller holds it rather than copied (a copy retains the table's keys, shared by every
    /// table of its shape).
    mutating func render(template index: Int, table context: borrowing MustacheTable) throws(MustacheError) {
        try withUnsafePointer(to: context) { (context) throws(MustacheError) in
            stack.push(.tableItem(context))
            try render(template: index)
        }
    }

    /// Renders the nodes of template `index`.
    mutating func render(template index: Int) throws(MustacheError) {
        try Unowned(templates[index]).with { (template) throws(MustacheError) in try render(template.nodes) }
    }

    /// Renders `nodes` in order. Not inlined, so recursive partials cost little stack per level.
    @inline(never)
    mutating func render(_ nodes: [Node]) throws(MustacheError) {
        // Through a buffer pointer, not `for in`: an iterator holds a copy of the array, and
        // retaining a template's nodes, shared by every render thread, is an atomic write the
        // others wait for; and each node is read in place, not copied out (a switch over its
        // payloads, retaining a partial's).
        try nodes.withUnsafeBufferPointer { (nodes) throws(MustacheError) in
            var index = 0
            while index < nodes.count {
                try render(nodes[index])
                index += 1
            }
        }
    }

    private mutating func render(_ node: Node) throws(MustacheError) {
        switch node {
        case .text(let run):
            // The run's buffers, not the run: passing the object on would retain it for every text.
            let (bytes, lineStarts) = run.with { ($0.bytes, $0.lineStarts) }
            appendText(bytes, lineStarts: lineStarts)
        case .lineStart:
            if !indentation.isEmpty, isAtLineStart { output.append(indentation) }
        case .variable(let name, let escaped):
            switch name.with({ Self.find($0, in: stack.contexts) }) {
            case .stored(let value): output.append(stored: value, escaped: escaped)
            case .made(let value): output.append(value, escaped: escaped)
            }
        case .section(let section):
            try section.with { (section) throws(MustacheError) in
                switch Self.find(section.name, in: stack.contexts) {
                case .stored(let value): try renderSection(stored: value, body: section.body)
                case .made(let value): try renderSection(value, body: section.body)
                }
            }
        case .invertedSection(let section):
            try section.with { (section) throws(MustacheError) in
                if Self.find(section.name, in: stack.contexts).isFalsey { try render(section.body) }
            }
        case .partial(let call):
            try call.with { (call) throws(MustacheError) in try renderPartial(call, parent: nil) }
        case .parent(let parent):
            try parent.with { (call) throws(MustacheError) in try renderPartial(call.call, parent: parent) }
        case .block(let block):
            try block.with { (block) throws(MustacheError) in try renderSlot(block) }
        }
    }

    /// Whether the output is empty or ends with a newline.
    var isAtLineStart: Bool {
        output.count == 0 || output.last == Byte.newline
    }

    /// Appends a text run's `bytes`, indenting the lines that start at `lineStarts`.
    private mutating func appendText(
        _ bytes: UnsafeBufferPointer<UInt8>, lineStarts: UnsafeBufferPointer<Int>
    ) {
        if lineStarts.isEmpty || indentation.isEmpty {
            output.append(bytes)
            return
        }
        var previous = 0
        for start in lineStarts {
            output.append(UnsafeBufferPointer(rebasing: bytes[previous..<start]))
            // A run starting a source line may still continue an output line (an inline partial).
            if start > 0 || isAtLineStart { output.append(indentation) }
            previous = start
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[previous...]))
    }

    /// Looks `name` up: the first part through the context stack, the rest within each result.
    func resolve(_ name: Name) -> Value {
        Self.find(name, in: stack.contexts).value
    }

    /// Looks `name` up in `stack` like `resolve`, but hands a value a table holds over in place,
    /// not copied. Static, so a lookup does not copy the renderer: a method of the renderer
    /// called from a mutating one gets a copy of the whole renderer.
    static func find(_ name: Name, in stack: UnsafeBufferPointer<Value>) -> Found {
        guard let first = name.first else { return top(of: stack) }
        // Each context is looked into where the stack holds it: a copy of a table retains its keys.
        var index = stack.count - 1
        while index >= 0 {
            switch stack[index].probe(first) {
            case .stored(let found):
                return name.rest.isEmpty ? .stored(found) : Self.find(name.rest, within: found)
            case .lookUp:
                if let found = stack[index].value(forKey: first) {
                    return .made(name.rest.isEmpty ? found : Self.resolve(name.rest, after: found))
                }
                index -= 1
            case .missing:
                index -= 1
            }
        }
        return .made(.null)
    }

    /// The implicit iterator `.`: the top of the stack, in place when a table holds it.
    private static func top(of stack: UnsafeBufferPointer<Value>) -> Found {
        let top = stack[stack.count - 1]
        if case .stored(let value) = top { return .stored(value) }
        return .made(top)
    }

    /// Finds the parts after the first of a dotted name within a value a table holds, in place
    /// for as long as the values are tables.
    private static func find(_ keys: [Key], within stored: UnsafePointer<MustacheValue>) -> Found {
        var current = stored
        var index = 0
        while index < keys.count {
            switch current.pointee.value?.probe(keys[index]) ?? .missing {
            case .stored(let next):
                current = next
                index += 1
            case .lookUp:
                guard let next = current.pointee.value?.value(forKey: keys[index]) else {
                    return .made(.null)
                }
                return .made(resolve(keys[(index + 1)...], after: next))
            case .missing:
                return .made(.null)
            }
        }
        return .stored(current)
    }

    /// Resolves the parts after the first of a dotted name within `value` only.
    // Taken, not borrowed: the caller's copy becomes `current`, rather than `current` being a
    // second copy (for a table, two more retains and releases on every dotted name).
    private static func resolve(_ keys: some Collection<Key>, after value: consuming Value) -> Value {
        var current = value
        for key in keys {
            guard let next = current.value(forKey: key) else { return .null }
            current = next
        }
        return current
    }

    /// Renders a section over a value a table holds, reading it where the table holds it: a
    /// table, a string or a flag goes onto the stack as a pointer, a list's tables one by one
    /// where the list holds them. The table (or a value below on the stack) that holds `stored`
    /// stays on the stack until the section is done.
    private mutating func renderSection(
        stored: UnsafePointer<MustacheValue>, body: [Node]
    ) throws(MustacheError) {
        switch stored.pointee.sectionPlan {
        case .items(let items): try renderItems(items, body: body)
        case .inPlace: try renderBody(body, with: .stored(stored))
        case .skip: return
        case .copy: try renderSection(stored.pointee.value ?? .null, body: body)
        }
    }

    /// Renders `body` once for each of `items`, each read where its list holds it: a copy of a
    /// table retains its keys, which every table of its shape shares on both render threads.
    private mutating func renderItems(
        _ items: UnsafeBufferPointer<MustacheTable>, body: [Node]
    ) throws(MustacheError) {
        guard let start = items.baseAddress else { return }
        for index in items.indices { try renderBody(body, with: .tableItem(start + index)) }
    }

    // Taken, not borrowed, for the same reason as `renderBody`'s value: a section over one
    // value (a table, a string) moves the value it looked up onto the stack.
    private mutating func renderSection(_ value: consuming Value, body: [Node]) throws(MustacheError) {
        switch value {
        case .list(let items):
            for item in items { try renderBody(body, with: Value(item)) }
        case .dictionaryList(let items):
            for item in items { try renderBody(body, with: .dictionary(item)) }
        case .stringList(let items):
            for item in items { try renderBody(body, with: .string(item)) }
        case .tableList(let items):
            try items.withUnsafeBufferPointer { (items) throws(MustacheError) in
                try renderItems(items, body: body)
            }
        case .object(let box):
            guard !box.value.mustacheIsFalsey else { return }
            guard let elements = box.value.mustacheListElements else {
                return try renderBody(body, with: value)
            }
            for item in elements { try renderBody(body, with: Value(item)) }
        default:
            if !value.isFalsey { try renderBody(body, with: value) }
        }
    }

    // `value` is taken, not borrowed: most callers make it for this call (an item of a list),
    // so it moves onto the stack without another copy, and the retains and releases one costs.
    private mutating func renderBody(_ body: [Node], with value: consuming Value) throws(MustacheError) {
        stack.push(value)
        try render(body)
        stack.pop()
    }
}
