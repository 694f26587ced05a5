import Testing
@testable import RolodeckCore

/// `trimmingWhitespace` and `isBlank` decide most strings from their first and last scalars; these
/// cases check them against Swift's Character rules where the shortcut could go wrong: Unicode
/// whitespace, combining marks after whitespace, and letters of every script the shortcut knows.
@Suite("Whitespace of strings")
struct StringWhitespaceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        let trimmed: String
        let isBlank: Bool

        var testDescription: String { String(reflecting: text) }
    }

    static let cases: [Case] = [
        Case(text: "", trimmed: "", isBlank: true),
        Case(text: "Ada", trimmed: "Ada", isBlank: false),
        Case(text: "  Ada \n", trimmed: "Ada", isBlank: false),
        Case(text: "Zoë", trimmed: "Zoë", isBlank: false),
        Case(text: "Élodie Ø", trimmed: "Élodie Ø", isBlank: false),
        Case(text: "東京", trimmed: "東京", isBlank: false),
        Case(text: "\u{3000}東京\u{3000}", trimmed: "東京", isBlank: false),
        Case(text: "김철수", trimmed: "김철수", isBlank: false),
        Case(text: "さくら カタカナ", trimmed: "さくら カタカナ", isBlank: false),
        Case(text: "\u{A0}x\u{2028}", trimmed: "x", isBlank: false),
        Case(text: "\u{3000}\u{A0}\u{2003}", trimmed: "", isBlank: true),
        // A combining mark after a space makes one whitespace Character with it.
        Case(text: "x \u{301}", trimmed: "x", isBlank: false),
        Case(text: " \u{301}x", trimmed: "x", isBlank: false),
        Case(text: " \u{301}", trimmed: "", isBlank: true),
        Case(text: "e\u{301}", trimmed: "e\u{301}", isBlank: false),
        Case(text: "\u{301}", trimmed: "\u{301}", isBlank: false),
        Case(text: "か\u{3099}", trimmed: "か\u{3099}", isBlank: false),
        Case(text: "\r\n", trimmed: "", isBlank: true),
        Case(text: "a\r\n", trimmed: "a", isBlank: false),
        Case(text: "👋", trimmed: "👋", isBlank: false),
        // First and last scalars of two, three and four bytes, read off the UTF-8 bytes.
        Case(text: "écrit", trimmed: "écrit", isBlank: false),
        Case(text: "naïve ü", trimmed: "naïve ü", isBlank: false),
        Case(text: "\u{85}x", trimmed: "x", isBlank: false),
        Case(text: "x\u{85}", trimmed: "x", isBlank: false),
        Case(text: "x\u{2029}", trimmed: "x", isBlank: false),
        Case(text: "\u{2028}", trimmed: "", isBlank: true),
        Case(text: "👋 x", trimmed: "👋 x", isBlank: false),
        Case(text: "x 👋", trimmed: "x 👋", isBlank: false),
        Case(text: "\u{3000}👋", trimmed: "👋", isBlank: false),
        Case(text: "Ω\u{3000}", trimmed: "Ω", isBlank: false),
        Case(text: "Ω \u{301}", trimmed: "Ω", isBlank: false),
        Case(text: "\u{1F3FB}", trimmed: "\u{1F3FB}", isBlank: false),
    ]

    @Test(arguments: cases)
    func trimmedAndBlank(_ example: Case) {
        #expect(example.text.trimmingWhitespace == example.trimmed)
        #expect(example.text.isBlank == example.isBlank)
        // The same as trimming Characters one by one.
        var reference = Substring(example.text)
        while let first = reference.first, first.isWhitespace { reference.removeFirst() }
        while let last = reference.last, last.isWhitespace { reference.removeLast() }
        #expect(example.text.trimmingWhitespace == String(reference))
        #expect(example.text.isBlank == example.text.allSatisfy(\.isWhitespace))
    }

    /// The table-free whitespace test agrees with Unicode's property for every scalar.
    @Test func whitespaceScalars() {
        let wrong = (UInt32(0)...0x10FFFF).compactMap(Unicode.Scalar.init).filter { scalar in
            scalar.isWhitespaceWithoutTables != scalar.properties.isWhitespace
                || scalar.isLetterWithoutWhitespaceBefore
                && (scalar.properties.isWhitespace || scalar.properties.isGraphemeExtend)
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10).map(\.value))")
    }
}
