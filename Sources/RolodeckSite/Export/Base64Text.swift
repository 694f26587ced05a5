/// Base64 (RFC 4648, with padding), for the photos exported vCards carry inline and the QR code
/// images inside contact pages.
enum Base64Text {
    private static let digits = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64, written straight into the string's storage: every contact page has a
    /// QR code of about 0.6 KB to encode.
    static func encoded(_ bytes: [UInt8]) -> String {
        let count = (bytes.count + 2) / 3 * 4
        guard count > 0 else { return "" }
        return digits.withUnsafeBufferPointer { digits in
            bytes.withUnsafeBufferPointer { bytes in
                String(unsafeUninitializedCapacity: count) { text in
                    var index = 0, at = 0
                    while index + 2 < bytes.count {
                        let group = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
                        text[at] = digits[Int(group >> 18)]
                        text[at + 1] = digits[Int(group >> 12 & 63)]
                        text[at + 2] = digits[Int(group >> 6 & 63)]
                        text[at + 3] = digits[Int(group & 63)]
                        index += 3
                        at += 4
                    }
                    let rest = bytes.count - index
                    if rest > 0 {
                        let group = UInt32(bytes[index]) << 16 | (rest == 2 ? UInt32(bytes[index + 1]) << 8 : 0)
                        text[at] = digits[Int(group >> 18)]
                        text[at + 1] = digits[Int(group >> 12 & 63)]
                        text[at + 2] = rest == 2 ? digits[Int(group >> 6 & 63)] : UInt8(ascii: "=")
                        text[at + 3] = UInt8(ascii: "=")
                        at += 4
                    }
                    return at
                }
            }
        }
    }
}
