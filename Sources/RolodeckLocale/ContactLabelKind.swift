import Foundation
import RolodeckCore

/// Recognizes the standard kinds of phone numbers, emails and addresses in
/// the labels contacts stores write.
enum ContactLabelKind {
    /// Words of a vCard TYPE list that say nothing about the kind.
    private static let neutralWords: Set<String> = ["voice", "pref", "internet", "x400", "text", "msg"]
    /// Device kinds win over places ("work,fax" is a fax).
    private static let precedence: [(word: Set<String>, key: InterfaceKey)] = [
        (["fax", "homefax", "workfax", "facsimile"], .labelFax),
        (["pager"], .labelPager),
        (["mobile", "cell", "cellular", "mobil"], .labelMobile),
        (["main"], .labelMain),
        (["work"], .labelWork),
        (["home"], .labelHome),
        (["other"], .labelOther),
    ]

    /// The interface key for a raw label, or nil for a custom label.
    static func key(for rawLabel: String) -> InterfaceKey? {
        if let key = commonKey(rawLabel) { return key }
        let text = (LabeledValue.innerAppleLabel(rawLabel) ?? rawLabel).lowercased()
        let words = text.split { $0 == "," || $0 == ";" || $0 == " " || $0 == "=" }
            .map(String.init)
            .filter { $0 != "type" && !neutralWords.contains($0) }
        guard !words.isEmpty else { return nil }
        var found: [InterfaceKey] = []
        for word in words {
            guard let entry = precedence.first(where: { $0.word.contains(word) }) else { return nil }
            found.append(entry.key)
        }
        return precedence.first { entry in found.contains(entry.key) }?.key
    }

    /// The key of a plain label most stores write ("home", "cell"), exactly as written; nil for
    /// any other label, which `key(for:)` then takes apart.
    ///
    /// Told apart by length and first byte, then compared once, which for the label it guessed
    /// is a comparison of two small strings' bits: no label is hashed, though every page asks.
    static func commonKey(_ rawLabel: String) -> InterfaceKey? {
        let utf8 = rawLabel.utf8
        let word: String, key: InterfaceKey
        switch (utf8.count, utf8.first) {
        case (3, UInt8(ascii: "f")): (word, key) = ("fax", .labelFax)
        case (4, UInt8(ascii: "h")): (word, key) = ("home", .labelHome)
        case (4, UInt8(ascii: "w")): (word, key) = ("work", .labelWork)
        case (4, UInt8(ascii: "c")): (word, key) = ("cell", .labelMobile)
        case (4, UInt8(ascii: "m")): (word, key) = ("main", .labelMain)
        case (5, UInt8(ascii: "o")): (word, key) = ("other", .labelOther)
        case (5, UInt8(ascii: "p")): (word, key) = ("pager", .labelPager)
        case (6, UInt8(ascii: "m")): (word, key) = ("mobile", .labelMobile)
        default: return nil
        }
        return rawLabel == word ? key : nil
    }
}
