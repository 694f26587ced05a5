/// Turns a finished draft tree into immutable nodes, merging text and line starts into runs.
struct NodeAssembler {
    /// Index of the template being compiled, recorded in partial calls for error locations.
    let templateIndex: Int
    /// The objects the nodes refer to without owning them; the compiled template keeps them.
    private(set) var objects: [any AnyObject & Sendable] = []

    /// Creates an assembler for template `templateIndex`.
    init(templateIndex: Int) {
        self.templateIndex = templateIndex
    }

    /// The nodes for a draft's content.
    mutating func nodes(for items: [DraftItem]) -> [Node] {
        var nodes: [Node] = []
        var run: [UInt8] = []
        var lineStarts: [Int] = []
        var pendingLineStart = false

        func flushRun() {
            guard !run.isEmpty else { return }
            let text = TextRun(bytes: run, lineStarts: lineStarts)
            objects.append(text)
            nodes.append(.text(Unowned(text)))
            run = []
            lineStarts = []
        }

        for item in items {
            switch item {
            case .lineStart:
                pendingLineStart = true
            case .text(let text):
                guard !text.isEmpty else { continue }
                if pendingLineStart {
                    lineStarts.append(run.count)
                    pendingLineStart = false
                }
                run.append(contentsOf: text)
            case .variable, .partial, .container:
                flushRun()
                if pendingLineStart {
                    nodes.append(.lineStart)
                    pendingLineStart = false
                }
                if let node = node(for: item) { nodes.append(node) }
            }
        }
        flushRun()
        if pendingLineStart { nodes.append(.lineStart) }
        return nodes
    }

    private mutating func node(for item: DraftItem) -> Node? {
        switch item {
        case .variable(let name, let escaped):
            objects.append(name)
            return .variable(Unowned(name), escaped: escaped)
        case .partial(let target, let indentation, let offset):
            let call = PartialCall(
                target: target, indentation: indentation, templateIndex: templateIndex, offset: offset)
            objects.append(call)
            return .partial(Unowned(call))
        case .container(let draft):
            return node(for: draft)
        case .text, .lineStart:
            return nil
        }
    }

    private mutating func node(for draft: Draft) -> Node? {
        let name = draft.token.name
        switch draft.kind {
        case .section:
            return .section(section(name, draft))
        case .invertedSection:
            return .invertedSection(section(name, draft))
        case .block:
            let block = block(for: draft)
            objects.append(block)
            return .block(Unowned(block))
        case .parent:
            var overrides: [Block] = []
            // Only blocks directly inside the parent count; any other content is ignored. Of two
            // blocks with one name, the last counts.
            for case .container(let child) in draft.items where child.kind == .block {
                let block = block(for: child)
                if let index = overrides.firstIndex(where: { $0.name == block.name }) {
                    overrides[index] = block
                } else {
                    overrides.append(block)
                }
            }
            let indentation = draft.token.isStandalone ? draft.token.indentation : []
            let call = PartialCall(
                target: draft.target ?? .missing(name), indentation: indentation,
                templateIndex: templateIndex, offset: draft.token.start)
            let parent = ParentCall(call: call, overrides: overrides)
            objects.append(parent)
            return .parent(Unowned(parent))
        case .root:
            return nil
        }
    }

    private mutating func section(_ name: String, _ draft: Draft) -> Unowned<Section> {
        let section = Section(name: Name(name), body: nodes(for: draft.items))
        objects.append(section)
        return Unowned(section)
    }

    private mutating func block(for draft: Draft) -> Block {
        Block(name: draft.token.name, body: nodes(for: draft.items), slotIndentation: draft.slotIndentation)
    }
}
