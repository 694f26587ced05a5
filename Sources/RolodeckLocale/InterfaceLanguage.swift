/// A language the site's interface is translated into.
public enum InterfaceLanguage: String, Hashable, Sendable, CaseIterable {
    /// English, also the fallback for every untranslated locale.
    case english = "en"
    /// German.
    case german = "de"
    /// Korean.
    case korean = "ko"
    /// Japanese.
    case japanese = "ja"

    /// The language for a locale identifier such as `de-AT` or `ko_KR`; English when untranslated.
    init(localeIdentifier: String) {
        let language = LocaleProfile(localeIdentifier: localeIdentifier).language
        self = InterfaceLanguage(rawValue: language) ?? .english
    }

    /// The BCP 47 tag for the HTML `lang` attribute.
    public var languageTag: String { rawValue }
}
