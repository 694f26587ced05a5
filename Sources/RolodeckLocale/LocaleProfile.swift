import Foundation

/// What the locale layer needs to know about a site's locale identifier.
struct LocaleProfile: Sendable, Equatable {
    /// The identifier handed to Foundation (`en` when the configured one is blank).
    let identifier: String
    /// The lowercased language subtag, e.g. `de` for `de-AT` or `ko` for `ko_KR`.
    let language: String
    /// Script runs in page order; `#` always follows them.
    let scriptOrder: [SectionScript]
    /// The Latin letters this locale uses for its A–Z run.
    let alphabet: LatinAlphabet

    /// The profile of a locale identifier such as `de-AT` or `ko_KR`; blank means `en`.
    init(localeIdentifier: String) {
        let trimmed = localeIdentifier.trimmingCharacters(in: .whitespacesAndNewlines)
        identifier = trimmed.isEmpty ? "en" : trimmed
        language = Self.languageSubtag(of: identifier)
        switch language {
        case "ko": scriptOrder = [.hangul, .latin, .kana]
        case "ja": scriptOrder = [.kana, .latin, .hangul]
        default: scriptOrder = [.latin, .hangul, .kana]
        }
        alphabet = LatinAlphabet(language: language)
    }

    /// The language part of an identifier such as `de-AT`, `ko_KR` or `sv@collation=x`.
    static func languageSubtag(of identifier: String) -> String {
        let lowered = identifier.lowercased()
        let language = lowered.prefix { $0 != "-" && $0 != "_" && $0 != "@" && $0 != "." }
        return language.isEmpty ? "en" : String(language)
    }

    /// Whether the identifier carries keywords that may change collation rules.
    var hasCollationKeywords: Bool {
        let lowered = identifier.lowercased()
        return lowered.contains("@") || lowered.contains("-u-") || lowered.contains("_u_")
    }
}
