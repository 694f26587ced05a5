/// The part of a content line before its value: `group.NAME;PARAM=a,"b";BARE` up to the colon.
///
/// Every way real files write parameters is accepted: repeated names (`TYPE=a;TYPE=b`), lists
/// (`TYPE=a,b`), quoted lists (`TYPE="a,b"`), lower case (`type=work`), vCard 2.1's bare values
/// (`TEL;CELL;PREF`), and RFC 6868's `^n`, `^'` and `^^` in values.
///
/// Names and parameters are read from the bytes; one that is not ASCII (rare) is read as a
/// string, Character by Character, since its whitespace and case are Unicode's.
struct ContentLineHeader: Sendable {
    var group: String
    var name: String
    var parameters: [ContentLine.Parameter]
    /// The value encoding the parameters name.
    var encoding: ContentLine.Encoding?
    /// The index of the colon that starts the value.
    var colon: Int

    /// Bare vCard 2.1 parameters that name an encoding rather than a type.
    private static let encodings: Set<String> = ["QUOTED-PRINTABLE", "BASE64", "B", "8BIT", "7BIT"]

    /// Parses the header at the start of an unfolded line; nil when the line has no colon or no
    /// name.
    init?(_ line: UnsafeBufferPointer<UInt8>) {
        let colonByte = UInt8(ascii: ":")
        let semicolon = UInt8(ascii: ";")
        // The name runs to the first `;` or `:`; parameters to the first colon outside quotes.
        var nameEnd = 0
        while nameEnd < line.count, line[nameEnd] != semicolon, line[nameEnd] != colonByte { nameEnd += 1 }
        guard nameEnd < line.count else { return nil }
        var colon: Int?
        var parameters: [ContentLine.Parameter] = []
        if line[nameEnd] == colonByte {
            colon = nameEnd
        } else {
            var inQuotes = false
            var pieceStart = nameEnd + 1
            var position = nameEnd + 1
            while position < line.count {
                let byte = line[position]
                if byte == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if !inQuotes, byte == semicolon || byte == colonByte {
                    ContentLineHeader.appendParameter(line, pieceStart..<position, to: &parameters)
                    if byte == colonByte {
                        colon = position
                        break
                    }
                    pieceStart = position + 1
                }
                position += 1
            }
            if colon == nil, let unquoted = line[(nameEnd + 1)...].firstIndex(of: colonByte) {
                // An unbalanced quote: take the first colon after all, splitting without quotes.
                colon = unquoted
                parameters = []
                var start = nameEnd + 1
                for position in (nameEnd + 1)..<unquoted where line[position] == semicolon {
                    ContentLineHeader.appendParameter(line, start..<position, to: &parameters)
                    start = position + 1
                }
                ContentLineHeader.appendParameter(line, start..<unquoted, to: &parameters)
            }
        }
        guard let colon,
            let (group, name) = ContentLineHeader.groupAndName(
                line, ASCIIBytes.trimmingBlanks(line, 0..<nameEnd))
        else { return nil }
        self.group = group
        self.name = name
        self.colon = colon
        self.parameters = parameters
        encoding = ContentLine.encoding(in: parameters)
    }

