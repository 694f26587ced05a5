import RolodeckCore

/// The label of a phone, email, address or URL: Apple's `X-ABLabel` for the property's group
/// when there is one, else the words of its `TYPE` parameters, in any of the ways they are
/// written (`TYPE=work;TYPE=voice`, `TYPE=work,voice`, `TYPE="work,voice"`, `type=WORK`, and
/// vCard 2.1's bare `WORK;VOICE`).
enum VCardLabel {
    /// Words that say nothing a reader of the directory needs (preferred, voice, internet …).
    private static let neutral: Set<String> = [
        "pref", "voice", "internet", "x400", "msg", "text", "video", "bbs", "modem", "pcs", "dom",
        "intl", "postal", "parcel",
    ]
    /// The kinds the interface translates; when a TYPE list has one, its other words are dropped
    /// ("iphone,cell" is a mobile).
    private static let known: Set<String> = ["home", "work", "cell", "mobile", "fax", "pager", "main", "other"]

    /// The label for a property, with the custom labels of its file's groups.
    static func label(of line: ContentLine, customLabels: [String: String]) -> String {
        if !line.group.isEmpty, let custom = customLabels[line.group] { return custom }
        var words: [String] = []
        for value in line.values(of: "TYPE") {
            for word in value.split(separator: ",") {
                var text = String(word).trimmingWhitespace.lowercased()
                if text.hasPrefix("x-") { text.removeFirst(2) }
                if !text.isEmpty, !neutral.contains(text), !words.contains(text) { words.append(text) }
            }
        }
        let kinds = words.filter(known.contains)
        return (kinds.isEmpty ? words : kinds).joined(separator: ",")
    }

    /// Apple's `_$!<HomePage>!$_` as `HomePage`; any other label as written.
    static func unwrapped(_ label: String) -> String {
        LabeledValue.innerAppleLabel(label) ?? label.trimmingWhitespace
    }
}
