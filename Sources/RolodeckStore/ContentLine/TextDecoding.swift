import Foundation
import RolodeckCore

/// Turns a value's bytes into text by its `CHARSET`, or as UTF-8 when none is named.
///
/// Real exports name UTF-8, Latin-1, windows-1252 and Shift_JIS, and some write 8-bit text with
/// no `CHARSET` at all (Outlook, in its Windows code page); text that is not UTF-8 and names no
/// charset is read as windows-1252, which agrees with Latin-1 on every letter.
enum TextDecoding {
    /// The encodings `CHARSET` may name, by name in upper case without `-` and `_`.
    private static let charsets: [String: String.Encoding] = [
        "UTF8": .utf8, "USASCII": .utf8, "ASCII": .utf8,
        "ISO88591": .isoLatin1, "LATIN1": .isoLatin1, "L1": .isoLatin1, "ISOLATIN1": .isoLatin1,
        "WINDOWS1252": .windowsCP1252, "CP1252": .windowsCP1252,
        "SHIFTJIS": .shiftJIS, "SJIS": .shiftJIS, "MSKANJI": .shiftJIS, "CP932": .shiftJIS,
        "WINDOWS31J": .shiftJIS, "XSJIS": .shiftJIS,
        "EUCJP": .japaneseEUC, "ISO2022JP": .iso2022JP,
        "ISO88592": .isoLatin2, "WINDOWS1250": .windowsCP1250, "WINDOWS1251": .windowsCP1251,
        "WINDOWS1253": .windowsCP1253, "WINDOWS1254": .windowsCP1254,
        "UTF16": .utf16, "UTF16LE": .utf16LittleEndian, "UTF16BE": .utf16BigEndian,
    ]

    /// How a value's bytes read as text.
    enum Decoded {
        /// The bytes are well-formed UTF-8, and are the text as they are.
        case utf8(isASCII: Bool)
        /// The text, read from another charset (or repaired).
        case text(String)
    }

    /// The text of `bytes` in `charset`, and what went wrong when the bytes are not in it.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, charset: String?)
        -> (text: Decoded, problem: ContentLineIssue.Reason?)
    {
        if let charset, !charset.isEmpty {
            let key = charset.uppercased().filter { $0 != "-" && $0 != "_" }
            guard let encoding = charsets[key] else {
                let (text, _) = decodeUnnamed(bytes)
                return (text, .unknownCharset(charset))
            }
            if encoding == .utf8 {
                let (text, guessed) = decodeUnnamed(bytes)
                return (text, guessed ? .notInCharset(charset) : nil)
            }
            if let text = String(bytes: bytes, encoding: encoding) { return (.text(text), nil) }
            return (.text(String(decoding: bytes, as: UTF8.self)), .notInCharset(charset))
        }
        let (text, guessed) = decodeUnnamed(bytes)
        return (text, guessed ? .assumedWindows1252 : nil)
    }

    /// The bytes themselves when they are UTF-8, else windows-1252 (Latin-1 for its five unused
    /// bytes); the flag says whether it had to guess.
    private static func decodeUnnamed(_ bytes: UnsafeBufferPointer<UInt8>) -> (Decoded, Bool) {
        let (isWellFormed, isASCII) = UTF8Validator.check(bytes)
        if isWellFormed { return (.utf8(isASCII: isASCII), false) }
        let text = String(bytes: bytes, encoding: .windowsCP1252) ?? String(bytes: bytes, encoding: .isoLatin1) ?? ""
        return (.text(text), true)
    }
}

/// Quoted-printable (RFC 2045) as vCard 2.1 uses it: `=XX` is a byte, `=` at a line end is a
/// soft line break; anything malformed is kept as written.
enum QuotedPrintable {
    /// The decoded bytes.
    static func decode(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "=") else {
                result.append(byte)
                index += 1
                continue
            }
            if index + 2 < bytes.endIndex, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                result.append(high << 4 | low)
                index += 3
                continue
            }
            // A soft line break that survived unfolding: `=` then CRLF, LF or CR.
            if index + 1 < bytes.endIndex, bytes[index + 1] == 0x0D || bytes[index + 1] == 0x0A {
                index += 2
                if bytes[index - 1] == 0x0D, index < bytes.endIndex, bytes[index] == 0x0A { index += 1 }
                continue
            }
            result.append(byte)
            index += 1
        }
        return result
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
