/// Reads a contact's fields from a JSON object.
enum ContactFields {
    /// Every field a contact may have, for suggestions and the schema test.
    static let known = [
        "id", "salutation", "givenName", "familyName", "additionalNames", "suffix", "nickname",
        "phoneticGivenName", "phoneticFamilyName", "organization", "title", "emails", "phones",
        "addresses", "urls", "birthday", "groups", "notes",
    ]

    /// What a contact object yields: the contact and where each group reference was written.
    struct Decoded {
        var contact: Contact
        var groupOffsets: [(String, Int)]
    }

    static func decode(_ members: [JSONMember], id: String, at offset: Int, reader: inout RecordReader) -> Decoded {
        var contact = Contact(id: id)
        var groups: [(String, Int)] = []
        reader.forEachMember(of: members) { reader, member in
            switch member.key {
            case "id": break
            case "salutation": contact.salutation = reader.string(member)
            case "givenName": contact.givenName = reader.string(member)
            case "familyName": contact.familyName = reader.string(member)
            case "additionalNames": contact.additionalNames = reader.string(member)
            case "suffix": contact.suffix = reader.string(member)
            case "nickname": contact.nickname = reader.string(member)
            case "phoneticGivenName": contact.phoneticGivenName = reader.string(member)
            case "phoneticFamilyName": contact.phoneticFamilyName = reader.string(member)
            case "organization": contact.organization = reader.string(member)
            case "title": contact.title = reader.string(member)
            case "emails": contact.emails = reader.labeledValues(member)
            case "phones": contact.phones = reader.labeledValues(member)
            case "urls": contact.urls = reader.labeledValues(member)
            case "addresses": contact.addresses = addresses(member, reader: &reader)
            case "birthday": contact.birthday = reader.date(member)
            case "groups": groups = reader.strings(member)
            case "notes": contact.notes = reader.string(member)
            default: reader.unknown(member, known: known)
            }
        }
        if !id.isEmpty, !contact.hasName {
            reader.report(.noName(contactID: id), at: offset)
        }
        var seen = Set<String>()
        for (groupID, groupOffset) in groups {
            if seen.insert(groupID).inserted {
                contact.groupIDs.append(groupID)
            } else {
                reader.report(.repeatedGroup(contactID: id, groupID: groupID), at: groupOffset)
            }
        }
        return Decoded(contact: contact, groupOffsets: groups)
    }

    private static let addressFields = ["label", "street", "postalCode", "city", "region", "country"]

    private static func addresses(_ member: JSONMember, reader: inout RecordReader) -> [PostalAddress] {
        var result: [PostalAddress] = []
        for element in reader.array(member) {
            guard case .object(let fields) = element.kind else {
                if case .null = element.kind { continue }
                reader.report(.wrongType(field: "addresses", expected: "an array of address objects",
                                         found: "an array containing \(element.typeDescription)"),
                              at: element.offset)
                continue
            }
            var address = PostalAddress()
            reader.forEachMember(of: fields) { reader, field in
                switch field.key {
                case "label", "type": address.label = reader.string(field)
                case "street": address.street = reader.string(field)
                case "postalCode": address.postalCode = reader.string(field)
                case "city": address.city = reader.string(field)
                case "region": address.region = reader.string(field)
                case "country": address.country = reader.string(field)
                default: reader.unknown(field, known: addressFields)
                }
            }
            if !address.isEmpty { result.append(address) }
        }
        return result
    }
}
