/// Partials, parents and block slots: rendering other templates in place.
extension Renderer {
    /// Renders a partial, or a parent when `parent` is given.
    mutating func renderPartial(_ call: PartialCall, parent: Unowned<ParentCall>?) throws(MustacheError) {
        guard let index = try templateIndex(for: call, isParent: parent != nil) else { return }
        nesting += 1
        guard nesting <= Self.nestingLimit else {
            throw templates[call.templateIndex].error(
                at: call.offset, .recursionLimitExceeded(Self.nestingLimit))
        }
        // Indentation only grows while the partial renders, so cutting it back to its length
        // restores it, without a copy of the array to restore.
        let savedIndentationCount = indentation.count
        let savedScope = currentScope
        if !call.indentation.isEmpty { indentation += call.indentation }
        if let parent {
            scopes.append(OverrideScope(parent: parent, enclosing: currentScope))
            currentScope = scopes.count - 1
        }
        try render(template: index)
        if parent != nil { scopes.removeLast() }
        currentScope = savedScope
        restoreIndentation(to: savedIndentationCount)
        nesting -= 1
    }

    /// Renders a block slot: the outermost override for its name, or its default content.
    mutating func renderSlot(_ slot: Block) throws(MustacheError) {
        var body = Unowned(slot)
        var bodyScope = currentScope
        var index = currentScope
        while index >= 0 {
            let scope = scopes[index]
            if let override = scope.parent.with({ $0.override(named: slot.name) }) {
                // Keep looking: the override given furthest out (the child template) wins.
                body = override
                bodyScope = scope.enclosing
            }
            index = scope.enclosing
        }
        let savedIndentationCount = indentation.count
        let savedScope = currentScope
        if let slotIndentation = slot.slotIndentation {
            if !slotIndentation.isEmpty { indentation += slotIndentation }
            if !indentation.isEmpty, isAtLineStart, body.with({ $0.body.startsInline }) {
                // Content written inline in its own source still starts a line in a standalone slot.
                output.append(indentation)
            }
        }
        // An override is rendered in the override scope where it was written, not the slot's.
        currentScope = bodyScope
        try body.with { (body) throws(MustacheError) in try render(body.body) }
        currentScope = savedScope
        restoreIndentation(to: savedIndentationCount)
    }

    /// Takes off the indentation added since it was `count` long.
    private mutating func restoreIndentation(to count: Int) {
        if indentation.count > count { indentation.removeSubrange(count...) }
    }

    /// The template a tag refers to, or nil when it renders nothing.
    @inline(never)
    private func templateIndex(for call: PartialCall, isParent: Bool) throws(MustacheError) -> Int? {
        switch call.target {
        case .resolved(let index):
            return index
        case .missing:
            return nil
        case .dynamic(let name, let written):
            guard let templateName = text(of: resolve(name)) else {
                guard strict else { return nil }
                throw templates[call.templateIndex].error(at: call.offset, .unresolvedDynamicName(written))
            }
            if let index = library.with({ $0.indexByName[templateName] }) { return index }
            guard strict else { return nil }
            let reason: MustacheError.Reason =
                isParent
                ? .missingParent(templateName, dynamicName: written)
                : .missingPartial(templateName, dynamicName: written)
            throw templates[call.templateIndex].error(at: call.offset, reason)
        }
    }

    /// The unescaped interpolation text of a value, or nil for a missing value.
    private func text(of value: Value) -> String? {
        switch value {
        case .null: return nil
        case .string(let string): return string
        default:
            var bytes = OutputBytes(capacity: 32)
            bytes.append(value, escaped: false)
            return bytes.withBytes { String(decoding: $0, as: UTF8.self) }
        }
    }
}

extension [Node] {
    /// Whether the nodes start with content, not with indentation put at their start.
    fileprivate var startsInline: Bool {
        switch first {
        case nil, .lineStart: return false
        case .text(let run): return run.with { $0.lineStarts.first != 0 }
        default: return true
        }
    }
}
