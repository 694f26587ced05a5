import Foundation
import Testing
@testable import RolodeckLocale

/// A seedable generator so random tests are reproducible.
struct LocaleTestRandom {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next(below bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((z ^ (z >> 31)) % UInt64(bound))
    }

    mutating func string(from alphabet: [String], maxLength: Int) -> String {
        (0...next(below: maxLength)).map { _ in alphabet[next(below: alphabet.count)] }.joined()
    }
}

@Suite("Fast collation keys agree with Foundation")
struct FastCollationKeyTests {
    /// Pieces that exercise shared prefixes, case, digraphs other locales
    /// tailor (aa, ch, ij, ll) and Hangul with and without final consonants.
    static let alphabet = ["a", "A", "aa", "b", "ch", "C", "e", "E", "i", "I", "ij", "ll", "o", "s", "v", "w",
                           "y", "z", "Z", " ", "-", ",", ".", "'", "’", "0", "7", "가", "각", "간", "까", "나", "힣"]

    @Test("fast keys order like Foundation", arguments: FastCollationKey.enabledLanguages.sorted(), [1, 2, 3])
    func agreement(_ language: String, seed: UInt64) throws {
        let profile = LocaleProfile(localeIdentifier: language)
        let fast = NameCollator(profile: profile)
        let slow = NameCollator(profile: profile, allowFastKeys: false)
        let maker = try #require(FastCollationKey(profile: profile))
        var random = LocaleTestRandom(seed: seed &* 1_000_003 &+ UInt64(language.unicodeScalars.reduce(0) { $0 &* 31 &+ $1.value }))
        let names = (0..<220).map { _ in random.string(from: Self.alphabet, maxLength: 4) }
        var fastCount = 0
        for name in names where maker.weights(for: name) != nil { fastCount += 1 }
        #expect(fastCount > 100, "most generated names should take the fast path")
        let fastKeys = names.map { fast.key(for: $0) }
        let slowKeys = names.map { slow.key(for: $0) }
        for i in names.indices {
            for j in names.indices where j > i {
                #expect(fast.compare(fastKeys[i], fastKeys[j]) == slow.compare(slowKeys[i], slowKeys[j]),
                        "\(names[i].debugDescription) vs \(names[j].debugDescription)")
            }
        }
    }

    @Test("locales with tailored ASCII never use fast keys",
          arguments: ["da", "nb", "cs", "tr", "hu", "lt", "en@colCaseFirst=upper", "de-u-co-phonebk"])
    func disabled(_ identifier: String) {
        #expect(FastCollationKey(profile: LocaleProfile(localeIdentifier: identifier)) == nil)
    }

    @Test("repertoire boundaries")
    func repertoire() throws {
        let english = try #require(FastCollationKey(profile: LocaleProfile(localeIdentifier: "en")))
        let korean = try #require(FastCollationKey(profile: LocaleProfile(localeIdentifier: "ko")))
        #expect(english.weights(for: "O'Brien") != nil)
        #expect(english.weights(for: "O’Brien") == nil)
        #expect(english.weights(for: "Émile") == nil)
        #expect(english.weights(for: "か") == nil)
        #expect(english.weights(for: "김a") != nil)
        #expect(korean.weights(for: "김 민준") != nil)
        #expect(korean.weights(for: "김a") == nil)
        #expect(korean.weights(for: "Kim") != nil)
    }
}
