/// Partials, parents and block slots: rendering other templates in place.
extension Renderer {
    /// Renders a partial, or a parent when `overrides` is given.
    mutating func renderPartial(_ call: PartialCall, overrides: [String: Block]?) throws(MustacheError) {
        guard let index = try templateIndex(for: call, isParent: overrides != nil) else { return }
        nesting += 1
        guard nesting <= Self.nestingLimit else {
            throw templates[call.templateIndex].error(
                at: call.offset, .recursionLimitExceeded(Self.nestingLimit))
        }
        let savedIndentation = indentation
        let savedScope = currentScope
        if !call.indentation.isEmpty { indentation += call.indentation }
        if let overrides {
            scopes.append(OverrideScope(overrides: overrides, enclosing: currentScope))
            currentScope = scopes.count - 1
        }
        try render(templates[index].nodes)
        if overrides != nil { scopes.removeLast() }
        currentScope = savedScope
        indentation = savedIndentation
        nesting -= 1
    }

    /// Renders a block slot: the outermost override for its name, or its default content.
    mutating func renderSlot(_ slot: Block) throws(MustacheError) {
        var body = slot.body
        var bodyScope = currentScope
        var index = currentScope
        while index >= 0 {
            let scope = scopes[index]
            if let override = scope.overrides[slot.name] {
                // Keep looking: the override given furthest out (the child template) wins.
                body = override.body
                bodyScope = scope.enclosing
            }
            index = scope.enclosing
        }
        let savedIndentation = indentation
        let savedScope = currentScope
        if let slotIndentation = slot.slotIndentation {
            indentation += slotIndentation
            if !indentation.isEmpty, isAtLineStart, !body.isEmpty, !body.startsWithLineStart {
                // Content written inline in its own source still starts a line in a standalone slot.
                output.append(indentation)
            }
        }
        // An override is rendered in the override scope where it was written, not the slot's.
        currentScope = bodyScope
        try render(body)
        currentScope = savedScope
        indentation = savedIndentation
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
            if let index = indexByName[templateName] { return index }
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
    /// Whether the first node puts indentation at its start.
    fileprivate var startsWithLineStart: Bool {
        switch first {
        case .lineStart: return true
        case .text(let run): return run.object.lineStarts.first == 0
        default: return false
        }
    }
}
