import Mustache
import RolodeckCore

extension ViewBuilder {
    private static let phoneKeys = MustacheTable.Keys(["label", "display", "tel"])
    private static let emailKeys = MustacheTable.Keys(["label", "address", "href"])
    private static let urlKeys = MustacheTable.Keys(["label", "display", "href"])
    private static let addressKeys = MustacheTable.Keys([
        "label", "street", "postalCode", "city", "region", "country", "lines", "mapHref",
    ])
    private static let geoKeys = MustacheTable.Keys(["display", "href"])
    private static let birthdayKeys = MustacheTable.Keys(["display", "iso", "age"])

    /// What lists show of entry `index`: name, organization, first phone and email, its page.
    func rowData(at index: Int, fields: RowFields) -> RowData {
        // The entry's fields are read where the array holds them: an entry passed in is copied
        // out whole (its section's strings too) and destroyed again, for every row.
        let contact = directory.entries[index].contact
        let name = directory.entries[index].displayName
        return RowData(
            id: contact.id,
            name: name,
            lang: nameLanguage(contact),
            path: String(joining: "contacts/", directory.entries[index].slug, ".html"),
            salutation: fields.salutation ? contact.salutation : "",
            organization: fields.organization && !contact.isOrganizationOnly ? contact.organization : "",
            title: fields.title ? contact.title : "",
            phone: fields.phones ? contact.phones.first.map { phone($0) } : nil,
            email: fields.emails ? contact.emails.first.map { email($0) } : nil,
            thumbnail: contact.photo.flatMap { photos.files[$0.digest]?.thumbnailPath } ?? "",
            monogram: Self.monogram(of: name),
            isOrganization: contact.isOrganizationOnly)
    }

    /// Everything the contact page shows; hidden fields are left out entirely.
    func contactPage(_ index: Int) -> MustacheTable {
        // Read in place, as in `rowData`: a copy of the whole entry copies its section's strings too.
        let contact = directory.entries[index].contact
        let displayName = directory.entries[index].displayName
        let config = directory.config
        // The list row has some of it worked out already.
        let row = rows[index]
        var view = ContactView()
        view.id = contact.id
        view.name = displayName
        view.lang = row.lang
        view.givenName = contact.givenName
        view.familyName = contact.familyName
        view.additionalNames = contact.additionalNames
        view.suffix = contact.suffix
        // Once: for names in other scripts it asks Unicode tables.
        let isOrganization = contact.isOrganizationOnly
        view.isOrganization = isOrganization
        view.monogram = row.monogram
        if let digest = contact.photo?.digest, let files = photos.files[digest] {
            view.photo = Self.photoTable(src: "../" + files.path, width: files.width, height: files.height, alt: displayName)
        }
        // The readings joined as the name is written: family name first with no space for East
        // Asian names, else given name first, one space between two that are not empty. Joined
        // by hand, so no array is made for them on every page.
        let phoneticGiven = contact.phoneticGivenName, phoneticFamily = contact.phoneticFamilyName
        view.phoneticName =
            NameScript.isEastAsian(contact.familyName) ? phoneticFamily + phoneticGiven
            : phoneticFamily.isEmpty ? phoneticGiven
            : phoneticGiven.isEmpty ? phoneticFamily : String(joining: phoneticGiven, " ", phoneticFamily)
        if config.shows(.salutation) { view.salutation = contact.salutation }
        if config.shows(.nickname), contact.nickname != displayName {
            view.nickname = contact.nickname
        }
        if config.shows(.organization), !isOrganization {
            view.organization = contact.organization
        }
        if config.shows(.title) { view.title = contact.title }
        // Lists are paired with flags, because a section over a list repeats and cannot wrap it.
        // The first phone and email are the list row's, already worked out. Loops, so that no
        // closure captures the builder: capturing it copies the whole builder, on every page.
        if config.shows(.phones) {
            view.phones.reserveCapacity(contact.phones.count)
            for (position, value) in contact.phones.enumerated() {
                view.phones.append(position == 0 ? row.phone ?? phone(value) : phone(value))
            }
        }
        if config.shows(.emails) {
            view.emails.reserveCapacity(contact.emails.count)
            for (position, value) in contact.emails.enumerated() {
                view.emails.append(position == 0 ? row.email ?? email(value) : email(value))
            }
        }
        if config.shows(.addresses) {
            view.addresses = contact.addresses.map { address($0) }
            // Coordinates say where someone lives as plainly as an address: hidden with them.
            if let geo = contact.geo {
                view.geo = MustacheTable(keys: Self.geoKeys) { field in
                    [field("display", .string(geo.latitude + ", " + geo.longitude)), field("href", .string(geo.uri))]
                }
            }
        }
        if config.shows(.urls) { view.urls = contact.urls.map { url($0) } }
        if config.shows(.birthday), let birthday = contact.birthday {
            let display = birthday.year == nil ? strings.monthDay(birthday) : strings.date(birthday)
            // A string, so that an age of 0 still shows: sections treat the number 0 as false.
            // Without a year, the age the store gives (if any) is shown as given.
            let known = birthday.year == nil ? contact.age : birthday.age(on: today)
            let age = config.shows(.age) ? known.map(String.init) : nil
            view.birthday = MustacheTable(keys: Self.birthdayKeys) { field in
                [
                    field("display", .string(display)),
                    field("iso", .string(Self.htmlDate(birthday))),
                    field("age", age.map(MustacheValue.string) ?? .absent),
                ]
            }
        }
        if view.birthday == nil, config.shows(.age), let age = contact.age {
            view.age = String(age)
        }
        if config.shows(.groups) {
            // A loop into an array made at its final size, over the groups' positions the
            // directory keeps, so no id is looked up.
            let positions = directory.groupPositions(ofEntry: index)
            var groups: [MustacheTable] = []
            groups.reserveCapacity(positions.count)
            for position in positions {
                groups.append(contactGroupLinks[Int(directory.entryGroups[position])])
            }
            view.groups = groups
        }
        if config.shows(.notes) { view.notesHTML = contactNotes.htmlBytes(contact.notes) }
        view.vcard = directory.entries[index].slug + ".vcf"
        view.qr = qrCode(ofEntry: index)

        // Only the title differs between contact pages' common keys.
        return MustacheTable(keys: Self.contactPageKeys) { field in
            [
                field("site", .table(site)),
                field("t", .table(interface)),
                field("root", .string("../")),
                field("nav", .tables(contactNav)),
                field("page", .table(contactInfo.table(title: displayName))),
                field("contact", .table(view.table)),
            ]
        }
    }

