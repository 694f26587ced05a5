/// ASCII byte constants and tests used while scanning UTF-8 template source.
enum Byte {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let bang: UInt8 = 0x21
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let dollar: UInt8 = 0x24
    static let ampersand: UInt8 = 0x26
    static let apostrophe: UInt8 = 0x27
    static let asterisk: UInt8 = 0x2A
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let lessThan: UInt8 = 0x3C
    static let equals: UInt8 = 0x3D
    static let greaterThan: UInt8 = 0x3E
    static let caret: UInt8 = 0x5E
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D

    /// Space, tab, carriage return or newline: whitespace allowed inside tags.
    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == newline || byte == carriageReturn
    }

    /// Space or tab: the whitespace that may surround a standalone tag on its line.
    static func isBlank(_ byte: UInt8) -> Bool {
        byte == space || byte == tab
    }
}

extension RandomAccessCollection where Element == UInt8, Index == Int {
    /// The index of the first occurrence of `needle` at or after `start`.
    func find(_ needle: [UInt8], from start: Int? = nil) -> Int? {
        guard let first = needle.first else { return nil }
        var index = start ?? startIndex
        let last = endIndex - needle.count
        while index <= last {
            if self[index] == first {
                var matched = 1
                while matched < needle.count, self[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }

    /// The bytes decoded as UTF-8, with invalid sequences repaired.
    var text: String {
        String(decoding: self, as: UTF8.self)
    }
}

extension ArraySlice where Element == UInt8 {
    /// The slice without leading and trailing whitespace.
    func trimmingWhitespace() -> ArraySlice<UInt8> {
        var lower = startIndex
        var upper = endIndex
        while lower < upper, Byte.isWhitespace(self[lower]) { lower += 1 }
        while upper > lower, Byte.isWhitespace(self[upper - 1]) { upper -= 1 }
        return self[lower..<upper]
    }
}
