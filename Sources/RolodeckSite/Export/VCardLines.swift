/// The content lines of vCards being written, as RFC 2426 (vCard 3.0) wants them: UTF-8, each
/// line ended by CR LF and folded at 75 octets, text values escaped.
///
/// Values are escaped and folded as they are written, byte by byte into one array, not made
/// into an escaped string and a line first: every contact's card is written on every build (its
/// file, and a shorter one for its QR code), and the strings and copies were most of the cost.
struct VCardLines {
    /// The longest a line may be in octets, its CR LF not counted.
    static let foldWidth = 75

    /// What has been written.
    private(set) var bytes: [UInt8] = []

    /// Whether long lines are folded; a card for a QR code is not, since no reader of those
    /// needs it and every fold costs three bytes of the code.
    var folds = true

    /// The octets on the line being written, a fold's leading space included.
    private var lineLength = 0

    /// Creates an empty writer.
    init(folds: Bool = true) {
        self.folds = folds
        bytes.reserveCapacity(512)
    }

    /// Writes `name`, its `parameters` (each `;NAME=value`, written as given) and `value`
    /// (written as given: a value that needs no escaping, or one already escaped), folded.
    mutating func append(_ name: String, _ parameters: String, _ value: String) {
        start(name, parameters)
        put(value)
        end()
    }

    /// Writes a property without parameters whose value is written as given.
    mutating func append(_ name: String, _ value: String) {
        append(name, "", value)
    }

    /// A value to write, and how.
    enum Value {
        /// Text, escaped (`escaped`).
        case text(String)
        /// A structured value (`N`, `ADR`): each component escaped, so that a comma or semicolon
        /// inside one stays in it, and joined by semicolons.
        case structured([String])
        /// A list value (`CATEGORIES`): each item escaped, joined by commas.
        case list([String])
    }

    /// Writes `name`, its `parameters` and `value`, escaped as its kind says, folded.
    mutating func append(_ name: String, _ parameters: String, _ value: Value) {
        start(name, parameters)
        switch value {
        case .text(let text):
            putEscaped(text)
        case .structured(let components):
            putEscaped(components, separator: UInt8(ascii: ";"))
        case .list(let items):
            putEscaped(items, separator: UInt8(ascii: ","))
        }
        end()
    }

    /// Writes a property without parameters whose value is escaped as its kind says.
    mutating func append(_ name: String, _ value: Value) {
        append(name, "", value)
    }

    /// Writes a property without parameters whose value is `text`, escaped (`escaped`).
    mutating func appendText(_ name: String, _ text: String) {
        append(name, "", .text(text))
    }

    /// Writes each of `parts` escaped, with `separator` between them.
    private mutating func putEscaped(_ parts: [String], separator: UInt8) {
        for (index, part) in parts.enumerated() {
            if index > 0 { put(separator) }
            putEscaped(part)
        }
    }

    /// Takes back the lines written since `bytes` held `count` bytes.
    mutating func removeLines(from count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Begins a content line: its name, its parameters and the colon.
    private mutating func start(_ name: String, _ parameters: String) {
        lineLength = 0
        put(name)
        put(parameters)
        put(UInt8(ascii: ":"))
    }

    /// Ends the content line.
    private mutating func end() {
        bytes.append(0x0D)
        bytes.append(0x0A)
    }

    /// Writes `text`'s bytes as they are.
    private mutating func put(_ text: String) {
        var text = text
        text.withUTF8 { put($0) }
    }

    /// Writes one ASCII byte of the line.
    private mutating func put(_ byte: UInt8) {
        withUnsafeBytes(of: byte) { put($0.assumingMemoryBound(to: UInt8.self)) }
    }

    /// Writes a run of the line's bytes (whole UTF-8 characters), folding where the line is
    /// full: a fold is CR LF and a space, which counts towards the next line's octets, and never
    /// falls inside a UTF-8 character, so a line before a fold may be a few octets short of the
    /// width. The bytes between folds are copied at once.
    private mutating func put(_ run: UnsafeBufferPointer<UInt8>) {
        var start = 0
        while start < run.count {
            let room = Self.foldWidth - lineLength
            guard folds, run.count - start > room else {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: run[start...]))
                lineLength += run.count - start
                return
            }
            var end = start + room
            // A continuation byte (10xxxxxx) is the middle of a character: fold before its first byte.
            while end > start, run[end] & 0xC0 == 0x80 { end -= 1 }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: run[start..<end]))
            bytes.append(0x0D)
            bytes.append(0x0A)
            bytes.append(UInt8(ascii: " "))
            lineLength = 1
            start = end
        }
    }

    /// Writes `text` escaped for a vCard 3.0 value: backslash, comma and semicolon behind a
    /// backslash, every line break (CR LF, CR or LF) as `\n`. Every character escaped is ASCII,
    /// and no byte of a longer UTF-8 character is below 0x80, so the runs between them are
    /// copied as they are.
    private mutating func putEscaped(_ text: String) {
        var text = text
        text.withUTF8 { text in
            var runStart = 0
            var index = 0
            while index < text.count {
                let byte = text[index]
                guard byte == 0x5C || byte == 0x2C || byte == 0x3B || byte == 0x0D || byte == 0x0A else {
                    index += 1
                    continue
                }
                put(UnsafeBufferPointer(rebasing: text[runStart..<index]))
                switch byte {
                case 0x0D, 0x0A:
                    put(UInt8(ascii: "\\"))
                    put(UInt8(ascii: "n"))
                    // The LF of a CR LF goes with its CR.
                    if byte == 0x0D, index + 1 < text.count, text[index + 1] == 0x0A { index += 1 }
                default:
                    put(UInt8(ascii: "\\"))
                    put(byte)
                }
                index += 1
                runStart = index
            }
            put(UnsafeBufferPointer(rebasing: text[runStart..<text.count]))
        }
    }

    /// Text escaped for a vCard 3.0 value, as `appendText` writes it.
    static func escaped(_ text: String) -> String {
        var lines = VCardLines(folds: false)
        lines.putEscaped(text)
        return String(decoding: lines.bytes, as: UTF8.self)
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
