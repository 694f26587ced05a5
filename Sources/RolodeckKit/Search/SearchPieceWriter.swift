/// Writes the index's pieces as script files: each is one call,
/// `rolodeckSearchPiece('<id>','<JSON text>');`, handing its data to `search.js` as a JSON
/// string, because a `<script>` element is the one way to load data that also works from
/// `file://`.
///
/// The JSON escapes `<`, `>` and `&` (and every control character), so no name in the data
/// can ever read as markup; the single-quoted literal around it escapes `\` and `'`.
enum SearchPieceWriter {
    /// The function `search.js` defines for the pieces to call.
    static let callback = "rolodeckSearchPiece"

    /// The bytes of a piece's file.
    static func file(id: String, json: [UInt8]) -> [UInt8] {
        var bytes = Array("\(callback)('\(id)','".utf8)
        bytes.reserveCapacity(bytes.count + json.count + 64)
        json.withUnsafeBufferPointer { json in
            appendEscaping(json, to: &bytes) { json, index in
                json[index] == UInt8(ascii: "\\") || json[index] == UInt8(ascii: "'")
                    ? (Array("\\".utf8) + [json[index]], 1) : nil
            }
        }
        bytes += "');\n".utf8
        return bytes
    }

    /// Appends a JSON string literal.
    static func append(string text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            appendEscaping(utf8, to: &bytes) { utf8, index in
                switch utf8[index] {
                case UInt8(ascii: "\""): (Array("\\\"".utf8), 1)
                case UInt8(ascii: "\\"): (Array("\\\\".utf8), 1)
                case UInt8(ascii: "\n"): (Array("\\n".utf8), 1)
                case UInt8(ascii: "\r"): (Array("\\r".utf8), 1)
                case UInt8(ascii: "\t"): (Array("\\t".utf8), 1)
                case UInt8(ascii: "<"): (Array("\\u003c".utf8), 1)
                case UInt8(ascii: ">"): (Array("\\u003e".utf8), 1)
                case UInt8(ascii: "&"): (Array("\\u0026".utf8), 1)
                case let byte where byte < 0x20 || byte == 0x7F:
                    (Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 15)]], 1)
                case 0xE2
                where index + 2 < utf8.count && utf8[index + 1] == 0x80
                    && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    // U+2028 and U+2029 end a line in older JavaScript: E2 80 A8 / E2 80 A9.
                    (Array((utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029").utf8), 3)
                default: nil
                }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends `text`, copying the bytes that need no escape a run at a time: `escape` gives
    /// the replacement of the bytes at an index and how many it replaces, or nil to keep the
    /// byte as it is.
    private static func appendEscaping(
        _ text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8],
        escape: (UnsafeBufferPointer<UInt8>, Int) -> (replacement: [UInt8], length: Int)?
    ) {
        var copied = 0, index = 0
        while index < text.count {
            guard let (replacement, length) = escape(text, index) else {
                index += 1
                continue
            }
            bytes += UnsafeBufferPointer(rebasing: text[copied..<index])
            bytes += replacement
            index += length
            copied = index
        }
        bytes += UnsafeBufferPointer(rebasing: text[copied..<index])
    }

    /// Appends a JSON array of strings.
    static func append(strings: some Sequence<String>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "["))
        for (index, text) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            append(string: text, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
