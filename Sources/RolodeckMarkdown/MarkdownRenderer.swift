import CCmark
import CSystem

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Renders notes with libcmark, the CommonMark reference implementation.
///
/// This is the only file that touches cmark's C API: every node tree, iterator and rendered
/// buffer is made and let go of here (cmark allocates from a note arena), so no C pointer
/// leaves it.
public struct MarkdownRenderer: Sendable {
    /// Whether raw HTML in notes passes through; off by default, since notes are user data.
    var allowsRawHTML: Bool
    /// The level a note's highest heading becomes (the others keep their distance to it, up to
    /// h6), so notes fit under the page's own headings without skipping a level; nil keeps the
    /// levels as written.
    var topHeadingLevel: Int?

    /// Creates a renderer; safe (raw HTML dropped, dangerous links made plain text) unless told
    /// otherwise.
    public init(allowsRawHTML: Bool = false, topHeadingLevel: Int? = nil) {
        self.allowsRawHTML = allowsRawHTML
        self.topHeadingLevel = topHeadingLevel
    }

    /// The notes as an HTML fragment.
    public func html(_ markdown: String) -> String {
        withHTML(markdown) { String(cString: $0) } ?? ""
    }

    /// The notes as an HTML fragment in UTF-8 bytes, as cmark writes them: for a page, which
    /// needs bytes, this spares checking every byte again, as making a String of them does.
    public func htmlBytes(_ markdown: String) -> [UInt8] {
        withHTML(markdown) { html in
            let count = strlen(html)
            return UnsafeRawPointer(html).withMemoryRebound(to: UInt8.self, capacity: count) {
                Array(UnsafeBufferPointer(start: $0, count: count))
            }
        } ?? []
    }

    /// Renders the notes and hands cmark's NUL-terminated HTML to `body`; nil for empty notes or
    /// when cmark cannot allocate.
    private func withHTML<Result>(_ markdown: String, _ body: (UnsafePointer<CChar>) -> Result) -> Result? {
        guard !markdown.isEmpty else { return nil }
        return withDocument(markdown) { root in
            // One walk finds what the steps below change; each step leaves the nodes the next
            // one uses in place (only leaves are removed, links only unwrapped), so the steps see
            // what separate walks between them would have found.
            let found = changes(in: root)
            for node in found.doomed {
                cmark_node_unlink(node)
                cmark_node_free(node)
            }
            unwrapDangerousLinks(found.links)
            if let topHeadingLevel { shiftHeadings(found.headings, top: topHeadingLevel) }
            // CMARK_OPT_UNSAFE lets raw HTML and every URL through; in safe mode cmark itself
            // would also empty javascript:, vbscript:, file: and most data: links.
            let options = allowsRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
            // The HTML is in the note's arena, which `withDocument` lets go of.
            guard let rendered = cmark_render_html(root, options) else { return nil }
            return body(rendered)
        }
    }

