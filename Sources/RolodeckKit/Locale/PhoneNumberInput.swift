import Foundation

/// A phone number as the user typed it, taken apart: international prefix,
/// digits, extension, and whether it is a plain number at all.
struct PhoneNumberInput: Sendable, Equatable {
    /// How the number announces a country code.
    enum Prefix: Sendable, Equatable {
        /// No international prefix: a national or local number.
        case none
        /// Written with a leading `+`.
        case plus
        /// Written with the international call prefix `00`.
        case doubleZero
    }

    /// The input with surrounding whitespace removed, for display as written.
    let trimmed: String
    /// The international prefix, if any.
    let prefix: Prefix
    /// Dialable characters after the prefix: digits, plus `*` and `#` if written.
    let dialable: String
    /// The extension digits, if the user wrote one ("ext. 12", ",12", ";ext=12", "x12").
    let extensionDigits: String?
    /// True when the number has only digits, separators and a leading `+`,
    /// so it may be regrouped for display.
    let isPlain: Bool

    /// Keypad letters (E.161) for vanity numbers such as 1-800-FLOWERS.
    private static let keypad: [Character: Character] = {
        var table: [Character: Character] = [:]
        let groups = ["2": "ABC", "3": "DEF", "4": "GHI", "5": "JKL", "6": "MNO", "7": "PQRS", "8": "TUV", "9": "WXYZ"]
        for (digit, letters) in groups {
            for letter in letters { table[letter] = Character(digit) }
        }
        return table
    }()

    /// Characters people put between digit groups.
    private static let separators: Set<Character> = [" ", "-", ".", "(", ")", "/", "\u{00A0}", "\u{2011}", "\u{2013}"]

    init(_ raw: String) {
        trimmed = raw.trimmingWhitespace
        // Compatibility mapping turns full-width digits into ASCII; plain ASCII needs none.
        var text = trimmed.utf8.allSatisfy { $0 < 0x80 } ? trimmed : trimmed.precomposedStringWithCompatibilityMapping
        var extensionDigits: String?
        if let split = Self.splitExtension(text) {
            text = split.number
            extensionDigits = split.digits
        }
        var prefix = Prefix.none
        if text.hasPrefix("+") {
            prefix = .plus
            text.removeFirst()
            // "+82 (0)10…": the bracketed trunk zero is not dialled from abroad.
            if let range = Self.trunkZero(in: text) { text.removeSubrange(range) }
        }
        var dialable = ""
        var letters = ""
        var onlyPhoneCharacters = true
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            // The usual case, by bytes: Character properties cost more than the rest of the parse.
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "#"):
                    bytes.append(byte)
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    if let digit = Self.keypadDigit(byte) {
                        bytes.append(digit)
                        letters.unicodeScalars.append(Unicode.Scalar(byte))
                    } else {
                        onlyPhoneCharacters = false
                    }
                case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("), UInt8(ascii: ")"),
                     UInt8(ascii: "/"):
                    break
                default:
                    onlyPhoneCharacters = false
                }
            }
            dialable = String(decoding: bytes, as: UTF8.self)
        } else {
            for character in text {
                if character.isASCII, character.isNumber || character == "*" || character == "#" {
                    dialable.append(character)
                } else if character.isASCII, let digit = Self.keypad[Character(character.uppercased())] {
                    dialable.append(digit)
                    letters.append(character)
                } else if !Self.separators.contains(character) {
                    onlyPhoneCharacters = false
                }
            }
        }
        // Letters only make a vanity number alongside real digits and nothing else.
        // Both are ASCII, so counting bytes counts characters.
        if !letters.isEmpty && (!onlyPhoneCharacters || dialable.utf8.count - letters.utf8.count < 3) {
            dialable = Self.digitsOnly(of: text)
        }
        if prefix == .none && dialable.hasPrefix("00") {
            prefix = .doubleZero
            dialable.removeFirst(2)
        }
        self.prefix = prefix
        self.dialable = dialable
        self.extensionDigits = extensionDigits
        isPlain = extensionDigits == nil && letters.isEmpty && onlyPhoneCharacters
            && !dialable.isEmpty && Self.isDigits(dialable)
    }

    /// Whether `dialable` (always ASCII: digits, `*` and `#`) has only digits.
    static func isDigits(_ dialable: String) -> Bool {
        dialable.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `dialable` has a digit at all.
    static func hasDigit(_ dialable: String) -> Bool {
        dialable.utf8.contains { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Where "(0)" first occurs in `text`; ASCII text is searched by bytes, without Foundation.
    private static func trunkZero(in text: String) -> Range<String.Index>? {
        let bytes = text.utf8
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return text.range(of: "(0)") }
        var index = bytes.startIndex
        while let open = bytes[index...].firstIndex(of: UInt8(ascii: "(")) {
            let rest = bytes[open...]
            if rest.starts(with: "(0)".utf8) { return open..<bytes.index(open, offsetBy: 3) }
            index = bytes.index(after: open)
        }
        return nil
    }

    /// The keypad digit of an ASCII letter, as a byte.
    private static func keypadDigit(_ letter: UInt8) -> UInt8? {
        switch letter & 0xDF {
        case UInt8(ascii: "A")...UInt8(ascii: "C"): UInt8(ascii: "2")
        case UInt8(ascii: "D")...UInt8(ascii: "F"): UInt8(ascii: "3")
        case UInt8(ascii: "G")...UInt8(ascii: "I"): UInt8(ascii: "4")
        case UInt8(ascii: "J")...UInt8(ascii: "L"): UInt8(ascii: "5")
        case UInt8(ascii: "M")...UInt8(ascii: "O"): UInt8(ascii: "6")
        case UInt8(ascii: "P")...UInt8(ascii: "S"): UInt8(ascii: "7")
        case UInt8(ascii: "T")...UInt8(ascii: "V"): UInt8(ascii: "8")
        case UInt8(ascii: "W")...UInt8(ascii: "Z"): UInt8(ascii: "9")
        default: nil
        }
    }

    /// The digits the user wrote in `text`, ignoring everything else.
    private static func digitsOnly(of text: String) -> String {
        String(text.filter { $0.isASCII && ($0.isNumber || $0 == "*" || $0 == "#") })
    }

    /// Splits "02-123-4567 ext. 12" into number and extension digits.
    private static func splitExtension(_ text: String) -> (number: String, digits: String)? {
        // Every marker has a letter, a comma or a semicolon; most numbers have none of them.
        // ASCII bytes settle it without Unicode property lookups.
        var hasMarkerCharacter = false
        var isASCII = true
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "A")...UInt8(ascii: "Z"):
                hasMarkerCharacter = true
            case 0x80...:
                isASCII = false
            default:
                break
            }
            if hasMarkerCharacter { break }
        }
        if !hasMarkerCharacter && !isASCII {
            hasMarkerCharacter = text.unicodeScalars.contains { $0.properties.isAlphabetic }
        }
        guard hasMarkerCharacter else { return nil }
        let padding = CharacterSet.whitespaces.union(CharacterSet(charactersIn: ".:="))
        for marker in [";ext=", "extension", "ext.", "ext", "내선", "x", ","] {
            guard let range = text.range(of: marker, options: [.backwards, .caseInsensitive]) else { continue }
            let tail = text[range.upperBound...].trimmingCharacters(in: padding)
            let head = text[..<range.lowerBound]
            guard !tail.isEmpty, tail.allSatisfy({ $0.isASCII && $0.isNumber }),
                  head.contains(where: { $0.isASCII && $0.isNumber }) else { continue }
            return (String(head), tail)
        }
        return nil
    }
}
