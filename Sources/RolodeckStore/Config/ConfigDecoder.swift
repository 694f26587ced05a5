import Foundation
import RolodeckCore

/// Reads `rolodeck.json` into a `SiteConfig`, reporting every problem with its location.
enum ConfigDecoder {
    /// Every key the config accepts.
    static let known = [
        "title", "locale", "sortBy", "nameOrder", "phoneRegion", "unsafeHTML", "noindex", "store", "output",
        "baseURL", "hiddenFields", "hiddenContacts", "timeZone", "mapLinks",
        "pageSize", "publishPrivate",
    ]

    /// Decodes the config file; the config is usable when no diagnostic is an error.
    static func decode(_ source: SourceText) -> (config: SiteConfig, diagnostics: [Diagnostic]) {
        var config = SiteConfig()
        var reader = RecordReader(source: source, kind: nil)
        for offset in UTF8Validator.invalidOffsets(in: source.bytes) {
            reader.report(.invalidUTF8(byte: source.bytes[offset]), at: offset)
        }
        guard let members = members(of: source, reader: &reader) else { return (config, reader.diagnostics) }
        reader.forEachMember(of: members) { reader, member in
            read(member, into: &config, reader: &reader)
        }
        return (config, reader.diagnostics)
    }

    /// Where the value of the config's member `key` starts (the last, when it is given twice,
    /// as the last one is used); nil when the config does not set it or is not an object.
    static func valueLocation(of key: String, in source: SourceText) -> SourceLocation? {
        guard case .object(let members)? = (try? JSONParser.parse(source.bytes))?.kind,
            let member = members.last(where: { $0.key == key })
        else { return nil }
        return source.location(at: member.value.offset)
    }

    /// The members of the config's object, or nil after reporting that the file is not JSON or
    /// not an object.
    private static func members(of source: SourceText, reader: inout RecordReader) -> [JSONMember]? {
        let root: JSONValue
        do {
            root = try JSONParser.parse(source.bytes)
        } catch {
            reader.report(.syntax(error), at: error.offset)
            return nil
        }
        guard case .object(let members) = root.kind else {
            reader.report(
                .error, "the config must be a JSON object, not \(root.typeDescription)", at: root.offset)
            return nil
        }
        return members
    }

