/// Appending rendered text to a UTF-8 output buffer, with HTML escaping.
extension Array where Element == UInt8 {
    /// Appends `string` as UTF-8, HTML-escaping `& < > " '` when `escaped` is true.
    mutating func append(_ string: String, escaped: Bool) {
        let done: Void? = string.utf8.withContiguousStorageIfAvailable { buffer in
            if escaped {
                appendEscaped(buffer)
            } else {
                append(contentsOf: buffer)
            }
        }
        if done == nil {
            let bytes = Array(string.utf8)
            bytes.withUnsafeBufferPointer { escaped ? appendEscaped($0) : append(contentsOf: $0) }
        }
    }

    /// Appends a context value as interpolation text.
    mutating func append(_ value: Value, escaped: Bool) {
        switch value {
        case .null: return
        case .string(let string): append(string, escaped: escaped)
        case .int(let int): appendInteger(int)
        case .double(let double): appendNumber(double)
        case .bool(let bool): append(bool ? "true" : "false")
        case .dictionary(let dictionary): append(String(describing: dictionary), escaped: escaped)
        case .optionalDictionary(let dictionary): append(String(describing: dictionary), escaped: escaped)
        case .list(let list): append(String(describing: list), escaped: escaped)
        case .dictionaryList(let list): append(String(describing: list), escaped: escaped)
        case .stringList(let list): append(String(describing: list), escaped: escaped)
        case .table(let table): append(String(describing: table), escaped: escaped)
        case .tableList(let list): append(String(describing: list), escaped: escaped)
        case .object(let box): append(String(describing: box.value), escaped: escaped)
        case .other(let box): append(String(describing: box.value), escaped: escaped)
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

    /// Appends the bytes of a static string.
    mutating func append(_ string: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

    private mutating func appendDigits(_ value: UInt) {
        var low = count
        var rest = value
        repeat {
            append(UInt8(truncatingIfNeeded: rest % 10) + 0x30)
            rest /= 10
        } while rest > 0
        var high = count - 1
        while low < high {
            swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    private mutating func appendEscaped(_ buffer: UnsafeBufferPointer<UInt8>) {
        var runStart = 0
        for index in 0..<buffer.count {
            let replacement: StaticString
            switch buffer[index] {
            case Byte.ampersand: replacement = "&amp;"
            case Byte.lessThan: replacement = "&lt;"
            case Byte.greaterThan: replacement = "&gt;"
            case Byte.quote: replacement = "&quot;"
            case Byte.apostrophe: replacement = "&#39;"
            default: continue
            }
            append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart..<index]))
            append(replacement)
            runStart = index + 1
        }
        append(contentsOf: UnsafeBufferPointer(rebasing: buffer[runStart...]))
    }
}
