import ByteKernels

/// The UTF-8 bytes a render writes: the shared `ByteBuffer` (a page is a few hundred small
/// appends, each a capacity check and a copy), with the appends of interpolated values here.
typealias OutputBytes = ByteBuffer

extension OutputBytes {
    /// Appends `string` as UTF-8, HTML-escaping `& < > " '` when `escaped` is true.
    mutating func append(_ string: String, escaped: Bool) {
        // Native strings are UTF-8 already and hand their bytes over in place, without the copy
        // of the string (a retain) that the mutating `withUTF8` needs.
        let done: Void? = string.utf8.withContiguousStorageIfAvailable {
            escaped ? appendEscaped($0) : append($0)
        }
        guard done == nil else { return }
        var string = string
        string.withUTF8 { escaped ? appendEscaped($0) : append($0) }
    }

    /// Appends a context value as interpolation text.
    mutating func append(_ value: Value, escaped: Bool) {
        switch value {
        case .null: return
        case .string(let string): append(string, escaped: escaped)
        case .bytes(let bytes): bytes.withUnsafeBufferPointer { escaped ? appendEscaped($0) : append($0) }
        case .int(let int): appendInteger(int)
        case .double(let double): appendNumber(double)
        case .bool(let bool): append(bool ? "true" : "false")
        case .dictionary(let dictionary): append(String(describing: dictionary), escaped: escaped)
        case .optionalDictionary(let dictionary): append(String(describing: dictionary), escaped: escaped)
        case .list(let list): append(String(describing: list), escaped: escaped)
        case .dictionaryList(let list): append(String(describing: list), escaped: escaped)
        case .stringList(let list): append(String(describing: list), escaped: escaped)
        case .table(let table): append(String(describing: table), escaped: escaped)
        case .tableItem(let table): append(String(describing: table.pointee), escaped: escaped)
        case .stored(let stored): append(stored: stored, escaped: escaped)
        case .tableList(let list): append(String(describing: list), escaped: escaped)
        case .object(let box): append(String(describing: box.value), escaped: escaped)
        case .other(let box): append(String(describing: box.value), escaped: escaped)
        }
    }

    /// Appends a value a table holds as interpolation text, reading it in place.
    mutating func append(stored value: UnsafePointer<MustacheValue>, escaped: Bool) {
        switch value.pointee.storedText {
        case .short(let bytes):
            if appendShort(bytes, escaped: escaped) { return }
        case .long(let bytes):
            return escaped ? appendEscaped(bytes) : append(bytes)
        case .other:
            break
        }
        switch value.pointee.value {
        case .string(let string)?: append(string, escaped: escaped)
        case let value?: append(value, escaped: escaped)
        case nil: return
        }
    }

    /// Appends the decimal digits of `value`.
    mutating func appendInteger(_ value: Int) {
        if value < 0 {
            append(0x2D)
            // Negating Int.min overflows, so go through its magnitude.
            appendDigits(value.magnitude)
        } else {
            appendDigits(UInt(value))
        }
    }

    /// Appends a number the way templates expect: integral values without a fraction.
    mutating func appendNumber(_ value: Double) {
        // Int(value) truncates without libm, which the engine does not link on Linux.
        if value.isFinite, Swift.abs(value) < 1e15, Double(Int(value)) == value {
            appendInteger(Int(value))
        } else {
            append(value.description, escaped: false)
        }
    }

    private mutating func appendDigits(_ value: UInt) {
        var digitCount = 1
        var probe = value / 10
        while probe > 0 {
            digitCount += 1
            probe /= 10
        }
        reserve(digitCount)
        put(count: digitCount) { digits in
            // Written backwards, from the last digit.
            var position = digitCount
            var rest = value
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
                rest /= 10
            } while rest > 0
        }
    }

    /// Appends `bytes` with `& < > " '` replaced by their entities, copying the runs between
    /// them whole: most values have none, and are then one copy.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = UnsafeRawPointer(bytes.baseAddress), bytes.count > 0 else { return }
        if bytes.count < 4 {
            // One to three bytes (initials, a language code) as one word whose other bytes are
            // zero, which is not special.
            if Self.specialBytes(in: ByteWord.load(start, count: bytes.count)) == 0 { return append(bytes) }
        } else if bytes.count <= 16, appendShort(ShortBytes(start, count: bytes.count), escaped: true) {
            return
        }
        var runStart = 0
        while true {
            let special = ByteWord.firstIndex(in: bytes, from: runStart, marked: Self.specialBytes)
            append(UnsafeBufferPointer(rebasing: bytes[runStart..<special]))
            guard special < bytes.count else { return }
            append(Self.entity(for: bytes[special]))
            runStart = special + 1
        }
    }

    /// Appends 4 to 16 bytes, unless `escaped` is true and one of them is special; returns
    /// whether it did.
    @inline(__always)
    private mutating func appendShort(_ bytes: ShortBytes, escaped: Bool) -> Bool {
        reserve(bytes.count)
        if escaped { return put(bytes, unlessMarked: Self.specialBytes) }
        put(bytes)
        return true
    }

    /// Marks the bytes of `word` that escaping replaces: `"` 0x22, `&` 0x26, `'` 0x27,
    /// `<` 0x3C, `>` 0x3E.
    @inline(__always)
    private static func specialBytes(in word: UInt64) -> UInt64 {
        ByteWord.bytes(equalTo: Byte.quote, in: word) | ByteWord.bytes(equalTo: Byte.ampersand, in: word)
            | ByteWord.bytes(equalTo: Byte.apostrophe, in: word)
            | ByteWord.bytes(equalTo: Byte.lessThan, in: word)
            | ByteWord.bytes(equalTo: Byte.greaterThan, in: word)
    }

    /// The entity that replaces one of the bytes `specialBytes(in:)` marks.
    private static func entity(for byte: UInt8) -> StaticString {
        switch byte {
        case Byte.ampersand: return "&amp;"
        case Byte.lessThan: return "&lt;"
        case Byte.greaterThan: return "&gt;"
        case Byte.quote: return "&quot;"
        default: return "&#39;"
        }
    }
}

/// The text of a value a table holds, read without copying the value out: a copy of a long
/// string is a retain, and reading in place takes a switch with no call on the path that reads
/// (see `SectionPlan`).
enum StoredText {
    /// 4 to 16 bytes, held as words.
    case short(ShortBytes)
    /// More bytes, where the value keeps them.
    case long(UnsafeBufferPointer<UInt8>)
    /// Not text, text of fewer than 4 bytes, or a string without contiguous UTF-8: appended
    /// from a copy.
    case other

    /// Reads `bytes`, which stay where they are for as long as the value holding them when
    /// there are more than 16 of them: a string that long is not a small string (those hold 15
    /// bytes at most, in the value itself), so its bytes live in its storage, which the table
    /// holding the string keeps alive and unchanged.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = UnsafeRawPointer(bytes.baseAddress), bytes.count >= 4 else {
            self = .other
            return
        }
        if bytes.count > 16 {
            self = .long(bytes)
        } else {
            self = .short(ShortBytes(source, count: bytes.count))
        }
    }
}

extension MustacheValue {
    /// The value's text, when it is a string or bytes, read where the value is.
    @inline(__always)
    var storedText: StoredText {
        switch value {
        case .string(let string)?:
            return string.utf8.withContiguousStorageIfAvailable(StoredText.init) ?? .other
        case .bytes(let bytes)?: return bytes.withUnsafeBufferPointer(StoredText.init)
        default: return .other
        }
    }
}