    /// `date.htmlDateString` (`1990-03-05`, or `03-05` without a year) written digit by digit
    /// into a string made at its final size, without interpolation or padding.
    static func htmlDate(_ date: PartialDate) -> String {
        let (month, day) = (date.month, date.day)
        // Fields of two digits and years of up to four (the padded width), as dates have them.
        guard (0...99).contains(month), (0...99).contains(day),
            date.year.map({ (0...9999).contains($0) }) ?? true
        else { return date.htmlDateString }
        return String(unsafeUninitializedCapacity: date.year == nil ? 5 : 10) { buffer in
            var end = 0
            func write(_ value: Int, digits: Int) {
                var value = value
                for position in (end..<end + digits).reversed() {
                    buffer[position] = UInt8(ascii: "0") + UInt8(value % 10)
                    value /= 10
                }
                end += digits
            }
            func dash() {
                buffer[end] = UInt8(ascii: "-")
                end += 1
            }
            if let year = date.year {
                write(year, digits: 4)
                dash()
            }
            write(month, digits: 2)
            dash()
            write(day, digits: 2)
            return end
        }
    }

    private static let photoKeys = MustacheTable.Keys(["src", "width", "height", "alt"])

    /// A photo or thumbnail as a template shows it: an `<img>`'s `src`, `width`, `height` and
    /// `alt` (the contact's name).
    static func photoTable(src: String, width: Int, height: Int, alt: String) -> MustacheTable {
        MustacheTable(keys: photoKeys) { field in
            [
                field("src", .string(src)), field("width", .int(width)), field("height", .int(height)),
                field("alt", .string(alt)),
            ]
        }
    }

