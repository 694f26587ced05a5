extension ViewBuilder {
    /// A contact in a list: name, organization, first phone and email, link to its page.
    func row(_ entry: Directory.Entry, root: String) -> [String: Any] {
        let contact = entry.contact
        let config = directory.config
        var view: [String: Any] = [
            "id": contact.id,
            "name": entry.displayName,
            "lang": nameLanguage(contact),
            "href": root + "contacts/\(entry.slug).html",
        ]
        if config.shows(.salutation) { view["salutation"] = contact.salutation }
        if config.shows(.organization), !contact.isOrganizationOnly { view["organization"] = contact.organization }
        if config.shows(.title) { view["title"] = contact.title }
        if config.shows(.phones), let phone = contact.phones.first { view["phone"] = self.phone(phone) }
        if config.shows(.emails), let email = contact.emails.first { view["email"] = self.email(email) }
        return view
    }

    /// Everything the contact page shows; hidden fields are left out entirely.
    func contactPage(_ index: Int) -> [String: Any] {
        let entry = directory.entries[index]
        let contact = entry.contact
        let config = directory.config
        var view: [String: Any] = [
            "id": contact.id,
            "name": entry.displayName,
            "lang": nameLanguage(contact),
            "givenName": contact.givenName,
            "familyName": contact.familyName,
            "additionalNames": contact.additionalNames,
            "suffix": contact.suffix,
            "isOrganization": contact.isOrganizationOnly,
            "monogram": entry.displayName.first.map { String($0).uppercased() } ?? "",
        ]
        let phonetic = NameFormatter.isEastAsian(contact.familyName)
            ? contact.phoneticFamilyName + contact.phoneticGivenName
            : [contact.phoneticGivenName, contact.phoneticFamilyName].filter { !$0.isEmpty }.joined(separator: " ")
        view["phoneticName"] = phonetic
        if config.shows(.salutation) { view["salutation"] = contact.salutation }
        if config.shows(.nickname), contact.nickname != entry.displayName { view["nickname"] = contact.nickname }
        if config.shows(.organization), !contact.isOrganizationOnly { view["organization"] = contact.organization }
        if config.shows(.title) { view["title"] = contact.title }
        let phones = config.shows(.phones) ? contact.phones.map(phone) : []
        let emails = config.shows(.emails) ? contact.emails.map(email) : []
        let addresses = config.shows(.addresses) ? contact.addresses.map(address) : []
        let urls = config.shows(.urls) ? contact.urls.map(url) : []
        // Lists are paired with flags, because a section over a list repeats and cannot wrap it.
        view["phones"] = phones
        view["hasPhones"] = !phones.isEmpty
        view["emails"] = emails
        view["hasEmails"] = !emails.isEmpty
        view["addresses"] = addresses
        view["hasAddresses"] = !addresses.isEmpty
        view["urls"] = urls
        view["hasURLs"] = !urls.isEmpty
        if config.shows(.birthday), let birthday = contact.birthday {
            var date: [String: Any] = [
                "display": birthday.year == nil ? strings.monthDay(birthday) : strings.date(birthday),
                "iso": birthday.htmlDateString,
            ]
            // A string, so that an age of 0 still shows: sections treat the number 0 as false.
            if config.shows(.age), let age = birthday.age(on: today) { date["age"] = String(age) }
            view["birthday"] = date
        }
        if config.shows(.groups) {
            let groups = contact.groupIDs.compactMap { id -> [String: Any]? in
                guard let index = directory.groupIndex[id] else { return nil }
                let group = directory.groups[index]
                return ["name": group.group.name, "href": "../groups/\(group.slug).html"]
            }
            view["groups"] = groups
            view["hasGroups"] = !groups.isEmpty
        }
        if config.shows(.notes) { view["notesHTML"] = contactNotes.html(contact.notes) }

        var context = common(kind: "contact", title: entry.displayName, root: "../")
        context["contact"] = view
        return context
    }

    /// The language a name is written in when it is not the page's, for a `lang` attribute so
    /// screen readers pronounce 김철수 as Korean on an English page; "" otherwise.
    func nameLanguage(_ contact: Contact) -> String {
        guard let tag = NameFormatter.languageTag(of: contact), tag != strings.language.languageTag else { return "" }
        return tag
    }

    func phone(_ phone: LabeledValue) -> [String: Any] {
        var view: [String: Any] = ["label": strings.label(for: phone.label), "display": phones.format(phone.value)]
        if phones.isDialable(phone.value) { view["tel"] = phones.telURI(phone.value) }
        return view
    }

    func email(_ email: LabeledValue) -> [String: Any] {
        let address = email.value.trimmingWhitespace
        var view: [String: Any] = ["label": strings.label(for: email.label), "address": address]
        // Only something shaped like an address becomes a link; anything else stays text.
        if address.contains("@"), !address.contains(where: { $0.isWhitespace || $0 == "<" || $0 == ">" }) {
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
        var lines = address.street.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace }
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

extension String {
    /// The string without leading and trailing whitespace.
    var trimmingWhitespace: String {
        // Most strings start and end with a printable ASCII character: nothing to trim.
        if let first = utf8.first, let last = utf8.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return self
        }
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }
}
