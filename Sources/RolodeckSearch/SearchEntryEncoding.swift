import ByteKernels

/// The compact text of the term and hot pieces: sorted keys with their contact lists, made to
/// sit in a JSON string without a single escape and to be read by a short loop in `search.js`.
///
/// An entry is `<shared><rest>:<name>,<other>,<inside>;` — `shared` is how many UTF-16 units
/// the key has in common with the key before it in the piece (front coding), `rest` the
/// remaining units, then three contact lists, one per `SearchTier`; trailing empty lists and
/// their commas are left out. A list is either ascending numbers (the first as is, every next
/// one as the gap minus one) or, when shorter, `*` followed by its first number, its last number
/// and a bitmap of the numbers from the first on, six per character (lowest bit first).
///
/// Numbers are written in base 32, most significant digit first, with two alphabets: the last
/// digit from `0-9A-V`, every earlier one from `W-Za-z_$`. Keys never contain any of the
/// punctuation used here, because folding keeps only letters and digits.
///
/// There are over a million entries at 100,000 contacts, written on one core, so each is written
/// straight into a buffer that has room reserved for it, not appended to an array byte by byte.
struct SearchEntryEncoding: ~Copyable {
    /// 64 characters: 32 final digits, then 32 continuing ones; also the bitmap's digits.
    static let digits: StaticString = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$"
    /// The most digits a contact number or a key length takes (`Int32.max` has 31 bits).
    private static let maximumDigits = 7

    /// The encoded entries of the piece so far, as UTF-8.
    private var text = ByteBuffer(capacity: 1 << 16)
    /// The key before, to front-code the next one against; none at the start of a piece.
    private var previous: UnsafeMutablePointer<UInt16>
    private var previousCount = 0
    private var previousCapacity = 64
    /// A key's contacts split by tier, when it has more than one: room for every contact in
    /// each tier.
    private var split: UnsafeMutablePointer<Int32>
    private var splitCapacity = 0

    /// An encoding of no entries yet.
    init() {
        previous = .allocate(capacity: previousCapacity)
        split = .allocate(capacity: splitCapacity)
    }

    deinit {
        previous.deallocate()
        split.deallocate()
    }

    /// How many bytes the piece's entries take so far.
    var byteCount: Int { text.count }

    /// Appends an entry whose lists are a table key's postings.
    mutating func append(key index: Int, of table: SearchTermTable) {
        table.withKey(index) { appendKey($0) }
        let postings = table.postings(index)
        table.contacts.withUnsafeBufferPointer { contacts in
            table.tiers.withUnsafeBufferPointer { tiers in
                let contacts = UnsafeBufferPointer(rebasing: contacts[postings])
                let tiers = UnsafeBufferPointer(rebasing: tiers[postings])
                var lowest = tiers[0].rawValue, highest = lowest
                for tier in tiers {
                    lowest = min(lowest, tier.rawValue)
                    highest = max(highest, tier.rawValue)
                }
                // Commonly all in one tier (always so for one contact): its commas, its list.
                if lowest == highest {
                    text.reserve(Int(lowest))
                    for _ in 0..<lowest { text.put(UInt8(ascii: ",")) }
                    append(list: contacts)
                } else {
                    appendSplit(contacts, tiers, count: Int(highest) + 1)
                }
                text.reserve(1)
                text.put(UInt8(ascii: ";"))
            }
        }
    }

    /// Appends the lists of the first `count` tiers of contacts that are in several.
    private mutating func appendSplit(
        _ contacts: UnsafeBufferPointer<Int32>, _ tiers: UnsafeBufferPointer<SearchTier>, count: Int
    ) {
        if splitCapacity < count * contacts.count {
            split.deallocate()
            splitCapacity = max(count * contacts.count, 2 * splitCapacity)
            split = .allocate(capacity: splitCapacity)
        }
        let split = split
        var ends = (0, contacts.count, 2 * contacts.count)
        for index in contacts.indices {
            switch tiers[index] {
            case .name:
                split[ends.0] = contacts[index]
                ends.0 += 1
            case .other:
                split[ends.1] = contacts[index]
                ends.1 += 1
            case .inside:
                split[ends.2] = contacts[index]
                ends.2 += 1
            }
        }
        for tier in 0..<count {
            if tier > 0 {
                text.reserve(1)
                text.put(UInt8(ascii: ","))
            }
            let start = tier * contacts.count, end = tier == 0 ? ends.0 : tier == 1 ? ends.1 : ends.2
            append(list: UnsafeBufferPointer(start: split + start, count: end - start))
        }
    }

