import Foundation
import Testing
@testable import RolodeckStore

/// `TextValue` reads escapes, separators and line breaks from bytes; `TextValue.ByCharacter`
/// states the same rules Character by Character. They must agree on every text.
@Suite struct TextValueTests {
    /// Pieces that make awkward text: escapes, separators, line breaks, and scalars of other
    /// scripts that stand apart from an ASCII character next to them.
    static let plainPieces = [
        "a", "Z", "0", " ", "\t", "\\", "\\n", "\\N", "\\,", "\\;", "\\\\", "\\:", "\\x", "\\7",
        ";", ",", ":", "^", "\"", "é", "日本", "안", "ア", "\u{A0}", "\u{3000}", "\u{FF01}", "\r", "\r\n",
        "\n", "\u{85}", "\u{2028}", "\u{1160}",
    ]
    /// Those and scalars that share a Character with an ASCII one next to them (combining marks,
    /// joiners, variation selectors, an Arabic number sign, an emoji and its modifier).
    static let pieces = plainPieces + [
        "\u{301}", "\u{3099}", "\u{200D}", "\u{600}", "😀", "👍🏽", "\u{E33}", "\u{903}", "\u{FE0F}",
        "\u{FF9E}", "\u{FB1E}", "\u{302A}", "\u{D4E}", "\u{1F1E6}",
    ]

    /// Texts of 0 to 12 pieces, from a fixed pseudo-random walk.
    static func randomTexts(count: Int, seed: UInt64, of pieces: [String] = pieces) -> [String] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<count).map { _ in (0..<next(13)).map { _ in pieces[next(pieces.count)] }.joined() }
    }

    @Test func bytesAndCharactersAgree() {
        let texts = Self.randomTexts(count: 10_000, seed: 17, of: Self.plainPieces)
            + Self.randomTexts(count: 10_000, seed: 19)
        // Both readings must be common for the comparison to mean something.
        let readByBytes = texts.filter { TextBytes.reading($0, \.asciiStandsAlone) }.count
        #expect(readByBytes > 12_000 && readByBytes < 18_000)
        typealias ByCharacter = TextValue.ByCharacter
        for text in texts {
            #expect(TextValue.unescaped(text) == ByCharacter.unescaped(text), "\(Array(text.unicodeScalars))")
            #expect(TextValue.split(text, at: ",") == ByCharacter.split(text, at: ","))
            #expect(TextValue.components(text, lists: true).lists == ByCharacter.components(text, lists: true))
            #expect(TextValue.components(text, lists: false).lists == ByCharacter.components(text, lists: false))
        }
    }

    @Test func unescapingKeepsTheBytesOfTheCharacterReading() {
        // `==` on strings compares canonical equivalents; the bytes must be the same too.
        for text in Self.randomTexts(count: 5_000, seed: 18, of: Self.plainPieces) {
            let byCharacter = TextValue.ByCharacter.unescaped(text)
            #expect(Array(TextValue.unescaped(text).utf8) == Array(byCharacter.utf8))
        }
    }

    /// Where `TextBytes` says a scalar cannot join an ASCII character next to it, it does not:
    /// every assigned scalar.
    @Test func scalarsSaidToStandApartDo() {
        for value in UInt32(0x80)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
                scalar.properties.generalCategory != .privateUse
            else { continue }
            let text = String(scalar)
            let utf8 = Array(text.utf8) + [0, 0, 0]
            if !utf8.withUnsafeBufferPointer({ TextBytes.mayJoinTheScalarBefore($0, at: 0) }) {
                for ascii in ["a", "\\", ";", "n", "\r\n"] {
                    #expect((ascii + text).count == 2, "U+\(String(value, radix: 16))")
                }
                // Foundation's search for a line break fails before a mark it would join.
                #expect(("\r" + text).replacingOccurrences(of: "\r", with: "\n") == "\n" + text)
            }
            if !utf8.withUnsafeBufferPointer({ TextBytes.mayJoinTheScalarAfter($0, at: 0) }) {
                for ascii in ["a", "\\", ";"] {
                    #expect((text + ascii).count == 2, "U+\(String(value, radix: 16))")
                }
            }
        }
    }
}
