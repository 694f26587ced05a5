import CCmark

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders notes with libcmark, the CommonMark reference implementation.
///
/// This is the only file that touches cmark's C API: every node tree, iterator and rendered
/// buffer is made and freed here, so no C pointer leaves it.
public struct MarkdownRenderer: Sendable {
    /// Whether raw HTML in notes passes through; off by default, since notes are user data.
    public var allowsRawHTML: Bool
    /// Added to every heading's level (clamped to 6), so a note's `#` fits under the page's own
    /// headings instead of competing with the page title.
    public var headingOffset: Int

    /// Creates a renderer; safe (raw HTML dropped, dangerous links emptied) unless told otherwise.
    public init(allowsRawHTML: Bool = false, headingOffset: Int = 0) {
        self.allowsRawHTML = allowsRawHTML
        self.headingOffset = headingOffset
    }

    /// The notes as an HTML fragment.
    public func html(_ markdown: String) -> String {
        guard !markdown.isEmpty else { return "" }
        return withDocument(markdown) { root in
            if !allowsRawHTML { removeRawHTML(root) }
            if headingOffset != 0 { shiftHeadings(root) }
            // CMARK_OPT_UNSAFE only lets raw HTML and every URL through; in safe mode cmark
            // itself empties javascript:, vbscript:, file: and most data: links.
            let options = allowsRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
            guard let rendered = cmark_render_html(root, options) else { return "" }
            defer { free(rendered) }
            return String(cString: rendered)
        }
    }

    /// The notes as plain text (for search): the words of every text and code node, with blocks
    /// and line breaks as single spaces, taken from cmark's tree rather than by pattern matching.
    public func plainText(_ markdown: String) -> String {
        guard !markdown.isEmpty else { return "" }
        return withDocument(markdown) { root in
            var text = ""
            guard let iterator = cmark_iter_new(root) else { return "" }
            defer { cmark_iter_free(iterator) }
            while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                switch type {
                case CMARK_NODE_TEXT, CMARK_NODE_CODE, CMARK_NODE_CODE_BLOCK:
                    if let literal = cmark_node_get_literal(node) {
                        text += String(cString: literal)
                    }
                    if type == CMARK_NODE_CODE_BLOCK { text += " " }
                case CMARK_NODE_HTML_INLINE, CMARK_NODE_HTML_BLOCK:
                    // Markup is not words; even when it is published, search ignores it.
                    continue
                case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK:
                    text += " "
                default:
                    if event == CMARK_EVENT_EXIT, isBlock(type) { text += " " }
                }
            }
            return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        }
    }

    /// Parses the Markdown and hands the tree to `body`; "" if cmark cannot allocate a tree.
    private func withDocument(_ markdown: String, _ body: (OpaquePointer) -> String) -> String {
        var markdown = markdown
        return markdown.withUTF8 { buffer in
            let options = allowsRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
            let root = buffer.withMemoryRebound(to: CChar.self) { chars in
                cmark_parse_document(chars.baseAddress, chars.count, options)
            }
            guard let root else { return "" }
            defer { cmark_node_free(root) }
            return body(root)
        }
    }

    /// Unlinks and frees every raw HTML node, and the text between an inline `<script>` or
    /// `<style>` and its end tag, which would otherwise show as stray code. Nodes are collected
    /// first because cmark's iterator must not see a node vanish under it.
    private func removeRawHTML(_ root: OpaquePointer) {
        var doomed: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(root) else { return }
        var skippingUntil: String?
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if event == CMARK_EVENT_EXIT {
                // An unclosed inline script ends with its paragraph.
                if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING { skippingUntil = nil }
                continue
            }
            if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE {
                doomed.append(node)
                guard type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node) else { continue }
                let tag = String(cString: literal).lowercased()
                if let end = skippingUntil, tag.hasPrefix(end) {
                    skippingUntil = nil
                } else if skippingUntil == nil, !tag.hasSuffix("/>") {
                    if tag.hasPrefix("<script") { skippingUntil = "</script" }
                    if tag.hasPrefix("<style") { skippingUntil = "</style" }
                }
            } else if skippingUntil != nil, cmark_node_parent(node).map(cmark_node_get_type) != CMARK_NODE_DOCUMENT,
                      type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE || type == CMARK_NODE_SOFTBREAK
                        || type == CMARK_NODE_LINEBREAK {
                doomed.append(node)
            }
        }
        cmark_iter_free(iterator)
        for node in doomed {
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
    }

    private func shiftHeadings(_ root: OpaquePointer) {
        guard let iterator = cmark_iter_new(root) else { return }
        defer { cmark_iter_free(iterator) }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard event == CMARK_EVENT_ENTER, let node = cmark_iter_get_node(iterator),
                  cmark_node_get_type(node) == CMARK_NODE_HEADING else { continue }
            let level = Int(cmark_node_get_heading_level(node)) + headingOffset
            cmark_node_set_heading_level(node, Int32(min(max(level, 1), 6)))
        }
    }

    private func isBlock(_ type: cmark_node_type) -> Bool {
        type.rawValue >= CMARK_NODE_FIRST_BLOCK.rawValue && type.rawValue <= CMARK_NODE_LAST_BLOCK.rawValue
    }
}
