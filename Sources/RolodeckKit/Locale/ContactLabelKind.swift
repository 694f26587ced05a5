import Foundation

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

    /// The plain labels most stores write, answered without taking the label apart.
    private static let common: [String: InterfaceKey] = [
        "home": .labelHome, "work": .labelWork, "mobile": .labelMobile, "cell": .labelMobile, "fax": .labelFax,
        "pager": .labelPager, "main": .labelMain, "other": .labelOther,
    ]

    /// The interface key for a raw label, or nil for a custom label.
    static func key(for rawLabel: String) -> InterfaceKey? {
        if let key = common[rawLabel] { return key }
        let text = (unwrapped(rawLabel) ?? rawLabel).lowercased()
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

    /// The inner text of Apple's "_$!<Label>!$_" wrapper, or nil when not wrapped.
    static func unwrapped(_ rawLabel: String) -> String? {
        let trimmed = rawLabel.trimmingWhitespace
        guard trimmed.hasPrefix("_$!<"), trimmed.hasSuffix(">!$_"), trimmed.count > 8 else { return nil }
        return String(trimmed.dropFirst(4).dropLast(4))
    }
}
