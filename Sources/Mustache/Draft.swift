/// A section-like part of a template while it is being compiled; mutable so block
/// indentation can be adjusted before the final nodes are built.
final class Draft {
    /// The kinds of drafts: the template itself and the tags that need a closing tag.
    enum Kind {
        case root
        case section
        case invertedSection
        case parent
        case block
    }

    /// What this draft is.
    let kind: Kind
    /// The opening tag (a placeholder for the root).
    let token: Token
    /// For parents: which template to render.
    let target: PartialTarget?
    /// The content between the opening and closing tag.
    var items: [DraftItem] = []
    /// For standalone blocks: the indentation added to each line where the block is rendered.
    var slotIndentation: [UInt8]?

    /// Creates a draft for an opening tag.
    init(kind: Kind, token: Token, target: PartialTarget? = nil) {
        self.kind = kind
        self.token = token
        self.target = target
    }

    /// The kind used in "unclosed section" errors.
    var sectionKind: MustacheError.SectionKind {
        switch kind {
        case .root, .section: return .section
        case .invertedSection: return .invertedSection
        case .parent: return .parent
        case .block: return .block
        }
    }
}

/// One element of a draft's content.
enum DraftItem {
    /// Literal template text; never spans more than one line.
    case text([UInt8])
    /// The start of a source line: where partial indentation goes.
    case lineStart
    /// An interpolation tag.
    case variable(Name, escaped: Bool)
    /// A partial tag; `indentation` is non-empty only for standalone partials.
    case partial(PartialTarget, indentation: [UInt8], offset: Int)
    /// A nested section, inverted section, parent or block.
    case container(Draft)
}
