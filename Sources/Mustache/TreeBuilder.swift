/// Builds the draft tree from tokens: pairs opening and closing tags, resolves static
/// partial names and inserts line-start markers where indentation may go.
struct TreeBuilder {
    private let source: [UInt8]
    private let resolve: (String) -> Int?
    private let strict: Bool
    /// Missing partials and parents found so far (strict mode only).
    private(set) var missingTemplates: [ParseIssue] = []

    /// Creates a builder; `resolve` maps a template name to its index in the library.
    init(source: [UInt8], strict: Bool, resolve: @escaping (String) -> Int?) {
        self.source = source
        self.strict = strict
        self.resolve = resolve
    }

    /// Builds the tree, throwing the first structural mistake.
    mutating func build(_ tokens: [Token]) throws(ParseIssue) -> Draft {
        var stack = [Draft(kind: .root, token: Token(kind: .text, start: 0, end: 0))]
        var atLineStart = true
        for token in tokens where !token.isDropped {
            let current = stack[stack.count - 1]
            if atLineStart, !token.isStandalone {
                // A line that is only a newline gets no indentation, like most implementations.
                if !isNewlineOnly(token) { current.items.append(.lineStart) }
                atLineStart = false
            }
            switch token.kind {
            case .text:
                current.items.append(.text(Array(source[token.start..<token.end])))
                atLineStart = source[token.end - 1] == Byte.newline
            case .variable(let escaped):
                current.items.append(.variable(Name(token.name), escaped: escaped))
            case .comment, .setDelimiters:
                break
            case .section:
                stack.append(Draft(kind: .section, token: token))
            case .invertedSection:
                stack.append(Draft(kind: .invertedSection, token: token))
            case .block:
                stack.append(Draft(kind: .block, token: token))
            case .parent:
                stack.append(Draft(kind: .parent, token: token, target: target(for: token)))
            case .partial:
                let indentation = token.isStandalone ? token.indentation : []
                current.items.append(
                    .partial(target(for: token), indentation: indentation, offset: token.start))
            case .close:
                guard stack.count > 1 else {
                    throw ParseIssue(reason: .unexpectedClosingTag(name: token.name), offset: token.start)
                }
                guard current.token.name == token.name else {
                    let reason = MustacheError.Reason.mismatchedClosingTag(
                        expected: current.token.name, found: token.name)
                    throw ParseIssue(reason: reason, offset: token.start)
                }
                stack.removeLast()
                stack[stack.count - 1].items.append(.container(current))
            }
        }
        if stack.count > 1 {
            let open = stack[stack.count - 1]
            let reason = MustacheError.Reason.unclosedSection(open.sectionKind, name: open.token.name)
            throw ParseIssue(reason: reason, offset: open.token.start)
        }
        return stack[0]
    }

    private func isNewlineOnly(_ token: Token) -> Bool {
        guard token.kind == .text else { return false }
        let length = token.end - token.start
        if length == 1 { return source[token.start] == Byte.newline }
        return length == 2 && source[token.start] == Byte.carriageReturn
            && source[token.start + 1] == Byte.newline
    }

    private mutating func target(for token: Token) -> PartialTarget {
        if token.isDynamic {
            let dotted = String(token.name.dropFirst())
            return .dynamic(Name(dotted), dotted)
        }
        if let index = resolve(token.name) { return .resolved(index) }
        if strict {
            let reason: MustacheError.Reason =
                token.kind == .parent
                ? .missingParent(token.name, dynamicName: nil)
                : .missingPartial(token.name, dynamicName: nil)
            missingTemplates.append(ParseIssue(reason: reason, offset: token.start))
        }
        return .missing(token.name)
    }
}
