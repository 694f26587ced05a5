import RolodeckCore

/// Reads what Rolodeck shows from a vCard's properties: the name (`N`, `FN`, `NICKNAME`, the
/// sort and phonetic forms), `ORG`, `TITLE`, `TEL`, `EMAIL`, `ADR`, `URL`, `BDAY`, `NOTE`,
/// `UID`, `CATEGORIES`, and for group cards their members.
///
/// One value is used per file, so the charset problems of a file are reported once each.
struct VCardFields: ContentLineFields {
    /// The issue this reader reports.
    typealias Issue = VCardIssue

    /// Reads the values and holds the warnings.
    var lineText = ContentLineText()

    /// The record for a card, or nil when it has nothing to show (the reason is reported).
    mutating func record(from card: VCard) -> VCardRecord? {
        var customLabels: [String: String] = [:]
        for line in card.properties where line.name == "X-ABLABEL" && !line.group.isEmpty {
            customLabels[line.group] = VCardLabel.unwrapped(text(line))
        }
        let lists = card.version != .v21
        var contact = Contact(id: "")
        var fn: String?
        var n: [[String]]?
        var sortAs: [String] = []
        var sortString = ""
        var organization: [[String]]?
        var nicknames: [String] = []
        var notes: [String] = []
        var uid: Located<String>?
        var categories: [Located<String>] = []
        var members: [Located<String>] = []
        var isGroup = false

        for line in card.properties where line.encoding != .base64 {
            switch line.name {
            case "FN":
                if fn == nil { fn = text(line).trimmingWhitespace.nonEmpty }
            case "N":
                guard n == nil else { continue }
                n = TextValue.components(rawText(line), lists: lists)
                sortAs = line.values(of: "SORT-AS").flatMap { value in
                    value.split(separator: ",", omittingEmptySubsequences: false).map { String($0).trimmingWhitespace }
                }
            case "NICKNAME":
                nicknames += (lists ? TextValue.split(rawText(line), at: ",") : [text(line)]).map(\.trimmingWhitespace)
            case "X-PHONETIC-FIRST-NAME": contact.phoneticGivenName = text(line).trimmingWhitespace
            case "X-PHONETIC-LAST-NAME": contact.phoneticFamilyName = text(line).trimmingWhitespace
            case "SORT-STRING": sortString = text(line).trimmingWhitespace
            case "ORG":
                if organization == nil { organization = TextValue.components(rawText(line), lists: false) }
            case "TITLE":
                if contact.title.isEmpty { contact.title = text(line).trimmingWhitespace }
            case "TEL":
                let number = withoutScheme(text(line).trimmingWhitespace, "tel:")
                if !number.isEmpty {
                    contact.phones.append(LabeledValue(label: VCardLabel.label(of: line, customLabels: customLabels),
                                                       value: number))
                }
            case "EMAIL":
                let address = withoutScheme(text(line).trimmingWhitespace, "mailto:")
                if !address.isEmpty {
                    contact.emails.append(LabeledValue(label: VCardLabel.label(of: line, customLabels: customLabels),
                                                       value: address))
                }
            case "ADR":
                let address = postalAddress(TextValue.components(rawText(line), lists: lists),
                                            label: VCardLabel.label(of: line, customLabels: customLabels))
                if !address.isEmpty { contact.addresses.append(address) }
            case "URL":
                let url = text(line).trimmingWhitespace
                if !url.isEmpty {
                    contact.urls.append(LabeledValue(label: VCardLabel.label(of: line, customLabels: customLabels),
                                                     value: url))
                }
            case "BDAY":
                guard contact.birthday == nil else { continue }
                switch VCardDate.birthday(text(line), omitYear: line.value(of: "X-APPLE-OMIT-YEAR")) {
                case .success(let date): contact.birthday = date
                case .failure(let issue): report(issue.reason, at: line.valueLocation)
                }
            case "NOTE":
                let note = text(line).trimmingWhitespace
                if !note.isEmpty { notes.append(note) }
            case "UID":
                if uid == nil, let value = VCardFields.normalizedUID(text(line)) {
                    uid = Located(value: value, location: line.valueLocation)
                }
            case "CATEGORIES":
                for name in TextValue.split(rawText(line), at: ",").map(\.trimmingWhitespace) where !name.isEmpty {
                    categories.append(Located(value: name, location: line.valueLocation))
                }
            case "KIND", "X-ADDRESSBOOKSERVER-KIND":
                if text(line).trimmingWhitespace.lowercased() == "group" { isGroup = true }
            case "MEMBER", "X-ADDRESSBOOKSERVER-MEMBER":
                let member = text(line).trimmingWhitespace
                if !member.isEmpty { members.append(Located(value: member, location: line.valueLocation)) }
            case "X-ANDROID-CUSTOM":
                // Android's 2.1 export writes nicknames as `vnd.android.cursor.item/nickname;Nick;…`.
                let parts = TextValue.components(rawText(line), lists: false).map { $0.first ?? "" }
                if parts.first == "vnd.android.cursor.item/nickname", parts.count > 1, !parts[1].isBlank {
                    nicknames.append(parts[1].trimmingWhitespace)
                }
            default:
                continue
            }
        }

        let parts = (n ?? []).map { $0.map(\.trimmingWhitespace).filter { !$0.isEmpty } }
        func part(_ index: Int, _ separator: String = " ") -> String {
            index < parts.count ? parts[index].joined(separator: separator) : ""
        }
        contact.familyName = part(0)
        contact.givenName = part(1)
        contact.additionalNames = part(2)
        contact.salutation = part(3)
        contact.suffix = part(4, ", ")
        contact.sortFamilyName = sortAs.first ?? ""
        contact.sortGivenName = sortAs.count > 1 ? sortAs[1] : ""
        if contact.sortFamilyName.isEmpty { contact.sortFamilyName = sortString }
        let orgParts = (organization ?? []).compactMap { $0.first?.trimmingWhitespace.nonEmpty }
        contact.organization = orgParts.joined(separator: ", ")
        contact.nickname = nicknames.filter { !$0.isEmpty }.joined(separator: ", ")
        contact.notes = notes.joined(separator: "\n\n")

        if isGroup {
            // A group without a name is still read (its members are what it says); the store
            // skips it, since there is nothing to call it by.
            let name = fn ?? parts.first?.first ?? orgParts.first ?? ""
            return VCardRecord(content: .group(name: name, notes: contact.notes, members: members), uid: uid,
                               formattedName: name, categories: categories, location: card.location,
                               writtenFN: fn, writtenN: n)
        }
        if contact.givenName.isEmpty, contact.familyName.isEmpty, let fn,
           fn.lowercased() != contact.organization.lowercased(), fn.lowercased() != orgParts.first?.lowercased() {
            (contact.givenName, contact.familyName) = VCardFields.splitFormattedName(fn)
        }
        if !contact.hasName {
            // A card with only an address to reach it by is still someone; the address names it.
            contact.nickname = contact.emails.first?.value ?? contact.phones.first?.value ?? ""
        }
        guard contact.hasName else {
            report(.noName, at: card.location)
            return nil
        }
        let written = [contact.givenName, contact.additionalNames, contact.familyName].filter { !$0.isEmpty }
        let formattedName = fn ?? (written.isEmpty ? nil : written.joined(separator: " "))
            ?? contact.organization.nonEmpty ?? contact.nickname
        return VCardRecord(content: .contact(contact), uid: uid, formattedName: formattedName,
                           categories: categories, location: card.location, writtenFN: fn, writtenN: n)
    }