    /// The first Character of a name, uppercased, for the page's monogram.
    static func monogram(of name: String) -> String {
        // Most names begin with an ASCII byte that is a Character of its own (the next byte is
        // ASCII too, so no mark or joiner follows), which needs no Unicode tables. Its String
        // is made in place: `String(decoding:)` of a one-byte collection costs a dynamic cast.
        var bytes = name
        let ascii = bytes.withUTF8 { bytes -> UInt8? in
            guard let first = bytes.first, first < 0x80, first != UInt8(ascii: "\r"),
                bytes.count == 1 || bytes[1] < 0x80
            else { return nil }
            return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) ? first - 0x20 : first
        }
        if let ascii {
            return String(unsafeUninitializedCapacity: 1) { buffer in
                buffer[0] = ascii
                return 1
            }
        }
        return name.first.map { String($0).uppercased() } ?? ""
    }

    /// The language a name is written in when it is not the page's, for a `lang` attribute so
    /// screen readers pronounce 김철수 as Korean on an English page; "" otherwise.
    func nameLanguage(_ contact: Contact) -> String {
        guard let tag = NameScript.languageTag(of: contact), tag != strings.language.languageTag else { return "" }
        return tag
    }

    /// A phone number's table; numbers that make no `tel:` link have no `tel` key.
    func phone(_ phone: LabeledValue) -> MustacheTable {
        let (display, tel) = phones.displayAndLink(phone.value)
        return MustacheTable(keys: Self.phoneKeys) { field in
            [
                field("label", .string(strings.label(for: phone.label))),
                field("display", .string(display)),
                field("tel", tel.map(MustacheValue.string) ?? .absent),
            ]
        }
    }

    /// An email address's table; one that makes no `mailto:` link has no `href` key.
    func email(_ email: LabeledValue) -> MustacheTable {
        let address = email.value.trimmingWhitespace
        var href: String?
        // Only something shaped like an address becomes a link; anything else stays text. The
        // bytes are read once, in place: a native string's UTF-8 is contiguous.
        var bytes = address
        let shape = bytes.withUTF8(Self.addressShape)
        if shape.hasAt, !shape.hasForbidden, shape.isASCII || !Self.hasWhitespace(address) {
            href = "mailto:" + address
        }
        return MustacheTable(keys: Self.emailKeys) { field in
            [
                field("label", .string(strings.label(for: email.label))),
                field("address", .string(address)),
                field("href", href.map(MustacheValue.string) ?? .absent),
            ]
        }
    }

    /// Whether a Character of `text` is whitespace. A Character is whitespace when its first
    /// scalar is, so text with no whitespace scalar (nearly all) is decided by its scalars,
    /// without breaking it into Characters.
    private static func hasWhitespace(_ text: String) -> Bool {
        text.unicodeScalars.contains(where: \.isWhitespaceWithoutTables)
            && text.contains(where: \.isWhitespace)
    }

    /// Whether an address's bytes have an `@`; a control, space, `<` or `>`; only ASCII.
    private static func addressShape<Bytes: Sequence<UInt8>>(_ bytes: Bytes)
        -> (hasAt: Bool, hasForbidden: Bool, isASCII: Bool) {
        var hasAt = false, hasForbidden = false, isASCII = true
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "@"): hasAt = true
            case ...0x20, UInt8(ascii: "<"), UInt8(ascii: ">"): hasForbidden = true
            case 0x80...: isASCII = false
            default: break
            }
        }
        return (hasAt, hasForbidden, isASCII)
    }

    /// A street's lines, split at every newline as `Character.isNewline` sees them, with the
    /// empty ones left out; nil when it has no newline (most streets).
    ///
    /// Read off the bytes: a newline scalar is always a Character of its own (or CR LF, two
    /// newlines here with nothing between), so splitting at the scalars U+000A–U+000D, U+0085,
    /// U+2028 and U+2029 splits where the Characters do.
    static func streetLines(_ street: String) -> [String]? {
        var street = street
        return street.withUTF8 { bytes -> [String]? in
            var lines: [String]?
            var start = 0
            var index = 0
            while index < bytes.count {
                let byte = bytes[index]
                let length =
                    switch byte {
                    case 0x0A...0x0D: 1
                    case 0xC2 where index + 1 < bytes.count && bytes[index + 1] == 0x85: 2
                    case 0xE2 where index + 2 < bytes.count && bytes[index + 1] == 0x80
                        && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9): 3
                    default: 0
                    }
                guard length > 0 else {
                    index += 1
                    continue
                }
                if lines == nil { lines = [] }
                if index > start {
                    lines?.append(
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self))
                }
                index += length
                start = index
            }
            if lines != nil, start < bytes.count {
                lines?.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...]), as: UTF8.self))
            }
            return lines
        }
    }

    /// A URL's table; one that is not a web link has no `href` key.
    func url(_ url: LabeledValue) -> MustacheTable {
        let text = url.value.trimmingWhitespace
        var href: String?
        // User data: only web links are links, so no javascript: or data: URL reaches an href.
        let lower = text.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            href = text
        } else if !lower.contains(":"), text.contains("."), !text.contains(where: \.isWhitespace) {
            href = "https://" + text
        }
        return MustacheTable(keys: Self.urlKeys) { field in
            [
                field("label", .string(strings.label(for: url.label))),
                field("display", .string(text)),
                field("href", href.map(MustacheValue.string) ?? .absent),
            ]
        }
    }

    /// A postal address's table, with its lines as they are shown, in its country's order.
    func address(_ address: PostalAddress) -> MustacheTable {
        // The street's lines, trimmed and without empty ones, placed where the address's country
        // writes them (AddressOrder).
        let street =
            Self.streetLines(address.street).map { $0.map(\.trimmingWhitespace) }
            ?? [address.street.trimmingWhitespace]
        let lines = AddressOrder(of: address).lines(of: address, street: street)
        let mapHref = MapLink.url(for: lines.joined(separator: ", "), provider: directory.config.mapLinks)
        return MustacheTable(keys: Self.addressKeys) { field in
            [
                field("label", .string(strings.label(for: address.label))),
                field("street", .string(address.street)),
                field("postalCode", .string(address.postalCode)),
                field("city", .string(address.city)),
                field("region", .string(address.region)),
                field("country", .string(address.country)),
                field("lines", .strings(lines)),
                field("mapHref", mapHref.map(MustacheValue.string) ?? .absent),
            ]
        }
    }
}
