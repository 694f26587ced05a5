extension ViewBuilder {
    /// What lists show of a contact: name, organization, first phone and email, its page.
    func rowData(_ entry: Directory.Entry) -> RowData {
        let contact = entry.contact
        let config = directory.config
        return RowData(
            id: contact.id,
            name: entry.displayName,
            lang: nameLanguage(contact),
            path: "contacts/\(entry.slug).html",
            salutation: config.shows(.salutation) ? contact.salutation : "",
            organization: config.shows(.organization) && !contact.isOrganizationOnly ? contact.organization : "",
            title: config.shows(.title) ? contact.title : "",
            phone: config.shows(.phones) ? contact.phones.first.map(phone) : nil,
            email: config.shows(.emails) ? contact.emails.first.map(email) : nil)
    }

    /// Everything the contact page shows; hidden fields are left out entirely.
    func contactPage(_ index: Int) -> [String: Any] {
        let entry = directory.entries[index]
        let contact = entry.contact
        let config = directory.config
        // The list row has some of it worked out already.
        let row = rows[index]
        var view = ContactView()
        view.id = contact.id
        view.name = entry.displayName
        view.lang = row.lang
        view.givenName = contact.givenName
        view.familyName = contact.familyName
        view.additionalNames = contact.additionalNames
        view.suffix = contact.suffix
        view.isOrganization = contact.isOrganizationOnly
        view.monogram = entry.displayName.first.map { String($0).uppercased() } ?? ""
        view.phoneticName =
            NameFormatter.isEastAsian(contact.familyName)
            ? contact.phoneticFamilyName + contact.phoneticGivenName
            : [contact.phoneticGivenName, contact.phoneticFamilyName].filter { !$0.isEmpty }
                .joined(separator: " ")
        if config.shows(.salutation) { view.salutation = contact.salutation }
        if config.shows(.nickname), contact.nickname != entry.displayName {
            view.nickname = contact.nickname
        }
        if config.shows(.organization), !contact.isOrganizationOnly {
            view.organization = contact.organization
        }
        if config.shows(.title) { view.title = contact.title }
        // Lists are paired with flags, because a section over a list repeats and cannot wrap it.
        // The first phone and email are the list row's, already worked out.
        if config.shows(.phones) { view.phones = Self.reusingFirst(row.phone, of: contact.phones, phone) }
        if config.shows(.emails) { view.emails = Self.reusingFirst(row.email, of: contact.emails, email) }
        if config.shows(.addresses) { view.addresses = contact.addresses.map(address) }
        if config.shows(.urls) { view.urls = contact.urls.map(url) }
        if config.shows(.birthday), let birthday = contact.birthday {
            var date: [String: Any] = [
                "display": birthday.year == nil ? strings.monthDay(birthday) : strings.date(birthday),
                "iso": birthday.htmlDateString,
            ]
            // A string, so that an age of 0 still shows: sections treat the number 0 as false.
            if config.shows(.age), let age = birthday.age(on: today) { date["age"] = String(age) }
            view.birthday = date
        }
        if config.shows(.groups) {
            view.groups = contact.groupIDs.compactMap { id -> [String: Any]? in
                guard let index = directory.groupIndex[id] else { return nil }
                let group = directory.groups[index]
                return ["name": group.group.name, "href": "../groups/\(group.slug).html"]
            }
        }
        if config.shows(.notes) { view.notesHTML = contactNotes.html(contact.notes) }

        // Only the title differs between contact pages' common keys.
        var context = contactFrame
        context["page"] = PageInfo(kind: "contact", title: entry.displayName, flag: contactFlag)
        context["contact"] = view
        return context
    }

    /// `values` made into views, the first one given as `first` when it is known.
    private static func reusingFirst(
        _ first: [String: Any]?, of values: [LabeledValue], _ view: (LabeledValue) -> [String: Any]
    ) -> [[String: Any]] {
        guard let first, !values.isEmpty else { return values.map(view) }
        return [first] + values.dropFirst().map(view)
    }

    /// The language a name is written in when it is not the page's, for a `lang` attribute so
    /// screen readers pronounce 김철수 as Korean on an English page; "" otherwise.
    func nameLanguage(_ contact: Contact) -> String {
        guard let tag = NameFormatter.languageTag(of: contact), tag != strings.language.languageTag else { return "" }
        return tag
    }

    func phone(_ phone: LabeledValue) -> [String: Any] {
        let (display, tel) = phones.displayAndLink(phone.value)
        var view: [String: Any] = ["label": strings.label(for: phone.label), "display": display]
        if let tel { view["tel"] = tel }
        return view
    }

    func email(_ email: LabeledValue) -> [String: Any] {
        let address = email.value.trimmingWhitespace
        var view: [String: Any] = ["label": strings.label(for: email.label), "address": address]
        // Only something shaped like an address becomes a link; anything else stays text.
        let bytes = address.utf8
        if bytes.contains(UInt8(ascii: "@")),
           !bytes.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") }),
           bytes.allSatisfy({ $0 < 0x80 }) || !address.contains(where: \.isWhitespace) {
            view["href"] = "mailto:" + address
        }
        return view
    }

    func url(_ url: LabeledValue) -> [String: Any] {
        let text = url.value.trimmingWhitespace
        var view: [String: Any] = ["label": strings.label(for: url.label), "display": text]
        // User data: only web links are links, so no javascript: or data: URL reaches an href.
        let lower = text.lowercased()
        if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
            view["href"] = text
        } else if !lower.contains(":"), text.contains("."), !text.contains(where: \.isWhitespace) {
            view["href"] = "https://" + text
        }
        return view
    }

    func address(_ address: PostalAddress) -> [String: Any] {
        // Most streets are one line; bytes say so without Character properties. (Every newline
        // Character has a byte from 0A–0D or a UTF-8 byte 85, A8 or A9.)
        let mayHaveNewline = address.street.utf8.contains {
            (0x0A...0x0D).contains($0) || $0 == 0x85 || $0 == 0xA8 || $0 == 0xA9
        }
        var lines =
            mayHaveNewline
            ? address.street.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }
            : [address.street.trimmingWhitespace]
        var cityLine = [address.postalCode, address.city].map(\.trimmingWhitespace).filter { !$0.isEmpty }
            .joined(separator: " ")
        let region = address.region.trimmingWhitespace
        if !region.isEmpty { cityLine += cityLine.isEmpty ? region : ", " + region }
        lines.append(cityLine)
        lines.append(address.country.trimmingWhitespace)
        return [
            "label": strings.label(for: address.label),
            "street": address.street,
            "postalCode": address.postalCode,
            "city": address.city,
            "region": address.region,
            "country": address.country,
            "lines": lines.filter { !$0.isEmpty },
        ]
    }
}
