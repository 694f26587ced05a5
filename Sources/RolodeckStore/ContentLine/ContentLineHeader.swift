/// The part of a content line before its value: `group.NAME;PARAM=a,"b";BARE` up to the colon.
///
/// Every way real files write parameters is accepted: repeated names (`TYPE=a;TYPE=b`), lists
/// (`TYPE=a,b`), quoted lists (`TYPE="a,b"`), lower case (`type=work`), vCard 2.1's bare values
/// (`TEL;CELL;PREF`), and RFC 6868's `^n`, `^'` and `^^` in values.
struct ContentLineHeader {
    var group: String
    var name: String
    var parameters: [ContentLine.Parameter]
    /// The index of the colon that starts the value.
    var colon: Int

    /// Bare vCard 2.1 parameters that name an encoding rather than a type.
    private static let encodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"]

    /// Parses the header of an unfolded line; nil when the line has no colon or no name.
    init?(_ line: [UInt8]) {
        let colonByte = UInt8(ascii: ":")
        let semicolon = UInt8(ascii: ";")
        let quote = UInt8(ascii: "\"")
        // The name runs to the first `;` or `:`; parameters to the first colon outside quotes.
        guard let nameEnd = line.firstIndex(where: { $0 == semicolon || $0 == colonByte }) else { return nil }
        var colon: Int?
        var pieces: [Range<Int>] = []
        if line[nameEnd] == colonByte {
            colon = nameEnd
        } else {
            var inQuotes = false
            var pieceStart = nameEnd + 1
            var position = nameEnd + 1
            while position < line.count {
                let byte = line[position]
                if byte == quote {
                    inQuotes.toggle()
                } else if !inQuotes, byte == semicolon {
                    pieces.append(pieceStart..<position)
                    pieceStart = position + 1
                } else if !inQuotes, byte == colonByte {
                    colon = position
                    pieces.append(pieceStart..<position)
                    break
                }
                position += 1
            }
            if colon == nil, let unquoted = line[(nameEnd + 1)...].firstIndex(of: colonByte) {
                // An unbalanced quote: take the first colon after all, splitting without quotes.
                colon = unquoted
                pieces = ContentLineHeader.split(line[(nameEnd + 1)..<unquoted], at: semicolon)
            }
        }
        guard let colon else { return nil }
        var fullName = String(decoding: ContentLineHeader.trimmed(line[..<nameEnd]), as: UTF8.self)
        var group = ""
        if let dot = fullName.firstIndex(of: ".") {
            group = String(fullName[..<dot]).lowercased()
            fullName = String(fullName[fullName.index(after: dot)...])
        }
        guard !fullName.isEmpty else { return nil }
        self.group = group
        self.name = fullName.uppercased()
        self.colon = colon
        self.parameters = pieces.compactMap { ContentLineHeader.parameter(line[$0]) }
    }

    /// The value encoding the parameters name.
    var encoding: ContentLine.Encoding? { ContentLine.encoding(in: parameters) }

    private static func parameter(_ bytes: ArraySlice<UInt8>) -> ContentLine.Parameter? {
        let text = String(decoding: trimmed(bytes), as: UTF8.self)
        guard !text.isEmpty else { return nil }
        guard let equals = text.firstIndex(of: "=") else {
            let name = encodings.contains(text.uppercased()) ? "ENCODING" : "TYPE"
            return ContentLine.Parameter(name: name, values: [text])
        }
        let name = String(text[..<equals]).trimmingWhitespace.uppercased()
        var values: [String] = []
        var current = ""
        var inQuotes = false
        for character in text[text.index(after: equals)...] {
            if character == "\"" {
                inQuotes.toggle()
            } else if character == ",", !inQuotes {
                values.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        values.append(current)
        return ContentLine.Parameter(name: name, values: values.map { caretDecoded($0.trimmingWhitespace) })
    }

    /// The bytes without spaces and tabs around them.
    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, first == 0x20 || first == 0x09 { slice.removeFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice.removeLast() }
        return slice
    }

    /// RFC 6868: `^n` is a line break, `^'` a double quote, `^^` a caret; any other `^` stays.
    static func caretDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "^")) else { return text }
        var result = ""
        var pendingCaret = false
        for character in text {
            if pendingCaret {
                pendingCaret = false
                switch character {
                case "n", "N": result.append("\n")
                case "'": result.append("\"")
                case "^": result.append("^")
                default: result.append("^"); result.append(character)
                }
            } else if character == "^" {
                pendingCaret = true
            } else {
                result.append(character)
            }
        }
        if pendingCaret { result.append("^") }
        return result
    }

    private static func split(_ bytes: ArraySlice<UInt8>, at separator: UInt8) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = bytes.startIndex
        for position in bytes.indices where bytes[position] == separator {
            ranges.append(start..<position)
            start = position + 1
        }
        ranges.append(start..<bytes.endIndex)
        return ranges
    }
}
