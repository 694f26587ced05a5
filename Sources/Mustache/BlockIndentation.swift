/// Implements block re-indentation for inheritance: a standalone block's own indentation is
/// removed where it is defined, and the slot's indentation is added where it is rendered.
enum BlockIndentation {
    /// Processes every standalone block in the tree, outer blocks before inner ones.
    static func apply(to draft: Draft) {
        for item in draft.items {
            guard case .container(let child) = item else { continue }
            if child.kind == .block, child.token.isStandalone {
                if let common = commonIndentation(of: child.items) {
                    strip(common.count, from: child)
                    child.slotIndentation = common
                } else {
                    // Without content lines, the tag's own indentation says where the slot sits.
                    child.slotIndentation = child.token.indentation
                }
            }
            apply(to: child)
        }
    }

    /// The longest whitespace prefix shared by all non-blank lines, or nil without such lines.
    private static func commonIndentation(of items: [DraftItem]) -> [UInt8]? {
        var common: [UInt8]?
        forEachLine(in: items) { leading, isBlank in
            guard !isBlank else { return }
            guard let shared = common else {
                common = leading
                return
            }
            var length = 0
            while length < shared.count, length < leading.count, shared[length] == leading[length] {
                length += 1
            }
            common = Array(shared[0..<length])
        }
        return common
    }

    /// Calls `body` with the leading whitespace of each source line in `items`, recursively.
    private static func forEachLine(
        in items: [DraftItem], _ body: (_ leading: [UInt8], _ isBlank: Bool) -> Void
    ) {
        for (index, item) in items.enumerated() {
            switch item {
            case .lineStart:
                guard index + 1 < items.count, case .text(let text) = items[index + 1] else {
                    body([], false)
                    continue
                }
                let leading = Array(text.prefix(while: Byte.isBlank))
                let rest = text[leading.count...]
                let isBlank =
                    rest.first == Byte.newline || Array(rest) == [Byte.carriageReturn, Byte.newline]
                body(leading, isBlank)
            case .container(let child):
                forEachLine(in: child.items, body)
            default:
                break
            }
        }
    }

    /// Removes up to `count` leading blanks from every source line in `draft`, recursively.
    private static func strip(_ count: Int, from draft: Draft) {
        for index in draft.items.indices {
            switch draft.items[index] {
            case .lineStart:
                guard index + 1 < draft.items.count, case .text(let text) = draft.items[index + 1] else {
                    continue
                }
                var removed = 0
                while removed < count, removed < text.count, Byte.isBlank(text[removed]) { removed += 1 }
                draft.items[index + 1] = .text(Array(text[removed...]))
            case .container(let child):
                strip(count, from: child)
            default:
                break
            }
        }
    }
}
