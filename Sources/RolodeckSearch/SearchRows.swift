import ByteKernels
import RolodeckPlan
import RolodeckLocale
import RolodeckCore

/// What a search result shows of each contact, as JSON arrays in directory order.
///
/// A row is `[slug, name, lang, organization, [phones], [emails], [groups], nickname, reading,
/// thumbnail]` with trailing empty values left out (the thumbnail is the name of the photo's
/// thumbnail, `photos/<name>-96.webp`, 20 characters rather than the path): the link (`contacts/<slug>.html`), the display name
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
    init(directory: Directory, reusing: [[UInt8]?]? = nil, listRows: SearchListRows.Rows? = nil) {
        let writer = Writer(directory: directory)
        let count = directory.entries.count, perTask = Self.rowsPerTask
        // Formatting phone numbers is most of the work; every contact's row is independent.
        // Entries are read where the directory holds them, only the fields needed: a copy of a
        // whole entry retains each of its strings and its contact, and releases them after.
        let entries = directory.entries
        let tasks = ParallelWork.map((count + perTask - 1) / perTask, batch: 1) { task in
            var buffer = ByteBuffer(capacity: 1024)
            return (task * perTask..<min(count, (task + 1) * perTask)).map { index in
                if let row = reusing?[index] { return row }
                writer.write(
                    entry: index, contact: entries[index].contact, slug: entries[index].slug,
                    displayName: entries[index].displayName, listRow: listRows?[index], to: &buffer)
                return buffer.take()
            }
        }
        rows = Array(tasks.joined())
    }

    /// The rows of the entries at `indices` of `directory`, given each entry's list row.
    static func rows(of indices: [Int], in directory: Directory, listRows: SearchListRows.Rows?)
        -> [[UInt8]]
    {
        let writer = Writer(directory: directory)
        var buffer = ByteBuffer(capacity: 1024)
        return indices.map { index in
            let entry = directory.entries[index]
            writer.write(
                entry: index, contact: entry.contact, slug: entry.slug, displayName: entry.displayName,
                listRow: listRows?[index], to: &buffer)
            return buffer.take()
        }
    }

    /// Writes the rows of the contacts of one directory.
    private struct Writer: Sendable {
        /// The directory's `entryGroups` and `entryGroupStarts`: each entry's groups, as
        /// positions, found without looking its group ids up.
        let entryGroups: [Int32], entryGroupStarts: [Int32]
        /// Each group's name, by position.
        let groupNames: [String]
        /// The language of the site's pages; a name in another gets its own tag.
        let pageLanguage: String
        /// Formats the phone numbers a list row does not have worked out.
        let phones: PhoneFormatter
        /// Which of the fields the config shows.
        let showsOrganization: Bool, showsPhones: Bool, showsEmails: Bool, showsGroups: Bool
        /// Whether the config shows nicknames.
        let showsNickname: Bool

        /// A writer for the rows of `directory`.
        init(directory: Directory) {
            let config = directory.config
            entryGroups = directory.entryGroups
            entryGroupStarts = directory.entryGroupStarts
            groupNames = directory.groups.map(\.group.name)
            pageLanguage = InterfaceStrings(localeIdentifier: config.locale).language.languageTag
            phones = PhoneFormatter(defaultRegion: config.effectivePhoneRegion)
            showsOrganization = config.shows(.organization)
            showsPhones = config.shows(.phones)
            showsEmails = config.shows(.emails)
            showsGroups = config.shows(.groups)
            showsNickname = config.shows(.nickname)
        }

        /// Writes the row of entry `index` of the directory, given by its contact, slug and display
        /// name: its fields in order, up to the last one that is not empty.
        func write(
            entry index: Int, contact: Contact, slug: String, displayName: String, listRow: (any SearchListRow)?,
            to buffer: inout ByteBuffer
        ) {
            let language =
                listRow?.lang
                ?? NameScript.languageTag(of: contact).flatMap { $0 == pageLanguage ? nil : $0 } ?? ""
            let organization =
                (listRow?.organization
                    ?? (showsOrganization && !contact.isOrganizationOnly ? contact.organization : ""))
                .trimmingWhitespace
            let phones = showsPhones ? contact.phones : []
            let emails = showsEmails ? contact.emails : []
            let groups = showsGroups ? Int(entryGroupStarts[index])..<Int(entryGroupStarts[index + 1]) : 0..<0
            let trimmedNickname = contact.nickname.trimmingWhitespace
            let nickname = showsNickname && trimmedNickname != displayName ? trimmedNickname : ""
            let reading = SearchRows.reading(of: contact)
            let thumbnail = listRow?.thumbnailName ?? ""
            // How many fields are written: trailing empty ones are left out, the slug never.
            let used =
                !thumbnail.isEmpty ? 10 : !reading.isEmpty ? 9 : !nickname.isEmpty ? 8 : !groups.isEmpty ? 7 : !emails.isEmpty ? 6
                : !phones.isEmpty ? 5 : !organization.isEmpty ? 4 : !language.isEmpty ? 3
                : !displayName.isEmpty ? 2 : 1
            SearchPieceWriter.append(count: used, to: &buffer) { field, buffer in
                switch field {
                case 0: SearchPieceWriter.append(string: slug, to: &buffer)
                case 1: SearchPieceWriter.append(string: displayName, to: &buffer)
                case 2: SearchPieceWriter.append(string: language, to: &buffer)
                case 3: SearchPieceWriter.append(string: organization, to: &buffer)
                case 4:
                    SearchPieceWriter.append(count: phones.count, to: &buffer) { index, buffer in
                        let raw = phones[index].value
                        // A number shown as written is told by its bytes, quicker than looking it
                        // up in the list row, which shows the first number as the contact page
                        // does; any other is formatted unless the list row has it.
                        let display: String
                        if SearchRows.showsAsWritten(raw, region: self.phones.defaultRegion) {
                            display = raw.trimmingWhitespace
                        } else {
                            let fromList = index == 0 ? listRow?.firstPhoneDisplay : nil
                            display = fromList ?? self.phones.format(raw)
                        }
                        SearchPieceWriter.append(string: display, to: &buffer)
                    }
                case 5:
                    SearchPieceWriter.append(count: emails.count, to: &buffer) { index, buffer in
                        SearchPieceWriter.append(string: emails[index].value.trimmingWhitespace, to: &buffer)
                    }
                case 6:
                    SearchPieceWriter.append(count: groups.count, to: &buffer) { index, buffer in
                        let group = Int(entryGroups[groups.lowerBound + index])
                        SearchPieceWriter.append(string: groupNames[group], to: &buffer)
                    }
                case 7: SearchPieceWriter.append(string: nickname, to: &buffer)
                case 8: SearchPieceWriter.append(string: reading, to: &buffer)
                default: SearchPieceWriter.append(string: thumbnail, to: &buffer)
                }
            }
        }
    }

    /// Whether `PhoneFormatter.format` shows a number as written (only trimmed), told from its
    /// bytes without taking the number apart: it regroups only Korean numbers, those with no
    /// international prefix in region KR and those whose dialable characters after `+` or `00`
    /// start with 82. Those characters are, for ASCII text, the digits, `*` and `#` of the
    /// text with zeros left out (the `00`, a trunk "(0)"), so their first that is not a zero is
    /// the text's first. False when that is an 8, for any non-ASCII text, and in region KR.
    static func showsAsWritten(_ raw: String, region: String?) -> Bool {
        guard region != "KR" else { return false }
        var raw = raw
        return raw.withUTF8 { bytes in
            // The first dialable character that is not a zero; every byte must be ASCII.
            var first: UInt8 = 0
            for byte in bytes {
                switch byte {
                case 0x80...: return false
                case UInt8(ascii: "1")...UInt8(ascii: "9"), UInt8(ascii: "*"), UInt8(ascii: "#"):
                    if first == 0 { first = byte }
                default: continue
                }
            }
            return first != UInt8(ascii: "8")
        }
    }

    /// The phonetic name as the contact page shows it: joined without a space for East Asian
    /// names (さとうはなこ), given name first otherwise.
    static func reading(of contact: Contact) -> String {
        let given = contact.phoneticGivenName.trimmingWhitespace,
            family = contact.phoneticFamilyName.trimmingWhitespace
        // The order matters only when there are both.
        if given.isEmpty || family.isEmpty { return given + family }
        return NameScript.isEastAsian(contact.familyName) ? family + given : given + " " + family
    }
}
