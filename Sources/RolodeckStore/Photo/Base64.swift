/// Base64 (RFC 4648, the standard alphabet) as vCards write photos: padding optional, and
/// spaces, tabs and line breaks anywhere passed over, since vCard 2.1 folds the data over lines
/// that keep their leading whitespace.
enum Base64 {
    /// Each byte's value as a base64 digit: 0–63, `skip` for whitespace, `pad` for `=`,
    /// `invalid` for anything else.
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, byte) in Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8).enumerated() {
            table[Int(byte)] = UInt8(value)
        }
        for byte in [0x20, 0x09, 0x0a, 0x0d] { table[byte] = skip }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()
    private static let invalid: UInt8 = 0xff
    private static let skip: UInt8 = 0xfe
    private static let pad: UInt8 = 0xfd

    /// How many bytes `text` encodes, if it is valid: three for every four digits.
    static func decodedCount(_ text: some Collection<UInt8>) -> Int {
        var digits = 0
        for character in text where table[Int(character)] < 64 { digits += 1 }
        return digits / 4 * 3 + max(digits % 4 - 1, 0)
    }

    /// The bytes `text` encodes; nil when it has a character outside the alphabet, a digit after
    /// padding, or a lone last digit (which encodes no whole byte).
    static func decode(_ text: some Collection<UInt8>) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count / 4 * 3 + 3)
        var group: UInt32 = 0
        var digits = 0
        var padded = false
        for character in text {
            let value = table[Int(character)]
            switch value {
            case skip: continue
            case invalid: return nil
            case pad: padded = true
            default:
                guard !padded else { return nil }
                group = group << 6 | UInt32(value)
                digits += 1
                if digits == 4 {
                    bytes.append(UInt8(truncatingIfNeeded: group >> 16))
                    bytes.append(UInt8(truncatingIfNeeded: group >> 8))
                    bytes.append(UInt8(truncatingIfNeeded: group))
                    group = 0
                    digits = 0
                }
            }
        }
        switch digits {
        case 0: break
        case 2:
            bytes.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            bytes.append(UInt8(truncatingIfNeeded: group >> 10))
            bytes.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            return nil
        }
        return bytes
    }
}