    /// A UID without `urn:uuid:`, so `MEMBER:urn:uuid:X` finds `UID:X` and the other way round;
    /// nil when empty.
    static func normalizedUID(_ text: String) -> String? {
        var uid = text.trimmingWhitespace
        if uid.lowercased().hasPrefix("urn:uuid:") { uid = String(uid.dropFirst("urn:uuid:".count)) }
        return uid.nonEmpty
    }

    /// Given and family name from a formatted name, for a card without `N`: the last word is the
    /// family name ("Frank Dawson"), except in Korean, Chinese and Japanese names, which start
    /// with it ("安藤 ロイド"); a single word is a given name, or a family name in those scripts.
    static func splitFormattedName(_ name: String) -> (given: String, family: String) {
        let words = name.split(whereSeparator: \.isWhitespace).map(String.init)
        guard let first = words.first, let last = words.last else { return ("", "") }
        if NameScript.isEastAsian(first) {
            return (words.dropFirst().joined(separator: " "), first)
        }
        if words.count == 1 { return (first, "") }
        return (words.dropLast().joined(separator: " "), last)
    }

    // MARK: - Values

    private func withoutScheme(_ text: String, _ scheme: String) -> String {
        text.lowercased().hasPrefix(scheme) ? String(text.dropFirst(scheme.count)).trimmingWhitespace : text
    }

    /// `ADR`: post office box; extended address; street; locality; region; postal code; country.
    /// The street, extended address and box become the street lines, in that order.
    private func postalAddress(_ components: [[String]], label: String) -> PostalAddress {
        func values(_ index: Int) -> [String] {
            index < components.count ? components[index].map(\.trimmingWhitespace).filter { !$0.isEmpty } : []
        }
        let street = values(2) + values(1) + values(0)
        return PostalAddress(label: label, street: street.joined(separator: "\n"),
                             postalCode: values(5).joined(separator: ", "), city: values(3).joined(separator: ", "),
                             region: values(4).joined(separator: ", "), country: values(6).joined(separator: ", "))
    }
}

extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
