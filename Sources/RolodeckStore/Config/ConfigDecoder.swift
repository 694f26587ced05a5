import Foundation
import RolodeckCore

/// Reads `rolodeck.json` into a `SiteConfig`, reporting every problem with its location.
enum ConfigDecoder {
    /// Every key the config accepts.
    static let known = [
        "title", "locale", "sortBy", "nameOrder", "phoneRegion", "unsafeHTML", "noindex", "store", "output",
        "baseURL", "hiddenFields", "hiddenContacts", "timeZone",
    ]

    /// Decodes the config file; the config is usable when no diagnostic is an error.
    static func decode(_ source: SourceText) -> (config: SiteConfig, diagnostics: [Diagnostic]) {
        var config = SiteConfig()
        var reader = RecordReader(source: source, kind: nil)
        for offset in UTF8Validator.invalidOffsets(in: source.bytes) {
            reader.report(.invalidUTF8(byte: source.bytes[offset]), at: offset)
        }
        let root: JSONValue
        do {
            root = try JSONParser.parse(source.bytes)
        } catch {
            reader.report(.syntax(error), at: error.offset)
            return (config, reader.diagnostics)
        }
        guard case .object(let members) = root.kind else {
            reader.report(.error, "the config must be a JSON object, not \(root.typeDescription)", at: root.offset)
            return (config, reader.diagnostics)
        }
        reader.forEachMember(of: members) { reader, member in
            switch member.key {
            case "title": config.title = reader.string(member)
            case "locale":
                let locale = reader.string(member)
                if isLocaleIdentifier(locale) {
                    config.locale = locale
                } else {
                    reader.report(.error, "locale \"\(locale)\" is not a locale identifier such as \"en\", \"de\" "
                                  + "or \"ko-KR\"", at: member.value.offset)
                }
            case "sortBy": config.sortBy = choice(member, reader: &reader) ?? config.sortBy
            case "nameOrder": config.nameOrder = choice(member, reader: &reader)
            case "phoneRegion":
                let region = reader.string(member)
                if region.isEmpty || (region.count == 2 && region.allSatisfy { $0.isASCII && $0.isLetter }) {
                    config.phoneRegion = region
                } else {
                    reader.report(.error, "phoneRegion \"\(region)\" is not a two-letter country code such as "
                                  + "\"KR\" or \"DE\"", at: member.value.offset)
                }
            case "unsafeHTML": config.unsafeHTML = reader.bool(member)
            case "noindex": config.noindex = reader.bool(member)
            case "store": config.store = path(member, reader: &reader) ?? config.store
            case "output": config.output = path(member, reader: &reader) ?? config.output
            case "baseURL":
                var base = reader.string(member)
                if !base.isEmpty, !base.hasSuffix("/") { base += "/" }
                config.baseURL = base.isEmpty ? nil : base
            case "hiddenFields":
                for (name, offset) in reader.strings(member) {
                    if let field = SiteConfig.Field(rawValue: name) {
                        config.hiddenFields.insert(field)
                    } else {
                        let names = SiteConfig.Field.allCases.map(\.rawValue)
                        reader.report(.error, "\"\(name)\" is not a field that can be hidden; choose from "
                                      + names.joined(separator: ", "), at: offset)
                    }
                }
            case "timeZone":
                let name = reader.string(member)
                if name.isEmpty {
                    config.timeZone = nil
                } else if TimeZone(identifier: name) != nil {
                    config.timeZone = name
                } else {
                    reader.report(.error, "timeZone \"\(name)\" is not a time zone such as \"Europe/Berlin\" "
                                  + "or \"Asia/Seoul\"", at: member.value.offset)
                }
            case "hiddenContacts":
                config.hiddenContacts = Set(reader.strings(member).map(\.0))
            default:
                reader.unknown(member, known: known)
            }
        }
        return (config, reader.diagnostics)
    }

    private static func choice<Choice: RawRepresentable & CaseIterable>(
        _ member: JSONMember, reader: inout RecordReader
    ) -> Choice? where Choice.RawValue == String {
        let text = reader.string(member)
        if let value = Choice(rawValue: text) { return value }
        let names = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        reader.report(.error, "\(member.key) \"\(text)\" is not one of \(names)", at: member.value.offset)
        return nil
    }

    private static func path(_ member: JSONMember, reader: inout RecordReader) -> String? {
        let text = reader.string(member)
        guard !text.isBlank else {
            reader.report(.error, "\(member.key) must name a folder", at: member.value.offset)
            return nil
        }
        return text
    }

    /// BCP 47-like: a 2–3 letter language, then optional subtags joined by "-" or "_".
    static func isLocaleIdentifier(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap { $0.split(separator: "_", omittingEmptySubsequences: false) }
        guard let language = parts.first, (2...3).contains(language.count),
              language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { part in
            (1...8).contains(part.count) && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
