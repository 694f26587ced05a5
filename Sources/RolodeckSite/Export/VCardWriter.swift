import RolodeckCore

/// What a contact's vCard says: the contact as the site shows it (the fields the config hides
/// already taken out, see `ExportedCard(entry:…)`), the name it is listed under and its groups'
/// names.
public struct ExportedCard: Sendable, Equatable {
    /// The contact, without the fields the site hides.
    public var contact: Contact
    /// The name a person reads (`FN`): the directory's display name.
    public var formattedName: String
    /// The names of its groups (`CATEGORIES`), empty when the site hides groups.
    public var categories: [String]
    /// The photo as the site writes it (without metadata) and its format, for `PHOTO`; nil
    /// leaves the card without one (the contact has none, or the card is one of many in a
    /// group's or the directory's file, which would grow by every member's photo).
    public var photo: (format: ContactPhoto.Format, bytes: [UInt8])?

    /// Whether two cards say the same, text byte for byte (`String.hasSameBytes`); photos are
    /// compared by their bytes.
    public static func == (lhs: ExportedCard, rhs: ExportedCard) -> Bool {
        lhs.contact == rhs.contact && lhs.formattedName.hasSameBytes(as: rhs.formattedName)
            && lhs.categories.hasSameBytes(as: rhs.categories)
            && lhs.photo?.format == rhs.photo?.format && lhs.photo?.bytes == rhs.photo?.bytes
    }

    /// Creates a card's content.
    public init(contact: Contact, formattedName: String, categories: [String] = []) {
        self.contact = contact
        self.formattedName = formattedName
        self.categories = categories
    }
}

/// Writes contacts as vCard 3.0, the version phones and mail clients import most reliably.
///
/// The same contact gives the same bytes on every build: properties in a fixed order, the
/// contact's id as `UID`, and `REV` a day the renderer gives (the store's last change), never
/// the time of day.
/// What the store's vCard reader reads back from a card is the contact written, property by
/// property (the tests check it on the demo, a generated store and a corpus of real cards),
/// but for what vCard 3.0 has no place for: the age a store gives without a birthday year.
public struct VCardWriter: Sendable {
    /// The product that wrote the card.
    static let productID = "-//Rolodeck//Rolodeck//EN"

    /// `REV`'s value (`2026-12-04T00:00:00Z`), or nil for no `REV`.
    public var revision: String?

    /// A writer whose cards carry `REV` at the start of `date` in UTC: the day the store last
    /// changed, `SOURCE_DATE_EPOCH`'s when it is set. A day, not a time, and one the build's
    /// fingerprint holds, so that two builds of one store are byte-identical.
    public init(revisionDate date: PartialDate?) {
        revision = date.map { "\($0.description)T00:00:00Z" }
    }

    /// The vCard of one contact.
    public func card(_ card: ExportedCard) -> [UInt8] {
        var lines = VCardLines()
        write(card, into: &lines)
        return lines.bytes
    }

    /// The vCards of several contacts, one after the other in one file.
    public func cards(_ cards: some Sequence<ExportedCard>) -> [UInt8] {
        var lines = VCardLines()
        for card in cards { write(card, into: &lines) }
        return lines.bytes
    }

    /// Writes one card, property after property in a fixed order.
    func write(_ card: ExportedCard, into lines: inout VCardLines) {
        let contact = card.contact
        lines.append("BEGIN", "VCARD")
        lines.append("VERSION", "3.0")
        lines.append("PRODID", Self.productID)
        lines.appendText("UID", Self.uid(contact.id))
        lines.appendText("FN", card.formattedName)
        lines.append("N", Self.sortAs(contact), .structured(Self.nameComponents(contact)))
        if !contact.nickname.isEmpty { lines.appendText("NICKNAME", contact.nickname) }
        if !contact.phoneticGivenName.isEmpty {
            lines.appendText("X-PHONETIC-FIRST-NAME", contact.phoneticGivenName)
        }
        if !contact.phoneticFamilyName.isEmpty {
            lines.appendText("X-PHONETIC-LAST-NAME", contact.phoneticFamilyName)
        }
        if !contact.organization.isEmpty { lines.appendText("ORG", contact.organization) }
        if contact.isOrganizationOnly { lines.append("X-ABSHOWAS", "COMPANY") }
        if !contact.title.isEmpty { lines.appendText("TITLE", contact.title) }
        // Apple's property groups (`item1.`) tie a custom label to its value.
        var item = 0
        func labeled(_ name: String, _ label: String, extra: [String] = [], _ value: VCardLines.Value) {
            let (types, custom) = VCardTypes.of(label)
            guard let custom else {
                lines.append(name, VCardTypes.parameter(types, extra: extra), value)
                return
            }
            item += 1
            lines.append("item\(item).\(name)", VCardTypes.parameter([], extra: extra), value)
            lines.appendText("item\(item).X-ABLabel", custom)
        }
        for phone in contact.phones { labeled("TEL", phone.label, .text(phone.value)) }
        for email in contact.emails {
            labeled("EMAIL", email.label, extra: ["INTERNET"], .text(email.value))
        }
        for address in contact.addresses {
            labeled("ADR", address.label, .structured(Self.addressComponents(address)))
        }
        for url in contact.urls { labeled("URL", url.label, .text(url.value)) }
        if let birthday = contact.birthday { Self.writeBirthday(birthday, into: &lines) }
        if !card.categories.isEmpty { lines.append("CATEGORIES", .list(card.categories)) }
        // The Markdown source: vCard notes are plain text, and Markdown reads as such.
        if !contact.notes.isEmpty { lines.appendText("NOTE", contact.notes) }
        // The class it was read with: a card published with `publishPrivate` stays marked
        // private in the address book it is imported into.
        if let classification = contact.classification { lines.appendText("CLASS", classification) }
        // vCard 3.0's inline binary: `ENCODING=b` and the format as `TYPE`, base64 folded.
        if let photo = card.photo {
            let type = photo.format == .jpeg ? "JPEG" : photo.format.rawValue.uppercased()
            lines.append("PHOTO", ";ENCODING=b;TYPE=" + type, Base64Text.encoded(photo.bytes))
        }
        if let revision { lines.append("REV", revision) }
        lines.append("END", "VCARD")
    }

