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

    /// How many rows a worker writes at a time, into one buffer.
    private static let rowsPerTask = 64

    /// Formats every contact's row but those in `reusing` (by directory position), taking what
    /// the directory's `listRows` (one per entry) worked out already.
    init(directory: Directory, reusing: [[UInt8]?]? = nil, listRows: [RowData]? = nil) {
        let writer = Writer(directory: directory)
        let count = directory.entries.count, perTask = Self.rowsPerTask
        // Formatting phone numbers is most of the work; every contact's row is independent.
        // Entries are read where the directory holds them, only the fields needed: a copy of a
        // whole entry retained each of its strings and its contact, and released them after.
        rows = directory.entries.withUnsafeBufferPointer { entries in
            nonisolated(unsafe) let entries = entries
            let tasks = ParallelWork.map((count + perTask - 1) / perTask, batch: 1) { task in
                var buffer = SearchByteBuffer(capacity: 1024)
                return (task * perTask..<min(count, (task + 1) * perTask)).map { index in
                    if let row = reusing?[index] { return row }
                    writer.write(
                        contact: entries[index].contact, slug: entries[index].slug,
                        displayName: entries[index].displayName, listRow: listRows?[index], to: &buffer)
                    return buffer.take()
                }
            }
            return Array(tasks.joined())
        }
    }

    /// Writes the rows of the contacts of one directory.
    private struct Writer: Sendable {
        let directory: Directory
        let pageLanguage: String
        let phones: PhoneFormatter
        let showsOrganization: Bool, showsPhones: Bool, showsEmails: Bool, showsGroups: Bool
        let showsNickname: Bool

        init(directory: Directory) {
            let config = directory.config
            self.directory = directory
            pageLanguage = InterfaceStrings(localeIdentifier: config.locale).language.languageTag
            phones = PhoneFormatter(defaultRegion: config.effectivePhoneRegion)
            showsOrganization = config.shows(.organization)
            showsPhones = config.shows(.phones)
            showsEmails = config.shows(.emails)
            showsGroups = config.shows(.groups)
            showsNickname = config.shows(.nickname)
        }

        /// Writes an entry's row, given by its contact, slug and display name: its fields in
        /// order, up to the last one that is not empty.
        func write(
            contact: Contact, slug: String, displayName: String, listRow: RowData?,
            to buffer: inout SearchByteBuffer
        ) {
            let language =
                listRow?.lang
                ?? NameFormatter.languageTag(of: contact).flatMap { $0 == pageLanguage ? nil : $0 } ?? ""
            let organization =
                (listRow?.organization
                    ?? (showsOrganization && !contact.isOrganizationOnly ? contact.organization : ""))
                .trimmingWhitespace
            let phones = showsPhones ? contact.phones : []
            let emails = showsEmails ? contact.emails : []
            var groups: [String] = []
            if showsGroups {
                for id in contact.groupIDs {
                    if let group = directory.groupIndex[id] {
                        groups.append(directory.groups[group].group.name)
                    }
                }
            }
            let trimmedNickname = contact.nickname.trimmingWhitespace
            let nickname = showsNickname && trimmedNickname != displayName ? trimmedNickname : ""
            let reading = SearchRows.reading(of: contact)
            // How many fields are written: trailing empty ones are left out, the slug never.
            let used =
                !reading.isEmpty ? 9 : !nickname.isEmpty ? 8 : !groups.isEmpty ? 7 : !emails.isEmpty ? 6
                : !phones.isEmpty ? 5 : !organization.isEmpty ? 4 : !language.isEmpty ? 3
                : !displayName.isEmpty ? 2 : 1
            SearchPieceWriter.append(count: used, to: &buffer) { field, buffer in
                switch field {
                case 0: SearchPieceWriter.append(string: slug, to: &buffer)
                case 1: SearchPieceWriter.append(string: displayName, to: &buffer)
                case 2: SearchPieceWriter.append(string: language, to: &buffer)
                case 3: SearchPieceWriter.append(string: organization, to: &buffer)
                case 4:
                    // The list row shows the first number as the contact page does.
                    let first = listRow?.phone?["display"] as? String
                    SearchPieceWriter.append(count: phones.count, to: &buffer) { index, buffer in
                        let display = index == 0 ? first : nil
                        SearchPieceWriter.append(
                            string: display ?? self.phones.format(phones[index].value), to: &buffer)
                    }
                case 5:
                    SearchPieceWriter.append(count: emails.count, to: &buffer) { index, buffer in
                        SearchPieceWriter.append(string: emails[index].value.trimmingWhitespace, to: &buffer)
                    }
                case 6: SearchPieceWriter.append(strings: groups, to: &buffer)
                case 7: SearchPieceWriter.append(string: nickname, to: &buffer)
                default: SearchPieceWriter.append(string: reading, to: &buffer)
                }
            }
        }
    }

    /// The phonetic name as the contact page shows it: joined without a space for East Asian
    /// names (さとうはなこ), given name first otherwise.
    static func reading(of contact: Contact) -> String {
        let given = contact.phoneticGivenName.trimmingWhitespace,
            family = contact.phoneticFamilyName.trimmingWhitespace
        // The order matters only when there are both.
        if given.isEmpty || family.isEmpty { return given + family }
        return NameFormatter.isEastAsian(contact.familyName) ? family + given : given + " " + family
    }
}