    /// Sets the setting a member names; a value that is not one the setting takes is reported and
    /// leaves the setting as it was.
    private static func read(_ member: JSONMember, into config: inout SiteConfig, reader: inout RecordReader)
    {
        switch member.key {
        case "title": config.title = reader.string(member)
        case "locale":
            let locale = checked(
                member, reader: &reader, isLocaleIdentifier,
                else: #"a locale identifier such as "en", "de" or "ko-KR""#)
            if let locale {
                config.locale = locale
                if let warning = unknownLanguage(locale) {
                    reader.report(.warning, warning, at: member.value.offset)
                }
            }
        case "sortBy": config.sortBy = choice(member, reader: &reader) ?? config.sortBy
        case "nameOrder": config.nameOrder = choice(member, reader: &reader)
        case "phoneRegion":
            let region = checked(
                member, reader: &reader, isPhoneRegion,
                else: #"a two-letter country code such as "KR" or "DE""#)
            if let region { config.phoneRegion = region }
        case "unsafeHTML": config.unsafeHTML = reader.bool(member)
        case "noindex": config.noindex = reader.bool(member)
        case "publishPrivate": config.publishPrivate = reader.bool(member)
        case "store": config.store = path(member, reader: &reader) ?? config.store
        case "output": config.output = path(member, reader: &reader) ?? config.output
        case "baseURL": config.baseURL = baseURL(reader.string(member))
        case "hiddenFields": config.hiddenFields.formUnion(hiddenFields(member, reader: &reader))
        case "timeZone":
            let name = checked(
                member, reader: &reader, isTimeZone,
                else: #"a time zone such as "Europe/Berlin" or "Asia/Seoul""#)
            if let name { config.timeZone = name.nonEmpty }
        case "hiddenContacts":
            let ids = reader.strings(member)
            config.hiddenContacts = Set(ids.map(\.0))
            for (id, offset) in ids where config.hiddenContactLocations[id] == nil {
                config.hiddenContactLocations[id] = reader.source.location(at: offset)
            }
        case "mapLinks": config.mapLinks = suggestedChoice(member, reader: &reader) ?? config.mapLinks
        case "pageSize": config.pageSize = pageSize(member, reader: &reader) ?? config.pageSize
        default:
            // An error, not a warning: a build that went on past a misspelt `hiddenFields` would
            // publish what it was meant to hide.
            let suggestion = Suggestion.closest(to: member.key, in: known)
            reader.report(
                .unknownSetting(member.key, suggestion: suggestion, known: known), at: member.keyOffset)
        }
    }

    /// The member's text when `isValid` says it is valid, else nil after reporting that it is
    /// not what `description` says it should be.
    private static func checked(
        _ member: JSONMember, reader: inout RecordReader, _ isValid: (String) -> Bool,
        else description: String
    ) -> String? {
        let text = reader.string(member)
        // A value of another type was reported as such, and is not a text to check.
        switch member.value.kind {
        case .string, .null: break
        default: return nil
        }
        guard isValid(text) else {
            reader.report(.error, "\(member.key) \"\(text)\" is not \(description)", at: member.value.offset)
            return nil
        }
        return text
    }

    /// The base URL with a `/` at its end; nil when it is empty.
    private static func baseURL(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// The fields `hiddenFields` names; a name that is not a field is reported.
    private static func hiddenFields(_ member: JSONMember, reader: inout RecordReader) -> [SiteConfig.Field] {
        reader.strings(member).compactMap { name, offset in
            if let field = SiteConfig.Field(rawValue: name) { return field }
            let names = SiteConfig.Field.allCases.map(\.rawValue)
            reader.report(
                .error,
                "\"\(name)\" is not a field that can be hidden; choose from " + names.joined(separator: ", "),
                at: offset)
            return nil
        }
    }

    /// The member's value when it names one of `Choice`'s cases, else nil after reporting which
    /// it can name.
    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ member: JSONMember, reader: inout RecordReader
    ) -> Choice? where Choice.RawValue == String {
        let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        let text = checked(member, reader: &reader, { Choice(rawValue: $0) != nil }, else: "one of \(names)")
        return text.flatMap(Choice.init(rawValue:))
    }

    /// The member's value when it names one of `Choice`'s cases, else nil after reporting which
    /// it can name, with the one it is closest to: a misspelt provider is an error, not a
    /// silent default.
    private static func suggestedChoice<Choice: RawRepresentable & CaseIterable>(
        _ member: JSONMember, reader: inout RecordReader
    ) -> Choice? where Choice.RawValue == String {
        // Null keeps the default; another type is reported as such, once.
        guard case .string(let text) = member.value.kind else {
            _ = reader.string(member)
            return nil
        }
        if let choice = Choice(rawValue: text) { return choice }
        let names = Choice.allCases.map(\.rawValue)
        let suggestion = Suggestion.closest(to: text, in: names).map { "; did you mean \"\($0)\"?" } ?? ""
        let choices = names.map { "\"\($0)\"" }.joined(separator: ", ")
        reader.report(
            .error, "\(member.key) \"\(text)\" is not one of \(choices)\(suggestion)", at: member.value.offset)
        return nil
    }

    /// The member's value when it is a whole number from 1 up, else nil after reporting what it
    /// must be; null keeps the default.
    private static func pageSize(_ member: JSONMember, reader: inout RecordReader) -> Int? {
        switch member.value.kind {
        case .null:
            return nil
        case .number(let value, let text):
            // Past a billion a page would not fit a browser anyway; the limit keeps `Int` safe.
            guard value >= 1, value <= 1_000_000_000, value.rounded() == value else {
                reader.report(
                    .error, "pageSize \(text) is not a whole number from 1 to 1000000000",
                    at: member.value.offset)
                return nil
            }
            return Int(value)
        default:
            reader.report(
                .wrongType(field: member.key, expected: "a whole number", found: member.value.typeDescription),
                at: member.value.offset)
            return nil
        }
    }

    /// The member's text when it is not blank, else nil after reporting that it must name a folder.
    private static func path(_ member: JSONMember, reader: inout RecordReader) -> String? {
        let text = reader.string(member)
        guard !text.isBlank else {
            reader.report(.error, "\(member.key) must name a folder", at: member.value.offset)
            return nil
        }
        return text
    }

    /// A time zone database name, or empty for none (each time is shown in its own zone).
    static func isTimeZone(_ text: String) -> Bool {
        text.isEmpty || TimeZone(identifier: text) != nil
    }

    /// A two-letter country code, or empty for none (no region, whatever the locale).
    static func isPhoneRegion(_ text: String) -> Bool {
        text.isEmpty || (text.count == 2 && text.allSatisfy { $0.isASCII && $0.isLetter })
    }

    /// Why `identifier` (a locale identifier) is likely a slip, when ICU has no rules for its
    /// language: a country's code for its language (`"jp"`, `"dk"`, or `"kr"`, which is Kanuri)
    /// or no language at all. Such a locale is taken, but its names are sorted by ICU's root
    /// rules and its pages are in English, which is seldom what was meant. Nil when ICU knows
    /// the language.
    static func unknownLanguage(_ identifier: String) -> String? {
        let code = languageSubtag(of: identifier)
        guard !hasRules(forLanguage: code) else { return nil }
        var message = "locale \"\(identifier)\": ICU has no rules for the language \"\(code)\""
        if let name = Locale(identifier: "en").localizedString(forLanguageCode: code), name != code {
            message += " (\(name))"
        }
        message += ", so names are sorted by its root rules and the pages are in English"
        // A country's code in place of its language's: the language most spoken there.
        if Locale.Region(code.uppercased()).isISORegion,
            let likely = Locale.Language(identifier: "und-" + code.uppercased()).maximalIdentifier
                .split(separator: "-").first.map(String.init),
            likely != code, hasRules(forLanguage: likely)
        {
            let name = Locale(identifier: "en").localizedString(forLanguageCode: likely) ?? likely
            message += "; did you mean \"\(likely)\" (\(name))?"
        }
        return message
    }

    /// Whether ICU has rules (a locale of its data) for the language of `code`, two letters or
    /// three (`"deu"` is `"de"`).
    private static func hasRules(forLanguage code: String) -> Bool {
        let short = Locale.LanguageCode(code).identifier(.alpha2) ?? code
        return languagesWithRules.contains(short) || languagesWithRules.contains(code)
    }

    /// The languages of the locales ICU has data for.
    private static let languagesWithRules = Set(Locale.availableIdentifiers.map(languageSubtag))

    /// The language part of a locale identifier, lowercased.
    private static func languageSubtag(of identifier: String) -> String {
        identifier.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
    }

    /// BCP 47-like: a 2–3 letter language, then optional subtags joined by "-" or "_".
    static func isLocaleIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count),
            language.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
