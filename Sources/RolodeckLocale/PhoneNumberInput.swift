import Foundation
import RolodeckCore

/// A phone number as the user typed it, taken apart: international prefix,
/// digits, extension, and whether it is a plain number at all.
public struct PhoneNumberInput: Sendable, Equatable {
    /// How the number announces a country code.
    public enum Prefix: Sendable, Equatable {
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
    public let prefix: Prefix
    /// Dialable characters after the prefix: digits, plus `*` and `#` if written.
    public let dialable: String
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

    /// Takes `raw` apart, ignoring surrounding whitespace.
    public init(_ raw: String) {
        let trimmed = raw.trimmingWhitespace
        // Most numbers are ASCII digits, `+` and separators: read in one pass over their bytes,
        // without the String edits of the general reading, since a build reads every number
        // more than once.
        let read = trimmed.utf8.withContiguousStorageIfAvailable(Self.readPlainASCII)
            ?? Self.readPlainASCII(Array(trimmed.utf8))
        guard let (prefix, dialable, onlyPhoneCharacters) = read else {
            self.init(generalReadingOf: trimmed)
            return
        }
        self.init(trimmed: trimmed, prefix: prefix, dialable: dialable, extensionDigits: nil,
                  isPlain: onlyPhoneCharacters && !dialable.isEmpty && Self.isDigits(dialable))
    }

    private init(trimmed: String, prefix: Prefix, dialable: String, extensionDigits: String?, isPlain: Bool) {
        self.trimmed = trimmed
        self.prefix = prefix
        self.dialable = dialable
        self.extensionDigits = extensionDigits
        self.isPlain = isPlain
    }

