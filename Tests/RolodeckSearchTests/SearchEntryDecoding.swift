@testable import RolodeckSearch

/// Reads back the contact lists of a piece's entries as `SearchEntryEncoding` wrote them, for
/// the tests to check what the encoding wrote. (A patched index once read its hot prefixes'
/// lists back with it; it now keeps them from the last save.)
enum SearchEntryDecoding {
    /// The value of each byte as a digit: 0–31 for a last digit, 32–63 for an earlier one (and
    /// for a bitmap's six bits), -1 for a byte that is no digit.
    private static let values: [Int8] = {
        var values = [Int8](repeating: -1, count: 256)
        let digits = UnsafeBufferPointer(start: SearchEntryEncoding.digits.utf8Start, count: 64)
        for (value, byte) in digits.enumerated() { values[Int(byte)] = Int8(value) }
        return values
    }()

    /// The lists of every entry of a piece's JSON `text`, each padded to one list per tier, or
    /// nil when the text is not entries between `prefix` and `suffix`.
    static func lists(ofPiece text: [UInt8], prefix: StaticString, suffix: StaticString) -> [[[Int32]]]? {
        let start = prefix.utf8CodeUnitCount, end = text.count - suffix.utf8CodeUnitCount
        guard start <= end else { return nil }
        return text.withUnsafeBufferPointer { text in
            values.withUnsafeBufferPointer { values in
                var reader = Reader(
                    text: UnsafeBufferPointer(rebasing: text[..<end]), values: values, at: start)
                var entries: [[[Int32]]] = []
                while !reader.atEnd {
                    guard let lists = reader.entry() else { return nil }
                    entries.append(lists)
                }
                return entries
            }
        }
    }

    /// Reads entries one after another.
    private struct Reader {
        let text: UnsafeBufferPointer<UInt8>
        let values: UnsafeBufferPointer<Int8>
        var at: Int

        var atEnd: Bool { at >= text.count }

        /// The next entry's lists, one per tier; nil if it is not an entry.
        mutating func entry() -> [[Int32]]? {
            // The key: how many units it shares with the one before, then its other units.
            guard number() != nil else { return nil }
            while at < text.count, text[at] != UInt8(ascii: ":") { at += 1 }
            guard at < text.count else { return nil }
            at += 1
            var lists: [[Int32]] = []
            while at < text.count {
                guard let list = list(), at < text.count else { return nil }
                let byte = text[at]
                at += 1
                if byte == UInt8(ascii: ";") {
                    // An entry without lists is written `key:;`.
                    if !lists.isEmpty || !list.isEmpty { lists.append(list) }
                    guard lists.count <= SearchTier.allCases.count else { return nil }
                    while lists.count < SearchTier.allCases.count { lists.append([]) }
                    return lists
                }
                guard byte == UInt8(ascii: ",") else { return nil }
                lists.append(list)
            }
            return nil
        }

        /// The list at `at`, up to the comma or semicolon after it (left unread).
        private mutating func list() -> [Int32]? {
            var list: [Int32] = []
            guard at < text.count else { return nil }
            if text[at] == UInt8(ascii: "*") {
                at += 1
                guard let first = number(), let last = number(), first <= last else { return nil }
                let digits = (last - first) / 6 + 1
                guard at + digits <= text.count else { return nil }
                for place in 0..<digits {
                    let value = values[Int(text[at + place])]
                    guard value >= 0 else { return nil }
                    var bits = Int(value)
                    while bits != 0 {
                        list.append(Int32(first + 6 * place + bits.trailingZeroBitCount))
                        bits &= bits - 1
                    }
                }
                at += digits
                guard list.last == Int32(last) else { return nil }
                return list
            }
            var previous = -1
            while at < text.count, text[at] != UInt8(ascii: ","), text[at] != UInt8(ascii: ";") {
                guard let gap = number() else { return nil }
                previous += gap + 1
                guard previous <= Int32.max else { return nil }
                list.append(Int32(previous))
            }
            return list
        }

        /// The base-32 number at `at`: earlier digits, then a last one.
        private mutating func number() -> Int? {
            var number = 0
            while at < text.count {
                let value = Int(values[Int(text[at])])
                at += 1
                guard value >= 0, number < 1 << 40 else { return nil }
                number = number << 5 | value & 31
                if value < 32 { return number }
            }
            return nil
        }
    }
}
