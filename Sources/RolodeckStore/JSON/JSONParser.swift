import ByteKernels
import RolodeckCore

/// A strict RFC 8259 JSON parser over bytes that records where every value starts.
///
/// Foundation's decoders say "the data couldn't be read" without a place; a user editing
/// `contacts.json` by hand needs the line and column, so the store has its own parser.
struct JSONParser {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private var scratch: [UInt8] = []
    /// Whether every string so far was well-formed UTF-8 (ill-formed bytes read as U+FFFD).
    private var isValidUTF8 = true
    private let maximumDepth = 512
    /// Keys taken from a table instead of being made anew, when the caller has one.
    let keys: JSONKeyTable?

    /// Parses a whole document: one value, surrounded only by whitespace (and a leading BOM).
    /// Keys found in `keys` are that table's strings (equal to the strings they would be anyway).
    static func parse(_ bytes: [UInt8], keys: JSONKeyTable? = nil)
        throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> JSONValue in
            var parser = JSONParser(bytes: buffer, keys: keys)
            return try parser.parseDocument()
        }
    }

    /// Parses the one value that fills `range` of `bytes` (surrounding whitespace allowed);
    /// offsets in the result and in errors are offsets into the whole of `bytes`.
    static func parse(_ bytes: [UInt8], range: Range<Int>) throws(JSONSyntaxError) -> JSONValue {
        try parseCheckingUTF8(bytes, range: range).value
    }

    /// Parses like `parse(_:range:)`, and says whether the bytes of `range` are all well-formed
    /// UTF-8. Only a string may hold bytes other than ASCII in a value that parses, and each
    /// string's bytes are checked as the string is made, so this costs no pass of its own.
    static func parseCheckingUTF8(_ bytes: [UInt8], range: Range<Int>, keys: JSONKeyTable? = nil)
        throws(JSONSyntaxError) -> (value: JSONValue, isValidUTF8: Bool) {
        try readCheckingUTF8(bytes, range: range, keys: keys) { (parser) throws(JSONSyntaxError) in
            try parser.parseValue(depth: 0)
        }
    }

    /// Reads the one value that fills `range` of `bytes` as `parseCheckingUTF8` parses it, with
    /// `read`, which must read exactly that value from the parser it is given (at its first byte).
    static func readCheckingUTF8<Value>(
        _ bytes: [UInt8], range: Range<Int>, keys: JSONKeyTable? = nil,
        _ read: (inout JSONParser) throws(JSONSyntaxError) -> Value
    ) throws(JSONSyntaxError) -> (value: Value, isValidUTF8: Bool) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> (Value, Bool) in
            var parser = JSONParser(bytes: UnsafeBufferPointer(rebasing: buffer[..<range.upperBound]),
                                    start: range.lowerBound, keys: keys)
            let value = try parser.readDocument(read)
            return (value, parser.isValidUTF8)
        }
    }

    /// Reads a whole document (one value, surrounded only by whitespace and a leading BOM) as
    /// `parse(_:keys:)` parses it, with `read`, which must read exactly that value.
    static func read<Value>(
        _ bytes: [UInt8], keys: JSONKeyTable? = nil,
        _ read: (inout JSONParser) throws(JSONSyntaxError) -> Value
    ) throws(JSONSyntaxError) -> Value {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> Value in
            var parser = JSONParser(bytes: buffer, keys: keys)
            return try parser.readDocument(read)
        }
    }

    /// Reads a whole document as `read(_:keys:_:)` does, and says whether its bytes are all
    /// well-formed UTF-8 (checked as its strings are made, as `parseCheckingUTF8` does).
    static func readCheckingUTF8<Value>(
        _ bytes: [UInt8], keys: JSONKeyTable? = nil,
        _ read: (inout JSONParser) throws(JSONSyntaxError) -> Value
    ) throws(JSONSyntaxError) -> (value: Value, isValidUTF8: Bool) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> (Value, Bool) in
            var parser = JSONParser(bytes: buffer, keys: keys)
            let value = try parser.readDocument(read)
            return (value, parser.isValidUTF8)
        }
    }

    /// Reads the elements of a top-level array one after another from `start`, where one
    /// begins, each with `read`, which must read exactly that element. Stops before the first
    /// element that starts at or after `stop` and returns where that one starts, or nil when the
    /// array ends first, with only whitespace after it. Also says whether the elements' bytes are
    /// all UTF-8.
    static func readElements(
        _ bytes: [UInt8], from start: Int, stoppingAt stop: Int, keys: JSONKeyTable? = nil,
        _ read: (inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) -> (next: Int?, isValidUTF8: Bool) {
        try bytes.withUnsafeBufferPointer { (buffer) throws(JSONSyntaxError) -> (Int?, Bool) in
            var parser = JSONParser(bytes: buffer, start: start, keys: keys)
            while true {
                try read(&parser)
                parser.skipWhitespace()
                guard parser.index < buffer.count else {
                    throw JSONSyntaxError(.unexpectedEnd(expected: "',' or ']'"), at: parser.index)
                }
                switch buffer[parser.index] {
                case UInt8(ascii: ","):
                    parser.index += 1
                    parser.skipWhitespace()
                    if parser.index >= stop { return (parser.index, parser.isValidUTF8) }
                case UInt8(ascii: "]"):
                    parser.index += 1
                    parser.skipWhitespace()
                    if parser.index < buffer.count {
                        let found = parser.describeByte(at: parser.index)
                        throw JSONSyntaxError(.trailingContent(found), at: parser.index)
                    }
                    return (nil, parser.isValidUTF8)
                default:
                    let found = parser.describeByte(at: parser.index)
                    throw JSONSyntaxError(
                        .unexpectedCharacter(found, expected: "',' or ']'"), at: parser.index)
                }
            }
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, keys: JSONKeyTable?) {
        let hasBOM = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        self.init(bytes: bytes, start: hasBOM ? 3 : 0, keys: keys)
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, start: Int, keys: JSONKeyTable?) {
        self.bytes = bytes
        self.index = start
        self.keys = keys
    }

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        try readDocument { (parser) throws(JSONSyntaxError) in try parser.parseValue(depth: 0) }
    }

    private mutating func readDocument<Value>(
        _ read: (inout JSONParser) throws(JSONSyntaxError) -> Value
    ) throws(JSONSyntaxError) -> Value {
        skipWhitespace()
        guard index < bytes.count else { throw JSONSyntaxError(.emptyDocument, at: index) }
        let value = try read(&self)
        skipWhitespace()
        if index < bytes.count {
            throw JSONSyntaxError(.trailingContent(describeByte(at: index)), at: index)
        }
        return value
    }

    /// Where the parser stands: the offset of the next value's first byte, when the parser
    /// stands before a value.
    var offset: Int { index }

    /// The first byte of the value the parser stands before, or nil at the end of the bytes.
    var nextByte: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Parses the value the parser stands before, at `depth` (objects and arrays around it).
    mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd(expected: "a value"), at: index) }
        let start = index
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return JSONValue(.object(try parseObject(depth: depth + 1)), offset: start)
        case UInt8(ascii: "["):
            return JSONValue(.array(try parseArray(depth: depth + 1)), offset: start)
        case UInt8(ascii: "\""):
            return JSONValue(.string(try parseString()), offset: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONValue(.bool(true), offset: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONValue(.bool(false), offset: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONValue(.null, offset: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumber()
        case UInt8(ascii: "/"):
            throw JSONSyntaxError(.comment, at: index)
        default:
            throw JSONSyntaxError(.unexpectedCharacter(describeByte(at: index), expected: "a value"), at: index)
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> [JSONMember] {
        var members: [JSONMember] = []
        try readObject(depth: depth) { (parser, key) throws(JSONSyntaxError) in
            // Room for a {label, value} pair at once, instead of growing from one member; a
            // record (an object at the top or in the top array) has a dozen or so.
            if members.isEmpty { members.reserveCapacity(depth <= 2 ? 16 : 4) }
            members.append(try parser.member(key))
        }
        return members
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> [JSONValue] {
        var elements: [JSONValue] = []
        try readArray(depth: depth) { (parser) throws(JSONSyntaxError) in
            if elements.isEmpty { elements.reserveCapacity(4) }
            elements.append(try parser.parseValue(depth: depth))
        }
        return elements
    }

    /// Reads the object whose `{` the parser stands at, `depth` deep counting itself, a member at
    /// a time, without making a tree of it: `body` is called with each key once the parser
    /// stands before the member's value, and must read that value (`member(_:)` parses it).
    mutating func readObject(
        depth: Int, _ body: (inout JSONParser, JSONMemberKey) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard depth <= maximumDepth else { throw JSONSyntaxError(.tooDeep, at: index) }
        index += 1  // {
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else {
                throw JSONSyntaxError(.unexpectedEnd(expected: "a key in double quotes"), at: index)
            }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") { throw JSONSyntaxError(.trailingComma("}"), at: index) }
                if bytes[index] == UInt8(ascii: "/") { throw JSONSyntaxError(.comment, at: index) }
                throw JSONSyntaxError(.keyNotQuoted(describeByte(at: index)), at: index)
            }
            let keyOffset = index
            let (key, tablePosition) = try parseKey()
            skipWhitespace()
            try expect(UInt8(ascii: ":"), expected: "':' after the key")
            skipWhitespace()
            try body(&self, JSONMemberKey(key: key, keyOffset: keyOffset, depth: depth,
                                          tablePosition: tablePosition))
            skipWhitespace()
            guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd(expected: "',' or '}'"), at: index) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            default:
                throw JSONSyntaxError(.unexpectedCharacter(describeByte(at: index), expected: "',' or '}'"), at: index)
            }
        }
    }

    /// The member whose key was just read: the key with its value, parsed.
    mutating func member(_ key: JSONMemberKey) throws(JSONSyntaxError) -> JSONMember {
        JSONMember(key: key.key, keyOffset: key.keyOffset, value: try parseValue(depth: key.depth))
    }

    /// Reads the array whose `[` the parser stands at, `depth` deep counting itself, an element
    /// at a time: `body` is called when the parser stands at an element's first byte, and must
    /// read the element (at `depth`).
    mutating func readArray(
        depth: Int, _ body: (inout JSONParser) throws(JSONSyntaxError) -> Void
    ) throws(JSONSyntaxError) {
        guard depth <= maximumDepth else { throw JSONSyntaxError(.tooDeep, at: index) }
        index += 1  // [
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw JSONSyntaxError(.trailingComma("]"), at: index)
            }
            try body(&self)
            skipWhitespace()
            guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd(expected: "',' or ']'"), at: index) }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                return
            default:
                throw JSONSyntaxError(.unexpectedCharacter(describeByte(at: index), expected: "',' or ']'"), at: index)
            }
        }
    }

    /// A key: the table's string, and its position there, when its bytes, without escapes, are
    /// one of the table's keys.
    private mutating func parseKey() throws(JSONSyntaxError) -> (key: String, tablePosition: Int?) {
        if let keys {
            let end = JSONStringScanner.nextSpecialByte(in: bytes, from: index + 1)
            let text = UnsafeBufferPointer(rebasing: bytes[(index + 1)..<end])
            if end < bytes.count, bytes[end] == UInt8(ascii: "\""),
               let position = keys.position(matching: text) {
                index = end + 1
                return (keys[position], position)
            }
        }
        return (try parseString(), nil)
    }

    /// Parses the string whose opening quote the parser stands at.
    mutating func parseString() throws(JSONSyntaxError) -> String {
        let open = index
        index += 1  // "
        // Text between escapes is copied a run at a time; without escapes the bytes are the
        // string and are copied once, into it.
        var runStart = index
        var hasEscapes = false
        while true {
            index = JSONStringScanner.nextSpecialByte(in: bytes, from: index)
            guard index < bytes.count else { throw JSONSyntaxError(.unterminatedString, at: open) }
            let byte = bytes[index]
            if byte < 0x20 { throw controlCharacterError(byte, open: open) }
            let run = UnsafeBufferPointer(rebasing: bytes[runStart..<index])
            if byte == UInt8(ascii: "\"") {
                index += 1
                let made: (text: String, isValid: Bool)
                if hasEscapes {
                    scratch.append(contentsOf: run)
                    made = scratch.withUnsafeBufferPointer(Self.makeString)
                } else {
                    made = Self.makeString(run)
                }
                if !made.isValid { isValidUTF8 = false }
                return made.text
            }
            if !hasEscapes {
                scratch.removeAll(keepingCapacity: true)
                // A parser reads one record; notes with line breaks are often this long.
                scratch.reserveCapacity(1024)
                hasEscapes = true
            }
            scratch.append(contentsOf: run)
            try parseEscape()
            runStart = index
        }
    }

    /// A string from UTF-8, with U+FFFD for each ill-formed sequence, and whether there was none.
    private static func makeString(_ utf8: UnsafeBufferPointer<UInt8>) -> (text: String, isValid: Bool) {
        // Most strings of a record (labels, ids, phone numbers) are short and ASCII: a String of up
        // to 15 ASCII bytes is made in place without validating them, and ASCII is well-formed.
        if utf8.count <= 15, isASCII(utf8) {
            let text = String(unsafeUninitializedCapacity: utf8.count) { buffer in
                buffer.initialize(fromContentsOf: utf8)
            }
            return (text, true)
        }
        // Making a String from UTF-8 checks it again, a scalar and several branches at a time
        // outside ASCII (most of a note in Japanese or Korean); the validator's word-at-a-time
        // check is cheaper, and well-formed bytes are then copied into a String unchecked.
        // Ill-formed ones are repaired by the standard library (U+FFFD for each ill-formed
        // sequence).
        let (isWellFormed, isASCII) = UTF8Validator.check(utf8)
        guard isWellFormed else { return (String(decoding: utf8, as: UTF8.self), false) }
        return (TextBytes.string(utf8, isASCII: isASCII), true)
    }

    /// Whether up to 15 bytes are all ASCII, read as two words that may overlap.
    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        if bytes.count >= 4 {
            return !ShortBytes(base, count: bytes.count).contains(marked: ByteWord.nonASCIIBytes)
        }
        var any: UInt8 = 0
        for byte in bytes { any |= byte }
        return any < 0x80
    }

    private func controlCharacterError(_ byte: UInt8, open: Int) -> JSONSyntaxError {
        // A raw line break inside a string usually means a missing closing quote.
        if byte == UInt8(ascii: "\n") { return JSONSyntaxError(.unterminatedString, at: open) }
        return JSONSyntaxError(.controlCharacter(byte), at: index)
    }

    private mutating func parseEscape() throws(JSONSyntaxError) {
        let escapeStart = index
        index += 1
        guard index < bytes.count else { throw JSONSyntaxError(.unterminatedString, at: escapeStart) }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): scratch.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): scratch.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): scratch.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): scratch.append(0x08)
        case UInt8(ascii: "f"): scratch.append(0x0C)
        case UInt8(ascii: "n"): scratch.append(0x0A)
        case UInt8(ascii: "r"): scratch.append(0x0D)
        case UInt8(ascii: "t"): scratch.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4(escapeStart: escapeStart)
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate needs its low half in a second \u escape.
                if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                    let lowStart = index
                    index += 2
                    let low = try parseHex4(escapeStart: lowStart)
                    if (0xDC00..<0xE000).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else {
                        throw JSONSyntaxError(.unpairedSurrogate, at: escapeStart)
                    }
                } else {
                    throw JSONSyntaxError(.unpairedSurrogate, at: escapeStart)
                }
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw JSONSyntaxError(.unpairedSurrogate, at: escapeStart)
            }
            scratch.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
        default:
            throw JSONSyntaxError(.invalidEscape(describeByte(at: index - 1)), at: escapeStart)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeStart) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw JSONSyntaxError(.invalidUnicodeEscape, at: escapeStart)
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw numberError(from: start) }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, isDigit(bytes[index]) { throw numberError(from: start) }
        } else {
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw numberError(from: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, isDigit(bytes[index]) else { throw numberError(from: start) }
            while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let number = Double(text) else { throw numberError(from: start) }
        return JSONValue(.number(number, text: text), offset: start)
    }

    private mutating func numberError(from start: Int) -> JSONSyntaxError {
        var end = index
        while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
        return JSONSyntaxError(.invalidNumber(text), at: start)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
        let start = index
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                var end = start
                while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
                let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<max(end, start + 1)]), as: UTF8.self)
                throw JSONSyntaxError(.invalidLiteral(word), at: start)
            }
            index += 1
        }
        if index < bytes.count, !isDelimiter(bytes[index]) {
            var end = index
            while end < bytes.count, !isDelimiter(bytes[end]) { end += 1 }
            let word = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
            throw JSONSyntaxError(.invalidLiteral(word), at: start)
        }
    }

    private mutating func expect(_ byte: UInt8, expected: String) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw JSONSyntaxError(.unexpectedEnd(expected: expected), at: index) }
        guard bytes[index] == byte else {
            throw JSONSyntaxError(.unexpectedCharacter(describeByte(at: index), expected: expected), at: index)
        }
        index += 1
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x0A, 0x0D, 0x09, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"):
            return true
        default:
            return false
        }
    }

    /// The character at an offset as a message shows it: `'x'`, or a code point for the invisible.
    private func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        if byte < 0x80 { return "U+" + hex(UInt32(byte)) }
        // Decode the whole scalar so a stray "ü" is named, not its first byte.
        var iterator = UnsafeBufferPointer(rebasing: bytes[offset...]).makeIterator()
        var decoder = UTF8()
        if case .scalarValue(let scalar) = decoder.decode(&iterator) {
            return "'\(Character(scalar))' (U+\(hex(scalar.value)))"
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
