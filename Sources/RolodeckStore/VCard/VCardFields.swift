import RolodeckCore

/// Reads what Rolodeck shows from a vCard's properties: the name (`N`, `FN`, `NICKNAME`, the
/// sort and phonetic forms), `ORG`, `TITLE`, `TEL`, `EMAIL`, `ADR`, `URL`, `BDAY`, `NOTE`,
/// `UID`, `CATEGORIES`, `GEO`, `PHOTO`, `CLASS` (whether it is private), and for group cards
/// their members.
///
/// One value is used per file, so the charset problems of a file are reported once each.
struct VCardFields: ContentLineFields {
    /// The issue this reader reports.
    typealias Issue = VCardIssue

    /// Reads the values and holds the warnings.
    var lineText = ContentLineText()
    /// Whether records keep `FN` and `N` as written (`writtenFN`, `writtenN`), which only the
    /// tests that compare readings look at: the store would hold them, and free them one by one
    /// on a single thread after loading.
    var keepsWrittenNames = false

    /// The record for a card, or nil when it has nothing to show (the reason is reported).
    mutating func record(from card: VCard) -> VCardRecord? {
        var card = card
        return record(taking: &card)
    }

    /// The records of `cards`, in order, each card's lines taken (`record(taking:)`); a card
    /// with nothing to show yields none.
    mutating func records(taking cards: inout [VCard]) -> [VCardRecord] {
        var records: [VCardRecord] = []
        records.reserveCapacity(cards.count)
        for index in cards.indices {
            if let record = record(taking: &cards[index]) { records.append(record) }
        }
        return records
    }

    /// `record(from:)` of a card whose lines it takes, leaving it none.
    mutating func record(taking card: inout VCard) -> VCardRecord? {
        var written = WrittenCard(lists: card.version != .v21, customLabels: customLabels(of: card))
        // Each line is moved out of the card and read: read where they were, or from a copy of
        // the list, each was copied, retaining its parameters, bytes and path, and released
        // twice.
        var lines: [ContentLine] = []
        swap(&lines, &card.properties)
        // Reversed where they are, by moves (`Array.reverse` copies each line twice).
        lines.withUnsafeMutableBufferPointer { $0.reverse() }
        while let line = lines.popLast() {
            // Base64 values are binary: a photo is the only one Rolodeck reads.
            if line.encoding == .base64 {
                if line.name == "PHOTO" { readPhoto(line, into: &written) }
                continue
            }
            read(line, into: &written)
        }
        written.nameContact()
        if written.isGroup {
            return written.groupRecord(at: card.location, keepingWrittenNames: keepsWrittenNames)
        }
        written.nameContactWithoutN()
        guard written.contact.hasName else {
            report(.noName, at: card.location)
            return nil
        }
        return written.contactRecord(at: card.location, keepingWrittenNames: keepsWrittenNames)
    }

    /// Apple's `X-ABLabel` of each property group (`item1.X-ABLabel:Tennis club`), which labels
    /// the phone, email, address or URL of that group.
    private mutating func customLabels(of card: VCard) -> [String: String] {
        // Most cards have no property groups: their lines are not gone through again.
        guard card.properties.contains(where: { !$0.group.isEmpty }) else { return [:] }
        var labels: [String: String] = [:]
        for line in card.properties where !line.group.isEmpty && line.name == "X-ABLABEL" {
            labels[line.group] = VCardLabel.unwrapped(text(line))
        }
        return labels
    }

