/// Reads a contact's fields from a JSON object.
enum ContactFields {
    /// The members of a contact object.
    enum Field: String, CaseIterable, Sendable {
        case id, salutation, givenName, familyName, additionalNames, suffix, nickname
        case phoneticGivenName, phoneticFamilyName, organization, title, emails, phones
        case addresses, urls, birthday, groups, notes
    }

    private static let names = MemberNames<Field>()

    /// Every field a contact may have, for suggestions and the schema test.
    static let known = Field.allCases.map(\.rawValue)

    /// What a contact object yields: the contact and where each group reference was written.
    struct Decoded {
        var contact: Contact
        var groupOffsets: [(String, Int)]
    }

    static func decode(_ members: [JSONMember], id: String, at offset: Int, reader: inout RecordReader) -> Decoded {
        var contact = Contact(id: id)
        var groups: [(String, Int)] = []
        reader.forEachMember(of: members, names: names) { reader, member, field in
            switch field {
            case .id: break
            case .salutation: contact.salutation = reader.string(member)
            case .givenName: contact.givenName = reader.string(member)
            case .familyName: contact.familyName = reader.string(member)
            case .additionalNames: contact.additionalNames = reader.string(member)
            case .suffix: contact.suffix = reader.string(member)
            case .nickname: contact.nickname = reader.string(member)
            case .phoneticGivenName: contact.phoneticGivenName = reader.string(member)
            case .phoneticFamilyName: contact.phoneticFamilyName = reader.string(member)
            case .organization: contact.organization = reader.string(member)
            case .title: contact.title = reader.string(member)
            case .emails: contact.emails = reader.labeledValues(member)
            case .phones: contact.phones = reader.labeledValues(member)
            case .urls: contact.urls = reader.labeledValues(member)
            case .addresses: contact.addresses = addresses(member, reader: &reader)
            case .birthday: contact.birthday = reader.date(member)
            case .groups: groups = reader.strings(member)
            case .notes: contact.notes = reader.string(member)
            case nil: reader.unknown(member, known: known)
            }
        }
        if !id.isEmpty, !contact.hasName {
            reader.report(.noName(contactID: id), at: offset)
        }
        // A contact lists a few groups: comparing with those kept costs less than hashing each,
        // and a set is made only for a long list.
        var groupIDs: [String] = []
        groupIDs.reserveCapacity(groups.count)
        var seen: Set<String>? = groups.count > 16 ? Set(minimumCapacity: groups.count) : nil
        for (groupID, groupOffset) in groups {
            if seen?.insert(groupID).inserted == false || (seen == nil && groupIDs.contains(groupID)) {
                reader.report(.repeatedGroup(contactID: id, groupID: groupID), at: groupOffset)
            } else {
                groupIDs.append(groupID)
            }
        }
        if !groupIDs.isEmpty { contact.groupIDs = groupIDs }
        return Decoded(contact: contact, groupOffsets: groups)
    }

    /// The members of an address object (`type` is another name for the label).
    enum AddressField: String, CaseIterable, Sendable {
        case label, type, street, postalCode, city, region, country
    }

    private static let addressNames = MemberNames<AddressField>()
    private static let addressFields = ["label", "street", "postalCode", "city", "region", "country"]

    private static func addresses(_ member: JSONMember, reader: inout RecordReader) -> [PostalAddress] {
        let elements = reader.array(member)
        var result: [PostalAddress] = []
        result.reserveCapacity(elements.count)
        for element in elements {
            guard case .object(let fields) = element.kind else {
                if case .null = element.kind { continue }
                reader.report(.wrongType(field: "addresses", expected: "an array of address objects",
                                         found: "an array containing \(element.typeDescription)"),
                              at: element.offset)
                continue
            }
            var address = PostalAddress()
            reader.forEachMember(of: fields, names: addressNames) { reader, member, field in
                switch field {
                case .label, .type: address.label = reader.string(member)
                case .street: address.street = reader.string(member)
                case .postalCode: address.postalCode = reader.string(member)
                case .city: address.city = reader.string(member)
                case .region: address.region = reader.string(member)
                case .country: address.country = reader.string(member)
                case nil: reader.unknown(member, known: addressFields)
                }
            }
            if !address.isEmpty { result.append(address) }
        }
        return result
    }
}
