import RolodeckCore

/// Reads a contact's fields from a JSON object.
enum ContactFields {
    /// The members of a contact object.
    enum Field: String, CaseIterable, Sendable {
        case id, salutation, givenName, familyName, additionalNames, suffix, nickname
        case phoneticGivenName, phoneticFamilyName, organization, title, emails, phones
        case addresses, urls, birthday, age, groups, notes, photo, `private`
    }

    /// The greatest age a contact may be given.
    static let oldestAge = 150

    private static let names = MemberNames<Field>(keys: StoreDecoder.knownKeys)

    /// Every field a contact may have, for suggestions and the schema test.
    static let known = Field.allCases.map(\.rawValue)

    /// What a contact object yields: the contact, its id and where that is written (nil when
    /// it has no usable id), where each group reference was written, and the salutation record
    /// it names, if it names one, with where that is written, and the photo file it names, with
    /// where that is written.
    struct Decoded {
        var contact: Contact
        var id: (String, Int)?
        var groupOffsets: [(String, Int)]
        var salutationReference: (String, Int)?
        var photoReference: (String, Int)?
    }

    /// Reads the contact object whose `{` the parser stands at, `depth` deep counting itself,
    /// which starts at `offset`.
    static func decode(_ parser: inout JSONParser, depth: Int, at offset: Int, reader: inout RecordReader)
        throws(JSONSyntaxError) -> Decoded {
        var contact = Contact(id: "")
        var idMember: JSONMember?
        var groups: [(String, Int)] = []
        var age: (Int, Int)?
        var salutationReference: (String, Int)?
        var photoReference: (String, Int)?
        try reader.readMembers(of: &parser, depth: depth, names: names) {
            (reader, parser, key, field) throws(JSONSyntaxError) in
            switch field {
            case .id: idMember = try parser.member(key)
            case .salutation:
                if parser.nextByte == UInt8(ascii: "{") {
                    salutationReference = try SalutationFields.reference(key, from: &parser, reader: &reader)
                } else {
                    contact.salutation = try salutation(key, from: &parser, reader: &reader)
                }
            case .givenName: contact.givenName = try reader.string(key, from: &parser)
            case .familyName: contact.familyName = try reader.string(key, from: &parser)
            case .additionalNames: contact.additionalNames = try reader.string(key, from: &parser)
            case .suffix: contact.suffix = try reader.string(key, from: &parser)
            case .nickname: contact.nickname = try reader.string(key, from: &parser)
            case .phoneticGivenName: contact.phoneticGivenName = try reader.string(key, from: &parser)
            case .phoneticFamilyName: contact.phoneticFamilyName = try reader.string(key, from: &parser)
            case .organization: contact.organization = try reader.string(key, from: &parser)
            case .title: contact.title = try reader.string(key, from: &parser)
            case .emails: contact.emails = try reader.labeledValues(key, from: &parser)
            case .phones: contact.phones = try reader.labeledValues(key, from: &parser)
            case .urls: contact.urls = try reader.labeledValues(key, from: &parser)
            case .addresses: contact.addresses = try addresses(key, from: &parser, reader: &reader)
            case .birthday: contact.birthday = reader.date(try parser.member(key))
            case .age: age = Self.age(try parser.member(key), reader: &reader)
            case .groups: groups = try reader.strings(key, from: &parser)
            case .notes: contact.notes = try reader.string(key, from: &parser)
            case .photo:
                // Where the path's text is written, for messages about the file it names.
                let offset = parser.offset
                let path = try reader.string(key, from: &parser)
                if !path.isBlank { photoReference = (path, offset) }
            case .private: contact.classification = reader.classification(try parser.member(key))
            case nil: reader.unknown(try parser.member(key), known: known)
            }
        }
        let identifier = reader.identifier(idMember, recordAt: offset)
        let id = identifier?.0 ?? ""
        contact.id = id
        if !id.isEmpty, !contact.hasName {
            reader.report(.noName(contactID: id), at: offset)
        }
        if let (age, ageOffset) = age {
            // A birthday with a year gives the age on the day of every build; an age written
            // beside it would only ever be right until the next birthday.
            if contact.birthday?.year != nil {
                reader.report(.ageBesideBirthday(contactID: id), at: ageOffset)
            } else {
                contact.age = age
            }
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
        return Decoded(
            contact: contact, id: identifier, groupOffsets: groups, salutationReference: salutationReference,
            photoReference: photoReference)
    }

    /// The salutation written as text, the value of `key`; null reads as empty, and a value
    /// that is neither text nor a `{"id": …}` object is reported.
    private static func salutation(_ key: JSONMemberKey, from parser: inout JSONParser, reader: inout RecordReader)
        throws(JSONSyntaxError) -> String
    {
        if parser.nextByte == UInt8(ascii: "\"") { return try parser.parseString() }
        let member = try parser.member(key)
        if case .null = member.value.kind { return "" }
        reader.report(
            .wrongType(field: key.key, expected: #"text or {"id": …}"#, found: member.value.typeDescription),
            at: member.value.offset)
        return ""
    }

    /// The member's value as an age, with where it is written: a whole number from 0 to
    /// `oldestAge`. Nil for null, or after reporting a value that is not one.
    private static func age(_ member: JSONMember, reader: inout RecordReader) -> (Int, Int)? {
        switch member.value.kind {
        case .null:
            return nil
        case .number(let value, let text):
            guard value.rounded() == value, (0...Double(oldestAge)).contains(value) else {
                reader.report(.invalidAge(text), at: member.value.offset)
                return nil
            }
            return (Int(value), member.value.offset)
        default:
            reader.report(
                .wrongType(field: "age", expected: "a number", found: member.value.typeDescription),
                at: member.value.offset)
            return nil
        }
    }

    /// The members of an address object (`type` is another name for the label).
    enum AddressField: String, CaseIterable, Sendable {
        case label, type, street, postalCode, city, region, country
    }

    private static let addressNames = MemberNames<AddressField>(keys: StoreDecoder.knownKeys)
    private static let addressFields = ["label", "street", "postalCode", "city", "region", "country"]

    private static func addresses(
        _ key: JSONMemberKey, from parser: inout JSONParser, reader: inout RecordReader
    ) throws(JSONSyntaxError) -> [PostalAddress] {
        var result: [PostalAddress] = []
        try reader.forEachElement(key, of: &parser) { (reader, parser) throws(JSONSyntaxError) in
            guard parser.nextByte == UInt8(ascii: "{") else {
                let element = try parser.parseValue(depth: key.depth + 1)
                if case .null = element.kind { return }
                reader.report(.wrongType(field: "addresses", expected: "an array of address objects",
                                         found: "an array containing \(element.typeDescription)"),
                              at: element.offset)
                return
            }
            var address = PostalAddress()
            try reader.readMembers(of: &parser, depth: key.depth + 2, names: addressNames) {
                (reader, parser, key, field) throws(JSONSyntaxError) in
                switch field {
                case .label, .type: address.label = try reader.string(key, from: &parser)
                case .street: address.street = try reader.string(key, from: &parser)
                case .postalCode: address.postalCode = try reader.string(key, from: &parser)
                case .city: address.city = try reader.string(key, from: &parser)
                case .region: address.region = try reader.string(key, from: &parser)
                case .country: address.country = try reader.string(key, from: &parser)
                case nil: reader.unknown(try parser.member(key), known: addressFields)
                }
            }
            if !address.isEmpty { result.append(consume address) }
        }
        return result
    }
}