    /// Reads one property into what the card says; a property Rolodeck does not show is passed
    /// over. Where a card may say a thing only once, the first time counts.
    private mutating func read(_ line: ContentLine, into card: inout WrittenCard) {
        guard let property = VCardProperty(line.name) else { return }
        switch property {
        case .fn:
            if card.fn == nil { card.fn = text(line).trimmingWhitespace.nonEmpty }
        case .n:
            guard card.n == nil else { return }
            card.n = components(line, lists: card.lists)
            card.sortAs = Self.sortAs(of: line)
        case .nickname:
            card.nicknames += card.lists ? listItems(line) : [text(line).trimmingWhitespace]
        case .phoneticFirstName: card.contact.phoneticGivenName = text(line).trimmingWhitespace
        case .phoneticLastName: card.contact.phoneticFamilyName = text(line).trimmingWhitespace
        case .sortString: card.sortString = text(line).trimmingWhitespace
        case .org:
            if card.organization == nil {
                card.organization = components(line, lists: false)
            }
        case .title:
            if card.contact.title.isEmpty { card.contact.title = text(line).trimmingWhitespace }
        case .tel:
            if let phone = labeledValue(line, card.customLabels, scheme: "tel:") {
                card.contact.phones.append(phone)
            }
        case .email:
            if let email = labeledValue(line, card.customLabels, scheme: "mailto:") {
                card.contact.emails.append(email)
            }
        case .adr:
            let label = VCardLabel.label(of: line, customLabels: card.customLabels)
            let address = postalAddress(components(line, lists: card.lists), label: label)
            if !address.isEmpty { card.contact.addresses.append(address) }
        case .url:
            if let url = labeledValue(line, card.customLabels) { card.contact.urls.append(url) }
        case .bday:
            if card.contact.birthday == nil { card.contact.birthday = birthday(line) }
        case .note:
            if let note = text(line).trimmingWhitespace.nonEmpty { card.notes.append(note) }
        case .uid:
            if card.uid == nil, let uid = Self.normalizedUID(text(line)) {
                card.uid = Located(value: uid, location: line.valueLocation)
            }
        case .categories:
            for name in listItems(line) where !name.isEmpty {
                card.categories.append(Located(value: name, location: line.valueLocation))
            }
        case .kind:
            if text(line).trimmingWhitespace.lowercased() == "group" { card.isGroup = true }
        case .member:
            if let member = text(line).trimmingWhitespace.nonEmpty {
                card.members.append(Located(value: member, location: line.valueLocation))
            }
        case .androidCustom:
            if let nickname = androidNickname(line) { card.nicknames.append(nickname) }
        case .geo:
            guard card.contact.geo == nil else { return }
            let written = text(line)
            card.contact.geo = GeoCoordinate.parse(written)
            if card.contact.geo == nil { report(.invalidGeo(written.trimmingWhitespace), at: line.valueLocation) }
        case .photo:
            readPhoto(line, into: &card)
        case .classification:
            // The first counts, as for any property a card has once (vCard 3.0's `CLASS`; 4.0
            // dropped it, but a card that still says it is read the same).
            if card.contact.classification == nil {
                card.contact.classification = text(line).trimmingWhitespace.uppercased().nonEmpty
            }
        }
    }

    /// Reads a `PHOTO` into the card, unless an earlier one gave it a photo: base64 data (vCard
    /// 2.1's `ENCODING=BASE64`, 3.0's `ENCODING=b`) or a `data:` URI (4.0). A photo given as a
    /// URL is passed over: a build makes no network requests. A photo that cannot be shown is
    /// reported, and a later `PHOTO` may still give one.
    private mutating func readPhoto(_ line: ContentLine, into card: inout WrittenCard) {
        guard card.contact.photo == nil else { return }
        let read: Result<ContactPhoto, PhotoIssue.Reason>
        if line.encoding == .base64 {
            read = PhotoReader.photo(fromBase64: line.value)
        } else {
            let value = line.value.drop { $0 == 0x20 || $0 == 0x09 }
            guard value.count > 5,
                value.prefix(5).map(ASCIIBytes.lower).elementsEqual("data:".utf8)
            else { return }
            read = PhotoReader.photo(fromDataURI: value)
        }
        switch read {
        case .success(let photo): card.contact.photo = photo
        case .failure(let reason): lineText.diagnostics.append(PhotoIssue.warning(reason, at: line.valueLocation))
        }
    }

    /// What a card says, gathered property by property, then made into a record.
    struct WrittenCard {
        /// Whether commas separate list values (vCard 3.0 and 4.0, not 2.1).
        let lists: Bool
        /// Apple's `X-ABLabel` of each property group.
        let customLabels: [String: String]
        /// The contact as far as it is known: what properties set on their own, then the names.
        var contact = Contact(id: "")
        /// The first `FN` that is not empty.
        var fn: String?
        /// The first `N`'s components (family, given, additional, prefix, suffix), each a list.
        var n: TextComponents?
        /// The first `N`'s `SORT-AS` values: the family name's sort form, then the given name's.
        var sortAs: [String] = []
        /// vCard 3.0's `SORT-STRING`, the family name's sort form when `SORT-AS` gives none.
        var sortString = ""
        /// The first `ORG`'s components: the organization, then its units.
        var organization: TextComponents?
        /// Every `NICKNAME` and Android nickname.
        var nicknames: [String] = []
        /// Every `NOTE` that is not empty.
        var notes: [String] = []
        /// The first `UID`, without `urn:uuid:`.
        var uid: Located<String>?
        /// The names of its `CATEGORIES`.
        var categories: [Located<String>] = []
        /// Its `MEMBER`s, when it is a group card.
        var members: [Located<String>] = []
        /// Whether `KIND` says it is a group.
        var isGroup = false