    /// The notes as plain text (for search): the words of every text and code node, with blocks
    /// and line breaks as single spaces, taken from cmark's tree rather than by pattern matching.
    func plainText(_ markdown: String) -> String {
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
        } ?? ""
    }

    /// Parses the Markdown and hands the tree to `body`; nil if cmark cannot allocate a tree.
    ///
    /// cmark allocates from this thread's note arena (`rolodeck_note_calloc` in CSystem): the
    /// parser, the tree and whatever `body` has cmark make all go at once when `body` is done,
    /// so neither the parser nor the tree is freed node by node.
    private func withDocument<Result>(_ markdown: String, _ body: (OpaquePointer) -> Result?) -> Result? {
        var markdown = markdown
        var memory = cmark_mem(
            calloc: rolodeck_note_calloc, realloc: rolodeck_note_realloc, free: rolodeck_note_free)
        defer { rolodeck_note_arena_reset() }
        return markdown.withUTF8 { buffer in
            withUnsafeMutablePointer(to: &memory) { memory in
                let options = allowsRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
                guard let parser = cmark_parser_new_with_mem(options, memory) else { return nil }
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    cmark_parser_feed(parser, chars.baseAddress, chars.count)
                }
                guard let root = cmark_parser_finish(parser) else { return nil }
                return body(root)
            }
        }
    }

    /// What `html` changes in a tree, in document order.
    private struct Changes {
        /// Raw HTML nodes, and the text between an inline `<script>` or `<style>` and its end tag.
        var doomed: [OpaquePointer] = []
        /// Links and images, whose URLs may need them unwrapped.
        var links: [OpaquePointer] = []
        /// Headings, to shift.
        var headings: [OpaquePointer] = []
    }

    /// Collects, in one walk, the nodes `html` changes: in safe mode every raw HTML node, the
    /// text between an inline `<script>` or `<style>` and its end tag (which would otherwise
    /// show as stray code) and every link and image; with `topHeadingLevel` every heading.
    /// Nodes are collected first because cmark's iterator must not see a node vanish under it.
    private func changes(in root: OpaquePointer) -> Changes {
        var changes = Changes()
        let safe = !allowsRawHTML
        let shifts = topHeadingLevel != nil
        guard safe || shifts, let iterator = cmark_iter_new(root) else { return changes }
        defer { cmark_iter_free(iterator) }
        var skippingUntil: String?
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let type = cmark_node_get_type(node)
            if event == CMARK_EVENT_EXIT {
                // An unclosed inline script ends with its paragraph.
                if type == CMARK_NODE_PARAGRAPH || type == CMARK_NODE_HEADING { skippingUntil = nil }
                continue
            }
            if type == CMARK_NODE_HEADING, shifts { changes.headings.append(node) }
            guard safe else { continue }
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE { changes.links.append(node) }
            if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE {
                changes.doomed.append(node)
                guard type == CMARK_NODE_HTML_INLINE, let literal = cmark_node_get_literal(node) else {
                    continue
                }
                let tag = String(cString: literal).lowercased()
                if let end = skippingUntil, tag.hasPrefix(end) {
                    skippingUntil = nil
                } else if skippingUntil == nil, !tag.hasSuffix("/>") {
                    if tag.hasPrefix("<script") { skippingUntil = "</script" }
                    if tag.hasPrefix("<style") { skippingUntil = "</style" }
                }
            } else if skippingUntil != nil,
                      cmark_node_parent(node).map(cmark_node_get_type) != CMARK_NODE_DOCUMENT,
                      type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE || type == CMARK_NODE_SOFTBREAK
                        || type == CMARK_NODE_LINEBREAK {
                changes.doomed.append(node)
            }
        }
        return changes
    }

    /// Moves `headings` so that the highest of them is at level `top`.
    private func shiftHeadings(_ headings: [OpaquePointer], top: Int) {
        guard let highest = headings.map({ Int(cmark_node_get_heading_level($0)) }).min() else { return }
        for heading in headings {
            let level = Int(cmark_node_get_heading_level(heading)) - highest + top
            cmark_node_set_heading_level(heading, Int32(min(max(level, 1), 6)))
        }
    }

    /// Replaces each link or image whose URL could run code (`javascript:` and the like) by its
    /// text, rather than leaving cmark's empty `href=""`, which would only reload the page.
    private func unwrapDangerousLinks(_ links: [OpaquePointer]) {
        for link in links {
            guard let url = cmark_node_get_url(link), MarkdownRenderer.isDangerous(url) else { continue }
            while let child = cmark_node_first_child(link) {
                cmark_node_insert_before(link, child)
            }
            cmark_node_unlink(link)
            cmark_node_free(link)
        }
    }

    /// `isDangerous` for a C string, read as bytes when it is ASCII (as URLs nearly always
    /// are): leading whitespace and case then need no Unicode tables, and no String is made.
    static func isDangerous(_ url: UnsafePointer<CChar>) -> Bool {
        let count = strlen(url)
        let isASCII = UnsafeRawPointer(url).withMemoryRebound(to: UInt8.self, capacity: count) { start in
            UnsafeBufferPointer(start: start, count: count).allSatisfy { $0 < 0x80 }
        }
        guard isASCII else { return isDangerous(String(cString: url)) }
        return UnsafeRawPointer(url).withMemoryRebound(to: UInt8.self, capacity: count) { start in
            var bytes = UnsafeBufferPointer(start: start, count: count)[...]
            // ASCII whitespace: tab, line feed, vertical tab, form feed, carriage return, space.
            while let first = bytes.first, first == 0x20 || (0x09...0x0D).contains(first) {
                bytes = bytes.dropFirst()
            }
            func hasPrefix(_ prefix: StaticString) -> Bool {
                guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
                let expected = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
                // Lowercase ASCII letters only; the prefixes are lowercase already.
                return zip(bytes, expected).allSatisfy { byte, wanted in
                    ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == wanted
                }
            }
            if hasPrefix("data:") {
                return !(hasPrefix("data:image/png") || hasPrefix("data:image/gif")
                    || hasPrefix("data:image/jpeg") || hasPrefix("data:image/webp"))
            }
            return hasPrefix("javascript:") || hasPrefix("vbscript:") || hasPrefix("file:")
        }
    }

    /// The schemes cmark's safe mode refuses: javascript:, vbscript:, file:, and data: except
    /// for the common image types.
    static func isDangerous(_ url: String) -> Bool {
        let scheme = url.drop { $0.isWhitespace }.lowercased()
        if scheme.hasPrefix("data:") {
            return !["data:image/png", "data:image/gif", "data:image/jpeg", "data:image/webp"].contains {
                scheme.hasPrefix($0)
            }
        }
        return scheme.hasPrefix("javascript:") || scheme.hasPrefix("vbscript:") || scheme.hasPrefix("file:")
    }

    private func isBlock(_ type: cmark_node_type) -> Bool {
        type.rawValue >= CMARK_NODE_FIRST_BLOCK.rawValue && type.rawValue <= CMARK_NODE_LAST_BLOCK.rawValue
    }
}
