/// The UTF-8 bytes a render writes, in memory it manages itself: a page is a few hundred small
/// appends, and `Array.append(contentsOf:)` costs several times the copy it makes (uniqueness
/// and capacity checks, a generic copy loop), so appends here are a capacity check and a copy.
struct OutputBytes: ~Copyable {
    /// The start of the allocation; the first `count` bytes are written.
    private var start: UnsafeMutablePointer<UInt8>
    /// How many bytes are written.
    private(set) var count = 0
    /// How many bytes fit before the allocation must grow.
    private var capacity: Int

    /// An empty buffer with room for `capacity` bytes before it grows.
    init(capacity: Int = 4096) {
        self.capacity = Swift.max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    /// The last byte written; the buffer must not be empty.
    var last: UInt8 { start[count - 1] }

    /// Calls `body` with the bytes written so far.
    func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }

    /// Makes room for `extra` more bytes, at least doubling the allocation when it grows.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if extra > capacity - count { grow(to: count + extra) }
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        let newCapacity = Swift.max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    /// Appends one byte.
    mutating func append(_ byte: UInt8) {
        reserve(1)
        start[count] = byte
        count += 1
    }

    /// Appends `bytes` as they are.
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count)
        if bytes.count <= 16 {
            Self.copyShort(
                UnsafeRawPointer(source), count: bytes.count, to: UnsafeMutableRawPointer(start + count))
        } else {
            (start + count).update(from: source, count: bytes.count)
        }
        count += bytes.count
    }

    /// Copies `count` bytes, at most 16, as two loads and two stores that overlap where `count`
    /// is not a power of two, instead of calling `memmove`: most of a template's text runs
    /// between tags (`</dt><dd>`, `">`) are this short, and the call cost more than the copy.
    @inline(__always)
    private static func copyShort(
        _ source: UnsafeRawPointer, count: Int, to destination: UnsafeMutableRawPointer
    ) {
        if count >= 8 {
            let head = source.loadUnaligned(as: UInt64.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            destination.storeBytes(of: head, as: UInt64.self)
            destination.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else if count >= 4 {
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
            destination.storeBytes(of: head, as: UInt32.self)
            destination.storeBytes(of: tail, toByteOffset: count - 4, as: UInt32.self)
        } else if count > 0 {
            // The first, middle and last byte: all of one, two or three.
            destination.storeBytes(of: source.load(as: UInt8.self), as: UInt8.self)
            destination.storeBytes(
                of: source.load(fromByteOffset: count / 2, as: UInt8.self), toByteOffset: count / 2,
                as: UInt8.self)
            destination.storeBytes(
                of: source.load(fromByteOffset: count - 1, as: UInt8.self), toByteOffset: count - 1,
                as: UInt8.self)
        }
    }

    /// Appends the bytes of an array as they are.
    mutating func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the bytes of a static string.
    mutating func append(_ string: StaticString) {
        append(UnsafeBufferPointer(start: string.utf8Start, count: string.utf8CodeUnitCount))
    }

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
        case .short(let head, let tail, let count):
            if appendShort(head: head, tail: tail, count: count, escaped: escaped) { return }
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
        // Written backwards, from the last digit.
        var position = count + digitCount
        var rest = value
        repeat {
            position -= 1
            start[position] = UInt8(truncatingIfNeeded: rest % 10) + 0x30
            rest /= 10
        } while rest > 0
        count += digitCount
    }

    /// Appends `bytes` with `& < > " '` replaced by their entities, copying the runs between
    /// them whole: most values have none, and are then one copy.
    private mutating func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = UnsafeRawPointer(bytes.baseAddress) else { return }
        if bytes.count >= 4, bytes.count <= 16 {
            let (head, tail) = Self.words(start, count: bytes.count)
            if appendShort(head: head, tail: tail, count: bytes.count, escaped: true) { return }
        }
        var runStart = 0
        var index = 0
        while index < bytes.count {
            // Eight bytes at a time past words without a special byte, as most are.
            if bytes.count - index >= 8 {
                if !Self.hasSpecialByte(start.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                    index += 8
                    continue
                }
            } else if bytes.count >= 8,
                !Self.hasSpecialByte(start.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
            {
                // Fewer than eight bytes are left: the value's last eight, which overlap bytes
                // already looked at, are tested at once instead of one by one.
                index = bytes.count
                continue
            }
            let end = Swift.min(index + 8, bytes.count)
            while index < end {
                let byte = bytes[index]
                // One shift and test sorts out every byte: the five all lie below 64.
                if byte < 64, Self.specialBytes & (1 &<< UInt64(byte)) != 0 {
                    append(UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    append(Self.entity(for: byte))
                    runStart = index + 1
                }
                index += 1
            }
        }
        append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// The `count` bytes at `source`, 4 to 16 of them, as two words that overlap where there are
    /// fewer than 16 (below 8 bytes, two 4-byte halves, widened): most interpolated values are
    /// this short, and are read and written this way with no loop over the bytes and no call.
    @inline(__always)
    static func words(_ source: UnsafeRawPointer, count: Int) -> (head: UInt64, tail: UInt64) {
        if count >= 8 {
            return (
                source.loadUnaligned(as: UInt64.self),
                source.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            )
        }
        return (
            UInt64(source.loadUnaligned(as: UInt32.self)),
            UInt64(source.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self))
        )
    }

    /// Appends 4 to 16 bytes read by `words(_:count:)`, unless `escaped` is true and one of them
    /// is special; returns whether it did.
    @inline(__always)
    private mutating func appendShort(head: UInt64, tail: UInt64, count: Int, escaped: Bool) -> Bool {
        let end: UnsafeMutableRawPointer
        if count >= 8 {
            guard !escaped || !Self.hasSpecialByte(head) && !Self.hasSpecialByte(tail) else { return false }
            reserve(count)
            end = UnsafeMutableRawPointer(start + self.count)
            end.storeBytes(of: head, as: UInt64.self)
            end.storeBytes(of: tail, toByteOffset: count - 8, as: UInt64.self)
        } else {
            // The two halves tested as one word.
            guard !escaped || !Self.hasSpecialByte(head | tail << 32) else { return false }
            reserve(count)
            end = UnsafeMutableRawPointer(start + self.count)
            end.storeBytes(of: UInt32(truncatingIfNeeded: head), as: UInt32.self)
            end.storeBytes(of: UInt32(truncatingIfNeeded: tail), toByteOffset: count - 4, as: UInt32.self)
        }
        self.count += count
        return true
    }

    /// Whether any of the eight bytes of `word` is one of the five in `specialBytes`: a byte of
    /// `word ^ pattern` is zero where `word` has the pattern's byte, and `(x - ones) & ~x & highs`
    /// is nonzero exactly when some byte of `x` is zero.
    @inline(__always)
    private static func hasSpecialByte(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasByte(_ byte: UInt64) -> UInt64 {
            let x = word ^ (ones &* byte)
            return (x &- ones) & ~x & highs
        }
        return (hasByte(0x22) | hasByte(0x26) | hasByte(0x27) | hasByte(0x3C) | hasByte(0x3E)) != 0
    }

    /// A bit for each byte below 64 that escaping replaces: `"` 0x22, `&` 0x26, `'` 0x27,
    /// `<` 0x3C, `>` 0x3E.
    private static let specialBytes: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// The entity that replaces one of the bytes in `specialBytes`.
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
    /// 4 to 16 bytes, as `OutputBytes.words(_:count:)` reads them.
    case short(head: UInt64, tail: UInt64, count: Int)
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
            let (head, tail) = OutputBytes.words(source, count: bytes.count)
            self = .short(head: head, tail: tail, count: bytes.count)
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