    /// The group, lowercased, and the name, uppercased, of `group.NAME`; nil when the name is
    /// empty.
    private static func groupAndName(_ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>)
        -> (group: String, name: String)?
    {
        let bytes = UnsafeBufferPointer(rebasing: line[range])
        guard ASCIIBytes.isASCII(bytes) else {
            var fullName = String(decoding: bytes, as: UTF8.self)
            var group = ""
            if let dot = fullName.firstIndex(of: ".") {
                group = String(fullName[..<dot]).lowercased()
                fullName = String(fullName[fullName.index(after: dot)...])
            }
            return fullName.isEmpty ? nil : (group, fullName.uppercased())
        }
        guard let dot = bytes.firstIndex(of: UInt8(ascii: ".")) else {
            return bytes.isEmpty ? nil : ("", ASCIIBytes.string(bytes, ASCIIBytes.upper))
        }
        guard dot + 1 < bytes.count else { return nil }
        return (
            ASCIIBytes.string(UnsafeBufferPointer(rebasing: bytes[..<dot]), ASCIIBytes.lower),
            ASCIIBytes.string(UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]), ASCIIBytes.upper)
        )
    }

    /// Reads the parameter in `range` (between `;`s) and adds it, unless it is blank.
    private static func appendParameter(
        _ line: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to parameters: inout [ContentLine.Parameter]
    ) {
        let trimmed = ASCIIBytes.trimmingBlanks(line, range)
        guard !trimmed.isEmpty else { return }
        let bytes = UnsafeBufferPointer(rebasing: line[trimmed])
        guard ASCIIBytes.isASCII(bytes) else {
            parameters.append(parameter(String(decoding: bytes, as: UTF8.self)))
            return
        }
        guard let equals = bytes.firstIndex(of: UInt8(ascii: "=")) else {
            let isEncoding =
                ASCIIBytes.equals(bytes, "QUOTED-PRINTABLE") || ASCIIBytes.equals(bytes, "BASE64")
                || ASCIIBytes.equals(bytes, "B") || ASCIIBytes.equals(bytes, "8BIT")
                || ASCIIBytes.equals(bytes, "7BIT")
            let name = isEncoding ? "ENCODING" : "TYPE"
            parameters.append(ContentLine.Parameter(name: name, value: ASCIIBytes.string(bytes)))
            return
        }
        let name = UnsafeBufferPointer(rebasing: bytes[ASCIIBytes.trimmingWhitespace(bytes, 0..<equals)])
        let (value, moreValues) = values(bytes, from: equals + 1)
        parameters.append(
            ContentLine.Parameter(
                name: ASCIIBytes.string(name, ASCIIBytes.upper), value: value, moreValues: moreValues))
    }

    /// The values of ASCII parameter bytes from `start` on: split at commas outside quotes, the
    /// quotes dropped, each trimmed and caret-decoded.
    private static func values(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int)
        -> (first: String, more: [String])
    {
        guard bytes[start...].contains(UInt8(ascii: "\"")) else {
            guard let comma = bytes[start...].firstIndex(of: UInt8(ascii: ",")) else {
                return (value(bytes, start..<bytes.count), [])
            }
            var values: [String] = []
            var valueStart = comma + 1
            for position in valueStart..<bytes.count where bytes[position] == UInt8(ascii: ",") {
                values.append(value(bytes, valueStart..<position))
                valueStart = position + 1
            }
            values.append(value(bytes, valueStart..<bytes.count))
            return (value(bytes, start..<comma), values)
        }
        var values: [String] = []
        var current: [UInt8] = []
        var inQuotes = false
        for byte in bytes[start...] {
            if byte == UInt8(ascii: "\"") {
                inQuotes.toggle()
            } else if byte == UInt8(ascii: ","), !inQuotes {
                values.append(current.withUnsafeBufferPointer { value($0, 0..<$0.count) })
                current.removeAll(keepingCapacity: true)
            } else {
                current.append(byte)
            }
        }
        values.append(current.withUnsafeBufferPointer { value($0, 0..<$0.count) })
        return (values[0], Array(values.dropFirst()))
    }

    /// One value from ASCII bytes, trimmed and caret-decoded.
    private static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let value = UnsafeBufferPointer(rebasing: bytes[ASCIIBytes.trimmingWhitespace(bytes, range)])
        guard value.contains(UInt8(ascii: "^")) else { return ASCIIBytes.string(value) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(value.count)
        var index = 0
        while index < value.count {
            let byte = value[index]
            index += 1
            guard byte == UInt8(ascii: "^"), index < value.count else {
                decoded.append(byte)
                continue
            }
            let next = value[index]
            index += 1
            switch next {
            case UInt8(ascii: "n"), UInt8(ascii: "N"): decoded.append(0x0A)
            case UInt8(ascii: "'"): decoded.append(UInt8(ascii: "\""))
            case UInt8(ascii: "^"): decoded.append(UInt8(ascii: "^"))
            default: decoded += [UInt8(ascii: "^"), next]
            }
        }
        return decoded.withUnsafeBufferPointer { ASCIIBytes.string($0) }
    }

    // MARK: - Parameters that are not ASCII

    /// A parameter from its text, read Character by Character.
    private static func parameter(_ text: String) -> ContentLine.Parameter {
        guard let equals = text.firstIndex(of: "=") else {
            let name = encodings.contains(text.uppercased()) ? "ENCODING" : "TYPE"
            return ContentLine.Parameter(name: name, value: text)
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
        let decoded = values.map { caretDecoded($0.trimmingWhitespace) }
        return ContentLine.Parameter(name: name, value: decoded[0], moreValues: Array(decoded.dropFirst()))
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
}