        /// The first value of `N`'s first component (the family name) that is not empty, trimmed.
        var firstNamePart: String? {
            n?.values(of: 0).lazy.map(\.trimmingWhitespace).first { !$0.isEmpty }
        }

        /// The organization and its units, each its first value trimmed, empty ones left out.
        var organizationUnits: [String] {
            guard let organization else { return [] }
            return (0..<organization.count).compactMap {
                organization.first(of: $0)?.trimmingWhitespace.nonEmpty
            }
        }

        /// Sets the contact's names and their sort forms from `N`, `SORT-AS` and `SORT-STRING`,
        /// and its organization, nickname and notes from what every such property said.
        mutating func nameContact() {
            func part(_ index: Int, _ separator: String = " ") -> String {
                guard let n else { return "" }
                return VCardFields.joined(n.values(of: index).lazy.map(\.trimmingWhitespace), separator)
            }
            contact.familyName = part(0)
            contact.givenName = part(1)
            contact.additionalNames = part(2)
            contact.salutation = part(3)
            contact.suffix = part(4, ", ")
            contact.sortFamilyName = sortAs.first ?? ""
            contact.sortGivenName = sortAs.count > 1 ? sortAs[1] : ""
            if contact.sortFamilyName.isEmpty { contact.sortFamilyName = sortString }
            contact.organization = VCardFields.joined(organizationUnits, ", ")
            contact.nickname = VCardFields.joined(nicknames, ", ")
            contact.notes = VCardFields.joined(notes, "\n\n")
        }

        /// Names a contact whose `N` gives neither a given nor a family name by splitting its `FN`,
        /// unless `FN` is the organization's name; a contact still without a name is named by its
        /// first email or phone, since a card with only an address to reach it by is still
        /// someone.
        mutating func nameContactWithoutN() {
            if contact.givenName.isEmpty, contact.familyName.isEmpty, let fn,
                fn.lowercased() != contact.organization.lowercased(),
                fn.lowercased() != organizationUnits.first?.lowercased()
            {
                (contact.givenName, contact.familyName) = VCardFields.splitFormattedName(fn)
            }
            if !contact.hasName {
                contact.nickname = contact.emails.first?.value ?? contact.phones.first?.value ?? ""
            }
        }

        /// The record of a group card, named by its `FN`, `N` or `ORG`. A group without a name is
        /// still read (its members are what it says); the store skips it, since there is nothing
        /// to call it by.
        /// `FN` and `N` as written are kept in it only when `keepingWrittenNames`.
        func groupRecord(at location: SourceLocation, keepingWrittenNames: Bool) -> VCardRecord {
            let name = fn ?? firstNamePart ?? organizationUnits.first ?? ""
            return VCardRecord(
                content: .group(
                    name: name, notes: contact.notes, classification: contact.classification,
                    members: members),
                uid: uid, formattedName: name, categories: categories, location: location,
                writtenFN: keepingWrittenNames ? fn : nil, writtenN: keepingWrittenNames ? n?.lists : nil)
        }

        /// The record of a person's or an organization's card, its UID as its id; `FN` and `N` as
        /// written are kept in it only when `keepingWrittenNames`.
        mutating func contactRecord(at location: SourceLocation, keepingWrittenNames: Bool) -> VCardRecord {
            // Set now, while the contact is this card's alone: the store would copy it to set it.
            if let uid { contact.id = uid.value }
            return VCardRecord(
                content: .contact(contact), uid: uid, formattedName: formattedName, categories: categories,
                location: location, writtenFN: keepingWrittenNames ? fn : nil,
                writtenN: keepingWrittenNames ? n?.lists : nil)
        }

        /// The name a person reads: `FN`, else the given, additional and family names, else the
        /// organization, else the nickname.
        var formattedName: String {
            let written = VCardFields.joined(
                [contact.givenName, contact.additionalNames, contact.familyName], " ")
            return fn ?? written.nonEmpty ?? contact.organization.nonEmpty ?? contact.nickname
        }
    }