    /// Takes `trimmed` (already without surrounding whitespace) apart in the general way, which
    /// handles extensions, keypad letters and non-ASCII text.
    init(generalReadingOf trimmed: String) {
        self.trimmed = trimmed
        // Compatibility mapping turns full-width digits into ASCII; plain ASCII needs none.
        let isASCII = Self.allBytes(of: trimmed) { $0 < 0x80 }
        var text = isASCII ? trimmed : trimmed.precomposedStringWithCompatibilityMapping
        var extensionDigits: String?
        if let split = Self.splitExtension(text) {
            text = split.number
            extensionDigits = split.digits
        }
        var prefix = Prefix.none
        if isASCII ? text.utf8.first == UInt8(ascii: "+") : text.hasPrefix("+") {
            prefix = .plus
            text.removeFirst()
            // "+82 (0)10…": the bracketed trunk zero is not dialled from abroad.
            if let range = Self.trunkZero(in: text) { text.removeSubrange(range) }
        }
        var dialable = ""
        var letters = ""
        var onlyPhoneCharacters = true
        if isASCII || Self.allBytes(of: text, { $0 < 0x80 }) {
            // The usual case, by bytes: Character properties cost more than the rest of the parse.
            (dialable, letters, onlyPhoneCharacters) =
                text.utf8.withContiguousStorageIfAvailable(Self.readASCII) ?? Self.readASCII(Array(text.utf8))
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
        if prefix == .none && Self.startsWithDoubleZero(dialable) {
            prefix = .doubleZero
            dialable.removeFirst(2)
        }
        self.prefix = prefix
        self.dialable = dialable
        self.extensionDigits = extensionDigits
        isPlain = extensionDigits == nil && letters.isEmpty && onlyPhoneCharacters
            && !dialable.isEmpty && Self.isDigits(dialable)
    }

    /// The reading of ASCII bytes with no letter, comma or semicolon (so no extension and no
    /// keypad letters), as the general reading would give it: the prefix (a leading `+`, or
    /// `00`), the dialable bytes after it without the first "(0)" after a `+`, and whether
    /// there was nothing but those and separators. Nil for any other text.
    private static func readPlainASCII<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes)
        -> (prefix: Prefix, dialable: String, onlyPhoneCharacters: Bool)? where Bytes.Index == Int {
        var prefix = Prefix.none
        var start = bytes.startIndex
        var trunkZero = start..<start
        if start < bytes.endIndex, bytes[start] == UInt8(ascii: "+") {
            prefix = .plus
            start += 1
            // "+82 (0)10…": the bracketed trunk zero is not dialled from abroad.
            trunkZero = trunkZeroOffset(bytes[start...]).map { start + $0..<start + $0 + 3 } ?? trunkZero
        }
        var dialable: [UInt8] = []
        dialable.reserveCapacity(bytes.count)
        var onlyPhoneCharacters = true
        for index in start..<bytes.endIndex where !trunkZero.contains(index) {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "#"):
                dialable.append(byte)
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "/"):
                break
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: ","), UInt8(ascii: ";"), 0x80...:
                return nil
            default:
                onlyPhoneCharacters = false
            }
        }
        let zero = UInt8(ascii: "0")
        if prefix == .none, dialable.count >= 2, dialable[0] == zero, dialable[1] == zero {
            prefix = .doubleZero
            dialable.removeFirst(2)
        }
        return (prefix, String(decoding: dialable, as: UTF8.self), onlyPhoneCharacters)
    }

    /// Whether `dialable` (always ASCII: digits, `*` and `#`) has only digits.
    static func isDigits(_ dialable: String) -> Bool {
        allBytes(of: dialable) { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }

    /// Whether `dialable` has a digit at all.
    static func hasDigit(_ dialable: String) -> Bool {
        !allBytes(of: dialable) { $0 < UInt8(ascii: "0") || $0 > UInt8(ascii: "9") }
    }

    /// Whether every UTF-8 byte of `text` passes `test`, read from its contiguous bytes when it
    /// has them (native strings do), which is many times quicker than the UTF-8 view's iterator.
    @inline(__always)
    static func allBytes(of text: String, _ test: (UInt8) -> Bool) -> Bool {
        text.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(test) } ?? text.utf8.allSatisfy(test)
    }

    /// Whether ASCII `dialable` starts with the international call prefix "00".
    private static func startsWithDoubleZero(_ dialable: String) -> Bool {
        let zero = UInt8(ascii: "0")
        let found = dialable.utf8.withContiguousStorageIfAvailable {
            $0.count >= 2 && $0[0] == zero && $0[1] == zero
        }
        return found ?? dialable.hasPrefix("00")
    }

    /// The dialable digits (keypad letters turned into theirs), the letters so turned, and
    /// whether there was nothing but digits, `*`, `#`, keypad letters and separators, of an ASCII
    /// number's bytes.
    private static func readASCII<Bytes: Collection<UInt8>>(_ utf8: Bytes)
        -> (dialable: String, letters: String, onlyPhoneCharacters: Bool) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var letters = ""
        var onlyPhoneCharacters = true
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "#"):
                bytes.append(byte)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if let digit = keypadDigit(byte) {
                    bytes.append(digit)
                    letters.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    onlyPhoneCharacters = false
                }
            case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "/"):
                break
            default:
                onlyPhoneCharacters = false
            }
        }
        return (String(decoding: bytes, as: UTF8.self), letters, onlyPhoneCharacters)
    }

    /// Where "(0)" first occurs in `text`; ASCII text is searched by bytes, without Foundation.
    private static func trunkZero(in text: String) -> Range<String.Index>? {
        guard allBytes(of: text, { $0 < 0x80 }) else { return text.range(of: "(0)") }
        let found = text.utf8.withContiguousStorageIfAvailable(trunkZeroOffset)
        guard let offset = found ?? trunkZeroOffset(Array(text.utf8)) else { return nil }
        let open = text.utf8.index(text.utf8.startIndex, offsetBy: offset)
        return open..<text.utf8.index(open, offsetBy: 3)
    }

    /// The offset of the first "(0)" in ASCII bytes.
    private static func trunkZeroOffset<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) -> Int?
    where Bytes.Index == Int {
        guard bytes.count >= 3 else { return nil }
        let start = bytes.startIndex
        for offset in 0...(bytes.count - 3)
        where bytes[start + offset] == UInt8(ascii: "(") && bytes[start + offset + 1] == UInt8(ascii: "0")
            && bytes[start + offset + 2] == UInt8(ascii: ")") {
            return offset
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

    /// Whether the bytes up to the first letter, comma or semicolon have one (so the text may
    /// have an extension marker), and whether those bytes are all ASCII.
    private static func markerAndASCII<Bytes: Sequence<UInt8>>(_ utf8: Bytes)
        -> (hasMarkerCharacter: Bool, isASCII: Bool) {
        var isASCII = true
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "A")...UInt8(ascii: "Z"):
                return (true, isASCII)
            case 0x80...:
                isASCII = false
            default:
                break
            }
        }
        return (false, isASCII)
    }

    /// Splits "02-123-4567 ext. 12" into number and extension digits.
    private static func splitExtension(_ text: String) -> (number: String, digits: String)? {
        // Every marker has a letter, a comma or a semicolon; most numbers have none of them.
        // ASCII bytes settle it without Unicode property lookups.
        let scan = text.utf8.withContiguousStorageIfAvailable(markerAndASCII) ?? markerAndASCII(text.utf8)
        var hasMarkerCharacter = scan.hasMarkerCharacter
        let isASCII = scan.isASCII
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
