/// Why a JSON document could not be parsed, and where.
struct JSONSyntaxError: Error, Sendable, Equatable {
    /// The mistakes the parser recognizes.
    enum Reason: Sendable, Equatable {
        case emptyDocument
        case unexpectedEnd(expected: String)
        case unexpectedCharacter(String, expected: String)
        case trailingComma(String)
        case trailingContent(String)
        case keyNotQuoted(String)
        case unterminatedString
        case controlCharacter(UInt8)
        case invalidEscape(String)
        case invalidUnicodeEscape
        case unpairedSurrogate
        case invalidNumber(String)
        case invalidLiteral(String)
        case comment
        case tooDeep
    }

    /// What is wrong.
    var reason: Reason
    /// The byte offset the message points at.
    var offset: Int

    /// Creates an error at a byte offset.
    init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    /// The message, without location.
    var message: String {
        switch reason {
        case .emptyDocument:
            return "the file is empty; expected a JSON value such as []"
        case .unexpectedEnd(let expected):
            return "the file ends too early; expected \(expected)"
        case .unexpectedCharacter(let found, let expected):
            return "unexpected \(found); expected \(expected)"
        case .trailingComma(let closer):
            return "a comma before '\(closer)' is not allowed in JSON; remove the trailing comma"
        case .trailingContent(let found):
            return "unexpected \(found) after the end of the JSON value"
        case .keyNotQuoted(let found):
            return "unexpected \(found); object keys must be strings in double quotes"
        case .unterminatedString:
            return "this string is never closed; add the closing '\"'"
        case .controlCharacter(let byte):
            let name = String(byte, radix: 16, uppercase: true)
            return "control character U+\(String(repeating: "0", count: 4 - name.count))\(name) in a string; "
                + "write it as an escape such as \\t or \\n"
        case .invalidEscape(let found):
            return "invalid escape \\\(found.trimmingQuotes) in a string; "
                + "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX"
        case .invalidUnicodeEscape:
            return "invalid \\u escape; expected four hexadecimal digits"
        case .unpairedSurrogate:
            return "\\u escape is half of a surrogate pair; the other half is missing"
        case .invalidNumber(let text):
            return "'\(text)' is not a valid JSON number"
        case .invalidLiteral(let word):
            return "unexpected '\(word)'; expected a value (strings need double quotes; "
                + "the literals are true, false and null)"
        case .comment:
            return "comments are not allowed in JSON"
        case .tooDeep:
            return "the JSON is nested more than 512 levels deep"
        }
    }
}

extension String {
    fileprivate var trimmingQuotes: Substring {
        if count >= 2, first == "'", last == "'" { return dropFirst().dropLast() }
        return Substring(self)
    }
}
