import Foundation

/// The text forms of vCard and iCalendar values: backslash escapes, `;`-separated components and
/// `,`-separated lists.
///
/// Escapes are decoded after the charset, because a backslash byte can be half of a Shift_JIS
/// character. `\n` and `\N` are line breaks; `\,`, `\;` and `\\` the character itself. Writers
/// escape more than the RFCs ask (Gmail writes `http\://` and `\"`), so a backslash before any
/// other punctuation is dropped too; before a letter or digit it stays (`C:\Users`).
enum TextValue {
    /// The text with its escapes decoded.
    static func unescaped(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\\")) else { return normalizedLineBreaks(text) }
        var result = ""
        var escaping = false
        for character in text {
            if escaping {
                escaping = false
                switch character {
                case "n", "N": result.append("\n")
                case _ where character.isASCII && (character.isPunctuation || character.isSymbol):
                    result.append(character)
                default: result.append("\\"); result.append(character)
                }
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        if escaping { result.append("\\") }
        return normalizedLineBreaks(result)
    }

    /// The text split at every `separator` that is not escaped, each piece unescaped.
    static func split(_ text: String, at separator: Character) -> [String] {
        pieces(of: text, at: separator).map(unescaped)
    }

    /// A structured value's components (`N`, `ADR`, `ORG`), each a list of values. In vCard 2.1
    /// a comma is just a comma, so components are not split into lists.
    static func components(_ text: String, lists: Bool) -> [[String]] {
        pieces(of: text, at: ";").map { lists ? split($0, at: ",") : [unescaped($0)] }
    }

    /// The text split at every `separator` that is not escaped, escapes still in place.
    private static func pieces(of text: String, at separator: Character) -> [String] {
        var pieces: [String] = []
        var current = ""
        var escaping = false
        for character in text {
            if escaping {
                escaping = false
                current.append("\\")
                current.append(character)
            } else if character == "\\" {
                escaping = true
            } else if character == separator {
                pieces.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaping { current.append("\\") }
        pieces.append(current)
        return pieces
    }

    /// CRLF and CR as LF, as quoted-printable text (`=0D=0A`) often has them.
    static func normalizedLineBreaks(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}
