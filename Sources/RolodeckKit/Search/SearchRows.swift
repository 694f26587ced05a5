/// What a search result shows of each contact, as JSON arrays in directory order.
///
/// A row is `[slug, name, lang, organization, [phones], [emails], [groups], nickname, reading]`
/// with trailing empty values left out: the link (`contacts/<slug>.html`), the display name
/// with its language when it differs from the page's (for a `lang` attribute), and every field
/// search finds a contact by, so the client can show the one that matched. Hidden fields are
/// never included.
struct SearchRows {
    /// One JSON array per contact, in directory order, as UTF-8.
    let rows: [[UInt8]]

    /// Formats every contact's row but those in `reusing` (by directory position).
    init(directory: Directory, reusing: [[UInt8]?]? = nil) {
        let config = directory.config
        let pageLanguage = InterfaceStrings(localeIdentifier: config.locale).language.languageTag
        let phones = PhoneFormatter(defaultRegion: config.effectivePhoneRegion)
        // Formatting phone numbers is most of the work; every contact's row is independent.
        rows = ParallelWork.map(directory.entries.count) { index in
            if let row = reusing?[index] { return row }
            let entry = directory.entries[index]
            let contact = entry.contact
            let language =
                NameFormatter.languageTag(of: contact).flatMap { $0 == pageLanguage ? nil : $0 } ?? ""
            let organization =
                config.shows(.organization) && !contact.isOrganizationOnly ? contact.organization : ""
            let nickname = contact.nickname.trimmingWhitespace
            let fields: [Field] = [
                .text(entry.slug), .text(entry.displayName), .text(language),
                .text(organization.trimmingWhitespace),
                .list(config.shows(.phones) ? contact.phones.map { phones.format($0.value) } : []),
                .list(config.shows(.emails) ? contact.emails.map(\.value.trimmingWhitespace) : []),
                .list(
                    config.shows(.groups)
                        ? contact.groupIDs.compactMap {
                            directory.groupIndex[$0].map { directory.groups[$0].group.name }
                        }
                        : []),
                .text(config.shows(.nickname) && nickname != entry.displayName ? nickname : ""),
                .text(Self.reading(of: contact)),
            ]
            let used = (fields.lastIndex { !$0.isEmpty } ?? 0) + 1
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            for (index, field) in fields.prefix(used).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                switch field {
                case .text(let text): SearchPieceWriter.append(string: text, to: &bytes)
                case .list(let list): SearchPieceWriter.append(strings: list, to: &bytes)
                }
            }
            bytes.append(UInt8(ascii: "]"))
            return bytes
        }
    }

    private enum Field {
        case text(String)
        case list([String])

        var isEmpty: Bool {
            switch self {
            case .text(let text): text.isEmpty
            case .list(let list): list.isEmpty
            }
        }
    }

    /// The phonetic name as the contact page shows it: joined without a space for East Asian
    /// names (さとうはなこ), given name first otherwise.
    static func reading(of contact: Contact) -> String {
        let given = contact.phoneticGivenName.trimmingWhitespace,
            family = contact.phoneticFamilyName.trimmingWhitespace
        if NameFormatter.isEastAsian(contact.familyName) { return family + given }
        return [given, family].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