    /// Appends an entry.
    mutating func append(key: ArraySlice<UInt16>, lists: [[Int32]]) {
        key.withUnsafeBufferPointer { appendKey($0) }
        let used = (lists.lastIndex { !$0.isEmpty } ?? -1) + 1
        for tier in 0..<used {
            if tier > 0 {
                text.reserve(1)
                text.put(UInt8(ascii: ","))
            }
            lists[tier].withUnsafeBufferPointer { append(list: $0) }
        }
        text.reserve(1)
        text.put(UInt8(ascii: ";"))
    }

    /// Appends an entry encoded before as `bytes`, whose key is `key`: the bytes are those
    /// `append(key:of:)` would write, when the key before it is the one it was encoded after.
    mutating func append(encoded bytes: UnsafeBufferPointer<UInt8>, key: UnsafeBufferPointer<UInt16>) {
        if previousCapacity < key.count {
            previous.deallocate()
            previousCapacity = max(key.count, 2 * previousCapacity)
            previous = .allocate(capacity: previousCapacity)
        }
        if let units = key.baseAddress { previous.update(from: units, count: key.count) }
        previousCount = key.count
        text.append(bytes)
    }

    /// Appends an entry's key, front-coded against the one before, and its colon.
    private mutating func appendKey(_ key: UnsafeBufferPointer<UInt16>) {
        var shared = 0
        if let units = key.baseAddress {
            shared = UTF16Key.commonPrefixCount(previous, units, limit: min(previousCount, key.count))
        }
        // Never split a surrogate pair: the rest must be text on its own.
        if shared > 0, shared < key.count, UTF16.isTrailSurrogate(key[shared]) {
            shared -= 1
        }
        if previousCapacity < key.count {
            let longer = UnsafeMutablePointer<UInt16>.allocate(capacity: max(key.count, 2 * previousCapacity))
            longer.update(from: previous, count: shared)
            previous.deallocate()
            previous = longer
            previousCapacity = max(key.count, 2 * previousCapacity)
        }
        // A unit takes at most three bytes of UTF-8 (a surrogate pair four, for two units).
        text.reserve(Self.digitCount(shared) + 3 * (key.count - shared) + 1)
        put(number: shared)
        // The rest as UTF-8, and in place of the previous key's rest (the shared units are the
        // same already).
        var index = shared
        if let units = key.baseAddress {
            // Four ASCII units a step (nearly every key is ASCII): one word copied, four bytes put.
            while index + 4 <= key.count {
                let word = UnsafeRawPointer(units + index).loadUnaligned(as: UInt64.self)
                guard word & 0xFF80_FF80_FF80_FF80 == 0 else { break }
                UnsafeMutableRawPointer(previous + index).storeBytes(of: word, as: UInt64.self)
                // Each unit's low byte, in order: in memory order on either byte order.
                text.put(
                    bytesOf: UInt32(
                        truncatingIfNeeded: word & 0xFF | word >> 8 & 0xFF00 | word >> 16 & 0xFF_0000
                            | word >> 24 & 0xFF00_0000))
                index += 4
            }
        }
        while index < key.count {
            let unit = key[index]
            previous[index] = unit
            index += 1
            if unit < 0x80 {
                text.put(UInt8(truncatingIfNeeded: unit))
                continue
            }
            var scalar = UInt32(unit)
            if UTF16.isLeadSurrogate(unit), index < key.count {
                previous[index] = key[index]
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(key[index]) - 0xDC00)
                index += 1
            }
            switch scalar {
            case ..<0x800:
                text.put(UInt8(truncatingIfNeeded: 0xC0 | scalar >> 6))
                text.put(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
            case ..<0x10000:
                text.put(UInt8(truncatingIfNeeded: 0xE0 | scalar >> 12))
                text.put(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
                text.put(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
            default:
                text.put(UInt8(truncatingIfNeeded: 0xF0 | scalar >> 18))
                text.put(UInt8(truncatingIfNeeded: 0x80 | scalar >> 12 & 0x3F))
                text.put(UInt8(truncatingIfNeeded: 0x80 | scalar >> 6 & 0x3F))
                text.put(UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F))
            }
        }
        text.put(UInt8(ascii: ":"))
        previousCount = key.count
    }

    /// Hands over the entries, with `prefix` before and `suffix` after them, and starts a new
    /// piece (whose first key is not front-coded).
    mutating func finishPiece(prefix: StaticString = "", suffix: StaticString = "") -> [UInt8] {
        previousCount = 0
        return text.take(prefix: prefix, suffix: suffix)
    }

    /// How many digits `append(number:)` writes: five bits each, at least one.
    @inline(__always)
    static func digitCount(_ number: Int) -> Int {
        (Int.bitWidth - (number | 1).leadingZeroBitCount + 4) / 5
    }

    /// Puts a number in the self-delimiting base-32 form, with room reserved for its digits.
    @inline(__always)
    private mutating func put(number: Int) {
        assert(number >= 0)
        let digits = Self.digits.utf8Start
        var shift = 5 * (Self.digitCount(number) - 1)
        while shift > 0 {
            text.put(digits[32 + (number >> shift) & 31])
            shift -= 5
        }
        text.put(digits[number & 31])
    }

    /// Appends an ascending list of contacts in whichever form is shorter.
    private mutating func append(list: UnsafeBufferPointer<Int32>) {
        guard let first = list.first.map(Int.init), let last = list.last.map(Int.init) else { return }
        if list.count == 1 {
            // The commonest list (tails of email addresses and phone numbers): its one gap.
            text.reserve(Self.maximumDigits)
            put(number: first)
            return
        }
        let digits = Self.digits.utf8Start
        let bitmapLength = 1 + Self.digitCount(first) + Self.digitCount(last) + (last - first) / 6 + 1
        // Every gap takes at least one digit and at most as many as the widest gap can: most
        // lists are clearly sparse or clearly dense, and need no count of their gaps' digits.
        var gapLength = Self.digitCount(first) + (list.count - 1) * Self.digitCount(last - first - 1)
        if bitmapLength < gapLength, list.count <= bitmapLength {
            gapLength = 0
            var previous = -1
            for contact in list {
                gapLength &+= Self.digitCount(Int(contact) &- previous &- 1)
                previous = Int(contact)
            }
        }
        if bitmapLength < gapLength {
            text.reserve(bitmapLength)
            text.put(UInt8(ascii: "*"))
            put(number: first)
            put(number: last)
            // The digits in order: each is written once the contacts reach the next one.
            var digit = 0, bits = 0
            for contact in list {
                let offset = Int(contact) - first
                let place = offset / 6
                while digit < place {
                    text.put(digits[bits])
                    bits = 0
                    digit += 1
                }
                bits |= 1 &<< (offset &- 6 &* place)
            }
            text.put(digits[bits])
        } else {
            text.reserve(gapLength)
            var previous = -1
            for contact in list {
                put(number: Int(contact) &- previous &- 1)
                previous = Int(contact)
            }
        }
    }

    /// Appends a number in the self-delimiting base-32 form.
    static func append(number: Int, to bytes: inout [UInt8]) {
        precondition(number >= 0)
        var encoding = SearchEntryEncoding()
        encoding.text.reserve(digitCount(number))
        encoding.put(number: number)
        bytes += encoding.text.take()
    }

    /// Appends an ascending list of contacts in whichever form is shorter.
    static func append(list: [Int32], to bytes: inout [UInt8]) {
        var encoding = SearchEntryEncoding()
        list.withUnsafeBufferPointer { encoding.append(list: $0) }
        bytes += encoding.text.take()
    }
}
