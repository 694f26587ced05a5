import RolodeckCore

/// How a label of the store is written on a vCard: the `TYPE` words phones sort numbers and
/// addresses by, or, for the user's own words, Apple's `X-ABLabel`, which iOS and macOS show as
/// written and the store's vCard reader reads back as the same label.
///
/// The inverse of what the reader does with `TYPE` (`VCardLabel`, and `ContactLabelKind` for
/// what the pages show): a label of known kinds only ("mobile", "work,fax", Apple's
/// `_$!<Mobile>!$_`) becomes their `TYPE` words; a label with any other word is the user's own.
enum VCardTypes {
    /// The `TYPE` words of a known label word, as phones read them: a mobile is `CELL`, and the
    /// two fax words Android writes are the place and `FAX`.
    private static let typeWords: [String: [String]] = [
        "home": ["HOME"], "work": ["WORK"], "mobile": ["CELL"], "cell": ["CELL"], "cellular": ["CELL"],
        "mobil": ["CELL"], "iphone": ["CELL"], "fax": ["FAX"], "facsimile": ["FAX"],
        "homefax": ["HOME", "FAX"],
        "workfax": ["WORK", "FAX"], "pager": ["PAGER"], "main": ["MAIN"], "other": ["OTHER"],
    ]
    /// Words that say nothing about the kind; the reader drops them too.
    private static let neutral: Set<String> = ["pref", "voice", "internet", "x400", "text", "msg", "type"]

    /// What a label becomes: its `TYPE` words, or the label to write as `X-ABLabel` (nil for a
    /// label of known words or none).
    static func of(_ label: String) -> (types: [String], custom: String?) {
        // Nearly every label is one known word as the store writes it ("work", "mobile"): the
        // table has it as it is, without lowering, splitting and filtering its words.
        if let kinds = typeWords[label] { return (kinds, nil) }
        let written = LabeledValue.innerAppleLabel(label) ?? label.trimmingWhitespace
        let words = written.lowercased()
            .split { $0 == "," || $0 == ";" || $0 == " " || $0 == "=" }
            .map { $0.hasPrefix("x-") ? String($0.dropFirst(2)) : String($0) }
            .filter { !$0.isEmpty && !neutral.contains($0) }
        var types: [String] = []
        for word in words {
            guard let kinds = typeWords[word] else { return ([], written) }
            for kind in kinds where !types.contains(kind) { types.append(kind) }
        }
        return (types, nil)
    }

    /// The `;TYPE=…` parameter of `types` with `extra` words first (`INTERNET` for an email);
    /// "" when there are none.
    static func parameter(_ types: [String], extra: [String] = []) -> String {
        let all = extra + types
        return all.isEmpty ? "" : ";TYPE=" + all.joined(separator: ",")
    }
}
