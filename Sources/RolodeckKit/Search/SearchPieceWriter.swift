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
        bytes.reserveCapacity(json.count + 64)
        for byte in json {
            if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "'") { bytes.append(UInt8(ascii: "\\")) }
            bytes.append(byte)
        }
        bytes += "');\n".utf8
        return bytes
    }

    /// Appends a JSON string literal.
    static func append(string text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var utf8 = text.utf8.makeIterator()
        while let byte = utf8.next() {
            switch byte {
            case UInt8(ascii: "\""): bytes += "\\\"".utf8
            case UInt8(ascii: "\\"): bytes += "\\\\".utf8
            case UInt8(ascii: "\n"): bytes += "\\n".utf8
            case UInt8(ascii: "\r"): bytes += "\\r".utf8
            case UInt8(ascii: "\t"): bytes += "\\t".utf8
            case UInt8(ascii: "<"): bytes += "\\u003c".utf8
            case UInt8(ascii: ">"): bytes += "\\u003e".utf8
            case UInt8(ascii: "&"): bytes += "\\u0026".utf8
            case 0..<0x20, 0x7F:
                bytes += "\\u00".utf8
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 15)])
            case 0xE2:
                // U+2028 and U+2029 end a line in older JavaScript: E2 80 A8 / E2 80 A9.
                let second = utf8.next(), third = utf8.next()
                if second == 0x80, let third, third == 0xA8 || third == 0xA9 {
                    bytes += (third == 0xA8 ? "\\u2028" : "\\u2029").utf8
                } else {
                    bytes.append(byte)
                    if let second { bytes.append(second) }
                    if let third { bytes.append(third) }
                }
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
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
