/// Folds any Latin letter to its base letter A–Z ("É" → E, "Ø" → O, "ß" → S).
enum LatinLetterFolding {
    /// Letters whose Unicode name does not contain their base letter as a word.
    private static let namedLetters: [Substring: Int] = [
        "AE": 0, "OE": 14, "ETH": 3, "THORN": 19, "ENG": 13, "KRA": 10,
        "SCHWA": 4, "EZH": 25, "IJ": 8, "DZ": 3, "LJ": 11, "NJ": 13, "WYNN": 22, "YOGH": 6,
    ]

    /// The index 0…25 of the base letter of a Latin letter scalar, or nil for
    /// anything that is not a Latin letter.
    static func baseLetterIndex(of scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        if value >= 0x41 && value <= 0x5A { return Int(value - 0x41) }
        if value >= 0x61 && value <= 0x7A { return Int(value - 0x61) }
        if value < 0xC0 { return nil }
        guard scalar.properties.isAlphabetic, let name = scalar.properties.name,
              name.hasPrefix("LATIN ") else { return nil }
        return baseLetterIndex(fromName: name)
    }

    /// Reads the base letter from a name such as "LATIN CAPITAL LETTER O WITH
    /// STROKE" or "LATIN SMALL LIGATURE OE"; the word after LETTER/LIGATURE that is
    /// a single letter wins, otherwise a known letter name such as ETH or THORN.
    static func baseLetterIndex(fromName name: String) -> Int? {
        let words = name.split(separator: " ")
        guard let start = words.firstIndex(where: { $0 == "LETTER" || $0 == "LIGATURE" }) else {
            return nil
        }
        let candidates = words[(start + 1)...].prefix { $0 != "WITH" }
        for word in candidates where word.utf8.count == 1 {
            let byte = word.utf8.first!
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { return Int(byte - UInt8(ascii: "A")) }
        }
        for word in candidates {
            if let index = namedLetters[word] { return index }
        }
        return nil
    }
}
