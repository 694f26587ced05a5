import ByteKernels

/// Writes the index's pieces as script files: each is one call,
/// `rolodeckSearchPiece('<id>','<JSON text>');`, handing its data to `search.js` as a JSON
/// string, because a `<script>` element is the one way to load data that also works from
/// `file://`.
///
/// The JSON escapes `<`, `>` and `&` (and every control character), so no name in the data
/// can ever read as markup; the single-quoted literal around it escapes `\` and `'`.
enum SearchPieceWriter {
    /// The start of a piece's file, up to its id: a call of the function `search.js` defines
    /// for the pieces.
    private static let head: StaticString = "rolodeckSearchPiece('"
    /// Between the id and the JSON text.
    private static let middle: StaticString = "','"
    /// After the JSON text.
    private static let tail: StaticString = "');\n"

    /// The bytes of a piece's file.
    static func file(id: String, json: [UInt8]) -> [UInt8] {
        var id = id
        return id.withUTF8 { id in
            json.withUnsafeBufferPointer { json in
                var escapes = 0
                forEachQuoteOrBackslash(in: json) { _ in escapes += 1 }
                let total =
                    head.utf8CodeUnitCount + id.count + middle.utf8CodeUnitCount + json.count + escapes
                    + tail.utf8CodeUnitCount
                return [UInt8](unsafeUninitializedCapacity: total) { file, initialized in
                    guard let start = file.baseAddress else { return }
                    var end = start
                    func write(_ bytes: UnsafeBufferPointer<UInt8>) {
                        guard let source = bytes.baseAddress else { return }
                        end.initialize(from: source, count: bytes.count)
                        end += bytes.count
                    }
                    func write(_ text: StaticString) {
                        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
                    }
                    write(head)
                    write(id)
                    write(middle)
                    // A backslash before each quote and backslash, the runs between copied.
                    var copied = 0
                    if escapes > 0 {
                        forEachQuoteOrBackslash(in: json) { index in
                            write(UnsafeBufferPointer(rebasing: json[copied..<index]))
                            end.initialize(to: UInt8(ascii: "\\"))
                            end += 1
                            copied = index
                        }
                    }
                    write(UnsafeBufferPointer(rebasing: json[copied...]))
                    write(tail)
                    initialized = end - start
                }
            }
        }
    }

    /// Calls `body` with the position of every single quote and backslash in `text`, in order,
    /// which the single-quoted literal escapes. Term and hot pieces have none, and rows few, so
    /// the bytes are tested eight at a time.
    @inline(__always)
    static func forEachQuoteOrBackslash(in text: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        var index = 0
        while true {
            index = ByteWord.firstIndex(in: text, from: index) { word in
                ByteWord.bytes(equalTo: UInt8(ascii: "'"), in: word)
                    | ByteWord.bytes(equalTo: UInt8(ascii: "\\"), in: word)
            }
            guard index < text.count else { return }
            body(index)
            index += 1
        }
    }

    /// Appends a JSON string literal.
    static func append(string text: String, to bytes: inout [UInt8]) {
        var buffer = ByteBuffer(capacity: text.utf8.count + 16)
        append(string: text, to: &buffer)
        bytes += buffer.take()
    }

    /// Appends a JSON string literal.
    static func append(string text: String, to buffer: inout ByteBuffer) {
        var text = text
        text.withUTF8 { utf8 in
            buffer.reserve(utf8.count + 2)
            buffer.put(UInt8(ascii: "\""))
            // Copied a run at a time, since most bytes need no escape.
            var copied = 0, index = 0
            while index < utf8.count {
                let byte = utf8[index]
                guard mayNeedEscape(byte) else {
                    index += 1
                    continue
                }
                let length = byte == 0xE2 ? lineSeparatorLength(utf8, at: index) : 1
                guard length > 0 else {
                    index += 1
                    continue
                }
                buffer.append(UnsafeBufferPointer(rebasing: utf8[copied..<index]))
                appendEscape(of: byte, length == 3 ? utf8[index + 2] : 0, to: &buffer)
                index += length
                copied = index
            }
            buffer.append(UnsafeBufferPointer(rebasing: utf8[copied..<index]))
            buffer.reserve(1)
            buffer.put(UInt8(ascii: "\""))
        }
    }

    /// Whether a byte is escaped, or may be: controls, `"`, `&`, `<`, `>`, `\`, DEL, and the
    /// first byte of U+2028 and U+2029 (E2 80 A8 and E2 80 A9), which end a line in older
    /// JavaScript.
    @inline(__always)
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        let controls: UInt64 = 0xFFFF_FFFF
        let low = controls | 1 << 0x22 | 1 << 0x26 | 1 << 0x3C | 1 << 0x3E
        let high: UInt64 = 1 << (0x5C - 64) | 1 << (0x7F - 64)
        switch byte {
        case ..<64: return low >> byte & 1 != 0
        case ..<128: return high >> (byte - 64) & 1 != 0
        default: return byte == 0xE2
        }
    }

    /// 3 when the bytes at `index` are U+2028 or U+2029, else 0.
    private static func lineSeparatorLength(_ utf8: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        guard index + 2 < utf8.count, utf8[index + 1] == 0x80 else { return 0 }
        return utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9 ? 3 : 0
    }

    /// Appends the escape of `byte`, or of the line separator whose last byte is `last`.
    private static func appendEscape(of byte: UInt8, _ last: UInt8, to buffer: inout ByteBuffer) {
        let escape: StaticString
        switch byte {
        case UInt8(ascii: "\""): escape = "\\\""
        case UInt8(ascii: "\\"): escape = "\\\\"
        case UInt8(ascii: "\n"): escape = "\\n"
        case UInt8(ascii: "\r"): escape = "\\r"
        case UInt8(ascii: "\t"): escape = "\\t"
        case UInt8(ascii: "<"): escape = "\\u003c"
        case UInt8(ascii: ">"): escape = "\\u003e"
        case UInt8(ascii: "&"): escape = "\\u0026"
        case 0xE2: escape = last == 0xA8 ? "\\u2028" : "\\u2029"
        default:
            buffer.append("\\u00")
            buffer.reserve(2)
            buffer.put(hexDigits.utf8Start[Int(byte >> 4)])
            buffer.put(hexDigits.utf8Start[Int(byte & 15)])
            return
        }
        buffer.append(escape)
    }

    /// Appends a JSON array of strings.
    static func append(strings: some Sequence<String>, to bytes: inout [UInt8]) {
        var buffer = ByteBuffer()
        append(strings: Array(strings), to: &buffer)
        bytes += buffer.take()
    }

    /// Appends a JSON array of strings.
    static func append(strings: [String], to buffer: inout ByteBuffer) {
        append(count: strings.count, to: &buffer) { index, buffer in
            append(string: strings[index], to: &buffer)
        }
    }

    /// Appends a JSON array of `count` elements, each of which `element` appends.
    @inline(__always)
    static func append(
        count: Int, to buffer: inout ByteBuffer, _ element: (Int, inout ByteBuffer) -> Void
    ) {
        buffer.reserve(1)
        buffer.put(UInt8(ascii: "["))
        for index in 0..<count {
            if index > 0 {
                buffer.reserve(1)
                buffer.put(UInt8(ascii: ","))
            }
            element(index, &buffer)
        }
        buffer.reserve(1)
        buffer.put(UInt8(ascii: "]"))
    }

    private static let hexDigits: StaticString = "0123456789abcdef"
}