    /// `UID`: the contact's id, as the URN a UUID is written as (`urn:uuid:…`, which the reader
    /// takes off again), any other id as it is.
    static func uid(_ id: String) -> String {
        isUUID(id) ? "urn:uuid:" + id : id
    }

    /// Whether `text` is a UUID in its usual form (8-4-4-4-12 hexadecimal digits).
    private static func isUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x66) else {
                    return false
                }
            }
        }
        return true
    }

    /// `N`: family name; given name; additional names; salutation (the honorific prefix); suffix.
    static func nameComponents(_ contact: Contact) -> [String] {
        [
            contact.familyName, contact.givenName, contact.additionalNames, contact.salutation,
            contact.suffix,
        ]
    }

    /// `N`'s `SORT-AS` parameter, the family and given names' sort forms, when the contact has
    /// any (and they can be written: a comma in one would split it in two).
    static func sortAs(_ contact: Contact) -> String {
        let family = contact.sortFamilyName, given = contact.sortGivenName
        guard !family.isEmpty || !given.isEmpty, !family.contains(","), !given.contains(",") else {
            return ""
        }
        let value = given.isEmpty ? family : family + "," + given
        return ";SORT-AS=" + VCardLines.parameterValue(value)
    }

    /// `ADR`: post office box; extended address; street; city; region; postal code; country.
    /// The store's street (which may be several lines) is the street component.
    static func addressComponents(_ address: PostalAddress) -> [String] {
        ["", "", address.street, address.city, address.region, address.postalCode, address.country]
    }

    /// `BDAY`: the date, or for one without a year Apple's form (year 1604, a leap year, with
    /// `X-APPLE-OMIT-YEAR`), which iOS and macOS show without a year and the reader reads so.
    static func writeBirthday(_ date: PartialDate, into lines: inout VCardLines) {
        guard date.year == nil else {
            lines.append("BDAY", date.description)
            return
        }
        var withYear = date
        withYear.year = 1604
        lines.append("BDAY", ";X-APPLE-OMIT-YEAR=1604", withYear.description)
    }
}

extension VCardWriter {
    /// The bytes a QR code's card has at most, unless its name and first phone alone are more:
    /// then the code is at most version 13 at medium error correction (69 modules a side, 331
    /// bytes), which a phone camera reads from a laptop screen or a printed page at 3.5 cm.
    /// A Korean or Japanese name takes three bytes a character, so fewer fields fit.
    public static let compactLimit = 300

    /// A short vCard for a QR code: the name, and as many of the organization, phones, emails,
    /// title and first web address as fit in `limit` bytes, in that order; the name and the
    /// first phone always. No `UID`, `REV` or custom labels, and lines not folded: a phone that
    /// scans it makes a new contact, and every byte makes the code denser.
    public static func compactCard(_ card: ExportedCard, limit: Int = compactLimit) -> [UInt8] {
        let contact = card.contact
        var essential = VCardLines(folds: false)
        essential.append("BEGIN", "VCARD")
        essential.append("VERSION", "3.0")
        essential.append("N", .structured(nameComponents(contact)))
        essential.appendText("FN", card.formattedName)
        func phone(_ phone: LabeledValue) -> (String, String, VCardLines.Value) {
            ("TEL", VCardTypes.parameter(VCardTypes.of(phone.label).types), .text(phone.value))
        }
        if let first = contact.phones.first {
            let (name, parameters, value) = phone(first)
            essential.append(name, parameters, value)
        }
        var optional: [(String, String, VCardLines.Value)] = []
        if !contact.organization.isEmpty {
            optional.append(("ORG", "", .text(contact.organization)))
        }
        optional += contact.phones.dropFirst().map(phone)
        optional += contact.emails.map { email in
            ("EMAIL", VCardTypes.parameter(VCardTypes.of(email.label).types), .text(email.value))
        }
        if !contact.title.isEmpty { optional.append(("TITLE", "", .text(contact.title))) }
        if let url = contact.urls.first { optional.append(("URL", "", .text(url.value))) }
        let endLength = "END:VCARD\r\n".utf8.count
        for (name, parameters, value) in optional {
            let before = essential.bytes.count
            essential.append(name, parameters, value)
            // A property that does not fit is left out, but a shorter one after it may still fit.
            if essential.bytes.count + endLength > limit { essential.removeLines(from: before) }
        }
        essential.append("END", "VCARD")
        return essential.bytes
    }
}