    /// A UID without `urn:uuid:`, so `MEMBER:urn:uuid:X` finds `UID:X` and the other way round;
    /// nil when empty.
    static func normalizedUID(_ text: String) -> String? {
        var uid = text.trimmingWhitespace
        if let rest = afterPrefix(uid, "urn:uuid:") { uid = String(rest) }
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

    /// `N`'s `SORT-AS` parameter: the sort forms of the family and given names, comma-separated.
    private static func sortAs(of line: ContentLine) -> [String] {
        line.values(of: "SORT-AS").flatMap { value in
            value.split(separator: ",", omittingEmptySubsequences: false).map {
                String($0).trimmingWhitespace
            }
        }
    }

    /// A phone, email or URL with its label, `scheme` (`tel:`, `mailto:`) taken off; nil when its
    /// value is empty.
    private mutating func labeledValue(
        _ line: ContentLine, _ customLabels: [String: String], scheme: StaticString? = nil
    ) -> LabeledValue? {
        var value = text(line).trimmingWhitespace
        if let scheme { value = withoutScheme(value, scheme) }
        guard !value.isEmpty else { return nil }
        return LabeledValue(label: VCardLabel.label(of: line, customLabels: customLabels), value: value)
    }

    private func withoutScheme(_ text: String, _ scheme: StaticString) -> String {
        Self.afterPrefix(text, scheme).map { String($0).trimmingWhitespace } ?? text
    }

    /// The text after `prefix` (lowercase ASCII) when `text.lowercased().hasPrefix(prefix)`;
    /// nil when not.
    static func afterPrefix(_ text: String, _ prefix: StaticString) -> Substring? {
        let count = prefix.utf8CodeUnitCount
        let utf8 = text.utf8
        // When the prefix's bytes are followed by an ASCII byte, they are the text's first
        // Characters, and compared as bytes; otherwise the text is compared as Characters.
        guard utf8.count > count, utf8[utf8.index(utf8.startIndex, offsetBy: count)] < 0x80 else {
            let written = "\(prefix)"
            return text.lowercased().hasPrefix(written) ? text.dropFirst(written.count) : nil
        }
        var bytes = utf8.makeIterator()
        for byte in UnsafeBufferPointer(start: prefix.utf8Start, count: count) {
            guard let written = bytes.next(), ASCIIBytes.lower(written) == byte else { return nil }
        }
        return text[utf8.index(utf8.startIndex, offsetBy: count)...]
    }

    /// `BDAY` as a date, or nil after reporting why it is not one.
    private mutating func birthday(_ line: ContentLine) -> PartialDate? {
        switch VCardDate.birthday(text(line), omitYear: line.value(of: "X-APPLE-OMIT-YEAR")) {
        case .success(let date): return date
        case .failure(let issue):
            report(issue.reason, at: line.valueLocation)
            return nil
        }
    }

    /// The nickname in Android's 2.1 export, which writes one as
    /// `X-ANDROID-CUSTOM:vnd.android.cursor.item/nickname;Nick;…`; nil for any other kind.
    private mutating func androidNickname(_ line: ContentLine) -> String? {
        let components = components(line, lists: false)
        let parts = (0..<components.count).map { components.first(of: $0) ?? "" }
        guard parts.first == "vnd.android.cursor.item/nickname", parts.count > 1, !parts[1].isBlank else {
            return nil
        }
        return parts[1].trimmingWhitespace
    }

    /// `ADR`: post office box; extended address; street; locality; region; postal code; country.
    /// The street, extended address and box become the street lines, in that order.
    private func postalAddress(_ components: TextComponents, label: String) -> PostalAddress {
        func joined(_ index: Int) -> String {
            VCardFields.joined(components.values(of: index).lazy.map(\.trimmingWhitespace), ", ")
        }
        let street = [2, 1, 0].lazy.flatMap { components.values(of: $0) }.map(\.trimmingWhitespace)
        return PostalAddress(
            label: label, street: VCardFields.joined(street, "\n"), postalCode: joined(5), city: joined(3),
            region: joined(4), country: joined(6))
    }

    /// The values that are not empty joined by `separator`; a sole one is the string itself.
    static func joined(_ values: some Sequence<String>, _ separator: String) -> String {
        var joined = ""
        var isFirst = true
        for value in values where !value.isEmpty {
            if isFirst {
                joined = value
                isFirst = false
            } else {
                joined += separator
                joined += value
            }
        }
        return joined
    }
}

extension String {
    /// The string, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
