import FuzzSupport
@testable import RolodeckMarkdown

/// Notes through the libcmark wrapper, as the site renders them: safe HTML (the default),
/// unsafe HTML, headings shifted under a page's own, and the plain text for search.
///
/// In safe mode no raw `<script` and no `javascript:` link or image may come out, whatever the
/// note says: notes are user data.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMarkdown(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let markdown = String(decoding: FuzzInput.bytes(data, size), as: UTF8.self)
    let safe = MarkdownRenderer(topHeadingLevel: 3).html(markdown).lowercased()
    for unsafe in ["<script", "href=\"javascript:", "src=\"javascript:"] {
        FuzzInput.require(!safe.contains(unsafe), "safe HTML holds \(unsafe)")
    }
    _ = MarkdownRenderer(allowsRawHTML: true).htmlBytes(markdown)
    _ = MarkdownRenderer().plainText(markdown)
    return 0
}
