import Foundation

extension TextValue {
    /// The rules of `TextValue` read Character by Character, as they are stated: for text where
    /// an ASCII byte shares a Character with a mark or joiner next to it (`TextBytes`), and as
    /// what the byte reading is tested against.
    enum ByCharacter {
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

        /// A structured value's components, each a list of values when `lists` is true.
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

        /// CRLF and CR as LF. (Foundation leaves a line break alone when a combining mark follows
        /// it; so does this.)
        static func normalizedLineBreaks(_ text: String) -> String {
            guard text.utf8.contains(UInt8(ascii: "\r")) else { return text }
            return text.replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\r", with: "\n")
        }
    }
}
