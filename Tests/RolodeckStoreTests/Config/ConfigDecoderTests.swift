import Testing
@testable import RolodeckCore
@testable import RolodeckStore

@Suite struct ConfigDecoderTests {
    static func decode(_ json: String) -> (SiteConfig, [String]) {
        let (config, diagnostics) = ConfigDecoder.decode(SourceText(path: "rolodeck.json", text: json))
        return (config, diagnostics.map(\.description))
    }

    @Test func readsEveryKey() {
        let (config, diagnostics) = Self.decode("""
            {"title": "Team", "locale": "ko-KR", "sortBy": "givenName", "nameOrder": "familyFirst",
             "phoneRegion": "de", "unsafeHTML": true, "noindex": false, "store": "data", "output": "public",
             "baseURL": "/team", "hiddenFields": ["birthday", "addresses"], "hiddenContacts": ["a", "b"],
             "timeZone": "Europe/Berlin", "mapLinks": "apple", "pageSize": 250, "publishPrivate": true}
            """)
        #expect(diagnostics.isEmpty)
        var expected = SiteConfig()
        expected.title = "Team"
        expected.locale = "ko-KR"
        expected.sortBy = .givenName
        expected.nameOrder = .familyFirst
        expected.phoneRegion = "de"
        expected.unsafeHTML = true
        expected.noindex = false
        expected.store = "data"
        expected.output = "public"
        expected.baseURL = "/team/"
        expected.hiddenFields = [.birthday, .addresses]
        expected.hiddenContacts = ["a", "b"]
        expected.hiddenContactLocations = [
            "a": SourceLocation(path: "rolodeck.json", line: 3, column: 84),
            "b": SourceLocation(path: "rolodeck.json", line: 3, column: 89),
        ]
        expected.timeZone = "Europe/Berlin"
        expected.mapLinks = .apple
        expected.pageSize = 250
        expected.publishPrivate = true
        #expect(config == expected)
        #expect(config.effectivePhoneRegion == "DE")
        #expect(config.languageCode == "ko")
    }

    @Test func defaultsFollowTheLocale() {
        #expect(Self.decode("{}").0 == SiteConfig())
        #expect(Self.decode(#"{"locale": "ko"}"#).0.effectivePhoneRegion == "KR")
        #expect(Self.decode(#"{"locale": "en"}"#).0.effectivePhoneRegion == nil)
        #expect(Self.decode(#"{"locale": "ko", "phoneRegion": ""}"#).0.effectivePhoneRegion == nil)
    }

    struct BadConfig: CustomTestStringConvertible, Sendable {
        var json: String
        var expected: String
        var testDescription: String { json }
    }

