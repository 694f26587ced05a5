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
struct SearchEntryEncoding {
    /// 64 characters: 32 final digits, then 32 continuing ones; also the bitmap's digits.
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$".utf8)

    /// The encoded entries so far, as UTF-8.
    private(set) var bytes: [UInt8] = []
    private var previous: ArraySlice<UInt16> = []
    private var tierLists: [[Int32]] = Array(repeating: [], count: SearchTier.allCases.count)

    /// Appends an entry whose lists are a table key's postings.
    mutating func append(key index: Int, of table: SearchTermTable) {
        let postings = table.postings(index)
        if postings.count == 1 {
            // One contact, the commonest entry (tails of email addresses and phone numbers): its
            // tier's commas, then its number, which is its one gap.
            appendKey(table.key(index))
            for _ in 0..<Int(table.tiers[postings.lowerBound].rawValue) { bytes.append(UInt8(ascii: ",")) }
            Self.append(number: Int(table.contacts[postings.lowerBound]), to: &bytes)
            bytes.append(UInt8(ascii: ";"))
            return
        }
        for tier in tierLists.indices { tierLists[tier].removeAll(keepingCapacity: true) }
        for posting in postings {
            tierLists[Int(table.tiers[posting].rawValue)].append(table.contacts[posting])
        }
        append(key: table.key(index), lists: tierLists)
    }

    /// Appends an entry.
    mutating func append(key: ArraySlice<UInt16>, lists: [[Int32]]) {
        appendKey(key)
        let used = (lists.lastIndex { !$0.isEmpty } ?? -1) + 1
        for tier in 0..<used {
            if tier > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.append(list: lists[tier], to: &bytes)
        }
        bytes.append(UInt8(ascii: ";"))
    }

    /// Appends an entry's key, front-coded against the one before, and its colon.
    private mutating func appendKey(_ key: ArraySlice<UInt16>) {
        var shared = 0
        let limit = min(previous.count, key.count)
        while shared < limit, previous[previous.startIndex + shared] == key[key.startIndex + shared] {
            shared += 1
        }
        // Never split a surrogate pair: the rest must be text on its own.
        if shared > 0, shared < key.count, UTF16.isTrailSurrogate(key[key.startIndex + shared]) {
            shared -= 1
        }
        Self.append(number: shared, to: &bytes)
        Self.appendUTF8(key.dropFirst(shared), to: &bytes)
        previous = key
        bytes.append(UInt8(ascii: ":"))
    }

    /// Hands over the entries and starts a new piece (whose first key is not front-coded).
    mutating func finishPiece() -> [UInt8] {
        defer {
            bytes = []
            previous = []
        }
        return bytes
    }

    /// Appends UTF-16 text as UTF-8 (keys never hold a lone surrogate).
    static func appendUTF8(_ units: ArraySlice<UInt16>, to bytes: inout [UInt8]) {
        var index = units.startIndex
        while index < units.endIndex {
            var scalar = UInt32(units[index])
            index += 1
            if UTF16.isLeadSurrogate(UInt16(scalar)), index < units.endIndex {
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (UInt32(units[index]) - 0xDC00)
                index += 1
            }
            // One byte at a time: an array literal per character would be an allocation each.
            switch scalar {
            case ..<0x80:
                bytes.append(UInt8(scalar))
            case ..<0x800:
                bytes.append(UInt8(0xC0 | scalar >> 6))
                bytes.append(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                bytes.append(UInt8(0xE0 | scalar >> 12))
                bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                bytes.append(UInt8(0x80 | scalar & 0x3F))
            default:
                bytes.append(UInt8(0xF0 | scalar >> 18))
                bytes.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                bytes.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                bytes.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
    }

    /// How many digits `append(number:)` writes.
    static func digitCount(_ number: Int) -> Int {
        var count = 1, rest = number >> 5
        while rest > 0 {
            count += 1
            rest >>= 5
        }
        return count
    }

    /// Appends a number in the self-delimiting base-32 form.
    static func append(number: Int, to bytes: inout [UInt8]) {
        precondition(number >= 0)
        var shift = 5 * (digitCount(number) - 1)
        while shift > 0 {
            bytes.append(digits[32 + (number >> shift) & 31])
            shift -= 5
        }
        bytes.append(digits[number & 31])
    }

    /// Appends an ascending list of contacts in whichever form is shorter.
    static func append(list: [Int32], to bytes: inout [UInt8]) {
        guard let first = list.first.map(Int.init), let last = list.last.map(Int.init) else { return }
        var gapLength = 0, previous = -1
        for contact in list {
            gapLength += digitCount(Int(contact) - previous - 1)
            previous = Int(contact)
        }
        let bitmapLength = 1 + digitCount(first) + digitCount(last) + (last - first) / 6 + 1
        if bitmapLength < gapLength {
            var bits = [Int](repeating: 0, count: (last - first) / 6 + 1)
            for contact in list {
                let offset = Int(contact) - first
                bits[offset / 6] |= 1 << (offset % 6)
            }
            bytes.append(UInt8(ascii: "*"))
            append(number: first, to: &bytes)
            append(number: last, to: &bytes)
            for bit in bits { bytes.append(digits[bit]) }
        } else {
            previous = -1
            for contact in list {
                append(number: Int(contact) - previous - 1, to: &bytes)
                previous = Int(contact)
            }
        }
    }
}
