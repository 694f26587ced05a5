/// The content lines of vCards being written, as RFC 2426 (vCard 3.0) wants them: UTF-8, each
/// line ended by CR LF and folded at 75 octets, text values escaped.
struct VCardLines {
    /// The longest a line may be in octets, its CR LF not counted.
    static let foldWidth = 75

    /// What has been written.
    private(set) var bytes: [UInt8] = []

    /// Whether long lines are folded; a card for a QR code is not, since no reader of those
    /// needs it and every fold costs three bytes of the code.
    var folds = true

    /// Creates an empty writer.
    init(folds: Bool = true) {
        self.folds = folds
        bytes.reserveCapacity(512)
    }

    /// Writes `name`, its `parameters` (each `;NAME=value`, written as given) and `value`
    /// (already escaped, as `escaped` and `structured` make it), folded.
    mutating func append(_ name: String, _ parameters: String, _ value: String) {
        var line: [UInt8] = []
        line.reserveCapacity(name.utf8.count + parameters.utf8.count + value.utf8.count + 1)
        line += name.utf8
        line += parameters.utf8
        line.append(UInt8(ascii: ":"))
        line += value.utf8
        appendFolded(line)
    }

    /// Writes a property without parameters.
    mutating func append(_ name: String, _ value: String) {
        append(name, "", value)
    }

    /// Writes one line's bytes, folded so that no line is longer than `foldWidth` octets: a
    /// fold is CR LF and a space, which counts towards the next line's octets. A fold never falls
    /// inside a UTF-8 character, so a line before a fold may be a few octets short of the width.
    private mutating func appendFolded(_ line: [UInt8]) {
        guard folds else {
            bytes += line
            bytes += [0x0D, 0x0A]
            return
        }
        var start = 0
        var room = Self.foldWidth
        while line.count - start > room {
            var end = start + room
            // A continuation byte (10xxxxxx) is the middle of a character: fold before its first byte.
            while end > start, line[end] & 0xC0 == 0x80 { end -= 1 }
            bytes += line[start..<end]
            bytes += [0x0D, 0x0A, UInt8(ascii: " ")]
            start = end
            room = Self.foldWidth - 1
        }
        bytes += line[start...]
        bytes += [0x0D, 0x0A]
    }

    /// Text escaped for a vCard 3.0 value: backslash, comma and semicolon behind a backslash,
    /// every line break (CR LF, CR or LF) as `\n`.
    ///
    /// Byte by byte: every character escaped is ASCII, and no byte of a longer UTF-8 character
    /// is below 0x80, so the bytes between them are copied as they are.
    static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x5C || $0 == 0x2C || $0 == 0x3B || $0 == 0x0A || $0 == 0x0D })
        else { return text }
        var result: [UInt8] = []
        result.reserveCapacity(text.utf8.count + 8)
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\\"), UInt8(ascii: ","), UInt8(ascii: ";"):
                result.append(UInt8(ascii: "\\"))
                result.append(byte)
            case UInt8(ascii: "\r"):
                result.append(UInt8(ascii: "\\"))
                result.append(UInt8(ascii: "n"))
            // The LF of a CR LF was written with its CR.
            case UInt8(ascii: "\n") where previous != UInt8(ascii: "\r"):
                result.append(UInt8(ascii: "\\"))
                result.append(UInt8(ascii: "n"))
            case UInt8(ascii: "\n"):
                break
            default:
                result.append(byte)
            }
            previous = byte
        }
        return String(decoding: result, as: UTF8.self)
    }

    /// A structured value (`N`, `ADR`): each component escaped, so that a comma or semicolon
    /// inside one stays in it, and joined by semicolons.
    static func structured(_ components: [String]) -> String {
        components.map(escaped).joined(separator: ";")
    }

    /// A list value (`CATEGORIES`): each item escaped, joined by commas.
    static func list(_ items: [String]) -> String {
        items.map(escaped).joined(separator: ",")
    }

    /// A parameter value as written: quoted when it holds a character that would end it, with
    /// the characters a quoted value cannot hold (double quotes, control characters) dropped.
    static func parameterValue(_ value: String) -> String {
        let kept = String(
            String.UnicodeScalarView(
                value.unicodeScalars.filter {
                    $0 != "\"" && $0.value >= 0x20 && $0.value != 0x7F
                }))
        let needsQuotes = kept.contains { $0 == ";" || $0 == ":" || $0 == "," }
        return needsQuotes ? "\"" + kept + "\"" : kept
    }
}