    static let badConfigs: [BadConfig] = [
        BadConfig(json: #"{"sortBy": "lastName"}"#,
                  expected: #"rolodeck.json:1:12: error: sortBy "lastName" is not one of "familyName" or "givenName""#),
        BadConfig(json: #"{"locale": "english please"}"#,
                  expected: #"rolodeck.json:1:12: error: locale "english please" is not a locale identifier such as "en", "de" or "ko-KR""#),
        BadConfig(json: #"{"phoneRegion": "Korea"}"#,
                  expected: #"rolodeck.json:1:17: error: phoneRegion "Korea" is not a two-letter country code such as "KR" or "DE""#),
        BadConfig(json: #"{"hiddenFields": ["birthday", "shoeSize"]}"#,
                  expected: #"rolodeck.json:1:31: error: "shoeSize" is not a field that can be hidden; choose from salutation, nickname, organization, title, emails, phones, addresses, urls, birthday, age, groups, notes, photo"#),
        BadConfig(json: #"{"publishPrivate": "yes"}"#,
                  expected: #"rolodeck.json:1:20: error: "publishPrivate" must be true or false, not a string"#),
        BadConfig(json: #"{"publishPrivat": true}"#,
                  expected: #"rolodeck.json:1:2: error: unknown setting "publishPrivat"; did you mean "publishPrivate"?"#),
        BadConfig(json: #"{"noindex": "no"}"#,
                  expected: #"rolodeck.json:1:13: error: "noindex" must be true or false, not a string"#),
        BadConfig(json: #"{"store": ""}"#, expected: "rolodeck.json:1:11: error: store must name a folder"),
        BadConfig(json: #"{"timeZone": "Berlin time"}"#,
                  expected: #"rolodeck.json:1:14: error: timeZone "Berlin time" is not a time zone such as "Europe/Berlin" or "Asia/Seoul""#),
        BadConfig(json: #"{"titel": "x"}"#,
                  expected: #"rolodeck.json:1:2: error: unknown setting "titel"; did you mean "title"?"#),
        BadConfig(json: #"{"hiddenField": ["phones"]}"#,
                  expected: #"rolodeck.json:1:2: error: unknown setting "hiddenField"; did you mean "hiddenFields"?"#),
        BadConfig(json: #"{"colour": "red"}"#,
                  expected: #"rolodeck.json:1:2: error: unknown setting "colour"; the settings are title, locale, sortBy, "#
                      + "nameOrder, phoneRegion, unsafeHTML, noindex, store, output, baseURL, hiddenFields, "
                      + "hiddenContacts, timeZone, mapLinks, pageSize, publishPrivate"),
        BadConfig(json: #"{"mapLinks": "gogle"}"#,
                  expected: #"rolodeck.json:1:14: error: mapLinks "gogle" is not one of "openstreetmap", "google", "#
                      + #""apple", "none"; did you mean "google"?"#),
        BadConfig(json: #"{"mapLinks": "bing"}"#,
                  expected: #"rolodeck.json:1:14: error: mapLinks "bing" is not one of "openstreetmap", "google", "#
                      + #""apple", "none""#),
        BadConfig(json: #"{"mapLinks": false}"#,
                  expected: #"rolodeck.json:1:14: error: "mapLinks" must be a string, not a boolean"#),
        // A value of another type is reported once, as such, not also as a wrong text.
        BadConfig(json: #"{"sortBy": 3}"#, expected: #"rolodeck.json:1:12: error: "sortBy" must be a string, not a number"#),
        BadConfig(json: #"{"locale": ["en"]}"#,
                  expected: #"rolodeck.json:1:12: error: "locale" must be a string, not an array"#),
        BadConfig(json: #"{"timeZone": true}"#,
                  expected: #"rolodeck.json:1:14: error: "timeZone" must be a string, not a boolean"#),
        BadConfig(json: #"{"mapLink": "none"}"#,
                  expected: #"rolodeck.json:1:2: error: unknown setting "mapLink"; did you mean "mapLinks"?"#),
        BadConfig(json: #"{"pageSize": 0}"#,
                  expected: "rolodeck.json:1:14: error: pageSize 0 is not a whole number from 1 to 1000000000"),
        BadConfig(json: #"{"pageSize": 12.5}"#,
                  expected: "rolodeck.json:1:14: error: pageSize 12.5 is not a whole number from 1 to 1000000000"),
        BadConfig(json: #"{"pageSize": -3}"#,
                  expected: "rolodeck.json:1:14: error: pageSize -3 is not a whole number from 1 to 1000000000"),
        BadConfig(json: #"{"pageSize": "500"}"#,
                  expected: #"rolodeck.json:1:14: error: "pageSize" must be a whole number, not a string"#),
        BadConfig(json: #"{"pagesize": 500}"#,
                  expected: #"rolodeck.json:1:2: error: unknown setting "pagesize"; did you mean "pageSize"?"#),
        BadConfig(json: "[]", expected: "rolodeck.json:1:1: error: the config must be a JSON object, not an array"),
        BadConfig(json: "{\"title\": \"x\",}",
                  expected: "rolodeck.json:1:15: error: a comma before '}' is not allowed in JSON; remove the trailing comma"),
    ]

    @Test(arguments: badConfigs)
    func badValuesAreReportedWithTheirLocation(_ testCase: BadConfig) {
        #expect(Self.decode(testCase.json).1 == [testCase.expected])
    }

    /// A text a setting is checked by, and whether that setting takes it.
    struct SettingText: CustomTestStringConvertible, Sendable {
        var setting: String
        var text: String
        var isTaken: Bool
        var testDescription: String { "\(setting) \"\(text)\"" }

        init(_ setting: String, _ text: String, _ isTaken: Bool) {
            self.setting = setting
            self.text = text
            self.isTaken = isTaken
        }
    }

    static let settingTexts: [SettingText] = [
        SettingText("locale", "en", true), SettingText("locale", "ko-KR", true),
        SettingText("locale", "zh_Hant_TW", true), SettingText("locale", "gsw-CH-1901", true),
        SettingText("locale", "", false), SettingText("locale", "e", false), SettingText("locale", "engl", false),
        SettingText("locale", "en-", false), SettingText("locale", "en-subtagtoolong", false),
        SettingText("locale", "12-KR", false), SettingText("locale", "ko-K R", false),
        SettingText("phoneRegion", "", true), SettingText("phoneRegion", "KR", true),
        SettingText("phoneRegion", "de", true), SettingText("phoneRegion", "K", false),
        SettingText("phoneRegion", "KOR", false), SettingText("phoneRegion", "K1", false),
        SettingText("phoneRegion", "ÄÖ", false),
        SettingText("timeZone", "", true), SettingText("timeZone", "Asia/Seoul", true),
        SettingText("timeZone", "Europe/Berlin", true), SettingText("timeZone", "Berlin time", false),
        SettingText("timeZone", "Mars/Olympus_Mons", false),
    ]

    @Test(arguments: settingTexts)
    func eachSettingTakesTheTextsItShould(_ testCase: SettingText) throws {
        let rules: [String: (String) -> Bool] = [
            "locale": ConfigDecoder.isLocaleIdentifier, "phoneRegion": ConfigDecoder.isPhoneRegion,
            "timeZone": ConfigDecoder.isTimeZone,
        ]
        let isTaken = try #require(rules[testCase.setting])
        #expect(isTaken(testCase.text) == testCase.isTaken)
    }

    /// A locale whose language ICU has no rules for is taken, with a warning at its value: most
    /// such locales are a country's code where its language's was meant.
    struct LanguageCase: CustomTestStringConvertible, Sendable {
        var locale: String
        /// The warning, or nil for a language ICU knows.
        var warning: String?
        var testDescription: String { locale }
    }

    static let languageCases: [LanguageCase] = [
        LanguageCase(locale: "en", warning: nil), LanguageCase(locale: "ko-KR", warning: nil),
        LanguageCase(locale: "de_CH", warning: nil), LanguageCase(locale: "fr", warning: nil),
        LanguageCase(locale: "zh_Hant_TW", warning: nil), LanguageCase(locale: "deu", warning: nil),
        // North Sámi, whose rules ICU has, though "se" is also Sweden's code.
        LanguageCase(locale: "se", warning: nil),
        LanguageCase(
            locale: "jp",
            warning: #"rolodeck.json:1:12: warning: locale "jp": ICU has no rules for the language "jp", "#
                + #"so names are sorted by its root rules and the pages are in English; did you mean "ja" (Japanese)?"#),
        LanguageCase(
            locale: "kr-KR",
            warning: #"rolodeck.json:1:12: warning: locale "kr-KR": ICU has no rules for the language "kr" (Kanuri), "#
                + #"so names are sorted by its root rules and the pages are in English; did you mean "ko" (Korean)?"#),
        LanguageCase(
            locale: "DK",
            warning: #"rolodeck.json:1:12: warning: locale "DK": ICU has no rules for the language "dk", "#
                + #"so names are sorted by its root rules and the pages are in English; did you mean "da" (Danish)?"#),
        LanguageCase(
            locale: "xx",
            warning: #"rolodeck.json:1:12: warning: locale "xx": ICU has no rules for the language "xx", "#
                + "so names are sorted by its root rules and the pages are in English"),
    ]

    @Test(arguments: languageCases)
    func aLanguageICUHasNoRulesForIsAWarning(_ testCase: LanguageCase) {
        let (config, diagnostics) = Self.decode(#"{"locale": ""# + testCase.locale + #""}"#)
        #expect(config.locale == testCase.locale)
        #expect(diagnostics == (testCase.warning.map { [$0] } ?? []))
    }
}
