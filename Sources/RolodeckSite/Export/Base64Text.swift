/// Base64 (RFC 4648, with padding), for the photos exported vCards carry inline.
enum Base64Text {
    private static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64.
    static func encoded(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 2 < bytes.count {
            let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            for shift in [18, 12, 6, 0] { text.append(digits[Int(group >> UInt32(shift) & 63)]) }
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
            text.append(digits[Int(group >> 18 & 63)])
            text.append(digits[Int(group >> 12 & 63)])
            text.append(rest == 2 ? digits[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            text.append(UInt8(ascii: "="))
        }
        return String(decoding: text, as: UTF8.self)
    }
}
