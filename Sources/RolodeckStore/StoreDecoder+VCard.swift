import RolodeckCore

/// vCard files in the store: their cards become contacts and groups.
///
/// - A contact's id is its UID (without `urn:uuid:`). A card without a UID gets an id made
///   from its name ("Ando Roid", then "Ando Roid 2" …), the same on every build.
/// - A UID seen on an earlier card is a warning and the later card is skipped: the same person
///   synced into two address books is one contact. A UID equal to a JSON contact's id is an
///   error, as any duplicate id in the JSON store is.
/// - Groups from the three dialects are merged by name (ignoring case), with the JSON store's
///   groups first: vCard 4 `KIND:group` cards and Apple's `X-ADDRESSBOOKSERVER-KIND:group`
///   cards (their UID is the group's id), then `CATEGORIES` (a category names a group, or
///   matches a group's id; otherwise it becomes a group of its own with the name as id).
/// - Members are found by UID (with or without `urn:uuid:`), by `mailto:` address, or are
///   groups, whose members are included; a member that is not in the store is a warning.
extension StoreDecoder {
    /// What a vCard file yields on its own: its cards, and the problems found in them.
    static func cards(of file: StoreFile) -> (cards: [VCardRecord], diagnostics: [Diagnostic]) {
        let (parsed, parseDiagnostics) = VCardParser.parse(file.source)
        var fields = VCardFields()
        let cards = parsed.compactMap { fields.record(from: $0) }
        return (cards, parseDiagnostics + fields.diagnostics)
    }

    mutating func mergeCards() {
        guard !cards.isEmpty else { return }
        var newContacts: [(contact: Contact, record: VCardRecord)] = []
        var groupCards: [VCardRecord] = []
        var cardUIDs: [String: SourceLocation] = [:]
        for record in cards {
            guard case .contact(var contact) = record.content else {
                groupCards.append(record)
                continue
            }
            if let uid = record.uid {
                let taken = claim(uid, of: .contact, recordAt: record.location, claimed: &cardUIDs) { first in
                    VCardIssue.warning(.duplicateUID(uid.value, first: first), at: uid.location)
                }
                guard taken else { continue }
                contact.id = uid.value
            }
            newContacts.append((contact, record))
        }
        // Ids made from names come after every UID is known, so they never take a UID's place.
        for index in newContacts.indices where newContacts[index].contact.id.isEmpty {
            let record = newContacts[index].record
            let id = StoreDecoder.uniqueID(record.formattedName, fallback: "contact") { contactIDs[$0] != nil }
            newContacts[index].contact.id = id
            contactIDs[id] = .location(record.location)
        }

        var groupsByName: [String: String] = [:]
        for group in store.groups where groupsByName[StoreDecoder.groupKey(group.name)] == nil {
            groupsByName[StoreDecoder.groupKey(group.name)] = group.id
        }
        var groupByUID: [String: String] = [:]
        var groupCardUIDs: [String: SourceLocation] = [:]
        var memberships: [(groupID: String, groupName: String, member: Located<String>)] = []
        for record in groupCards {
            guard case .group(let name, let notes, let members) = record.content else { continue }
            guard !name.isBlank else {
                warn(.groupWithoutName, at: record.location)
                continue
            }
            if let uid = record.uid, let first = groupCardUIDs[uid.value] {
                warn(.duplicateGroupUID(uid.value, first: first), at: uid.location)
                continue
            }
            let key = StoreDecoder.groupKey(name)
            let id: String
            if let existing = groupsByName[key] {
                id = existing
                if let index = store.groups.firstIndex(where: { $0.id == existing }),
                   store.groups[index].notes.isBlank {
                    store.groups[index].notes = notes
                }
            } else {
                if let uid = record.uid, let json = groupIDs[uid.value] {
                    let issue = StoreIssue(.duplicateID(.group, id: uid.value, first: json.location))
                    diagnostics.append(Diagnostic(.error, at: uid.location, issue.message))
                    continue
                }
                id = record.uid?.value ?? StoreDecoder.uniqueID(name, fallback: "group") { groupIDs[$0] != nil }
                store.groups.append(Group(id: id, name: name, notes: notes))
                groupIDs[id] = .location(record.uid?.location ?? record.location)
                groupsByName[key] = id
            }
            if let uid = record.uid {
                groupCardUIDs[uid.value] = record.location
                groupByUID[uid.value] = id
            }
            memberships += members.map { (id, name, $0) }
        }

        for index in newContacts.indices {
            for category in newContacts[index].record.categories {
                let key = StoreDecoder.groupKey(category.value)
                var id = groupsByName[key] ?? (groupIDs[category.value] != nil ? category.value : nil)
                if id == nil {
                    let newID = StoreDecoder.uniqueID(category.value, fallback: "group") { groupIDs[$0] != nil }
                    store.groups.append(Group(id: newID, name: category.value))
                    groupIDs[newID] = .location(category.location)
                    groupsByName[key] = newID
                    id = newID
                }
                if let id, !newContacts[index].contact.groupIDs.contains(id) {
                    newContacts[index].contact.groupIDs.append(id)
                }
            }
        }
        store.contacts += newContacts.map(\.contact)
        addMembers(memberships, groupByUID: groupByUID)
    }

    /// Adds the members of group cards to their groups, including the members of member groups.
    private mutating func addMembers(_ memberships: [(groupID: String, groupName: String, member: Located<String>)],
                                     groupByUID: [String: String]) {
        guard !memberships.isEmpty else { return }
        var contactByID: [String: Int] = [:]
        var contactByEmail: [String: Int] = [:]
        for (index, contact) in store.contacts.enumerated() {
            contactByID[contact.id] = contactByID[contact.id] ?? index
            for email in contact.emails {
                let key = email.value.trimmingWhitespace.lowercased()
                if contactByEmail[key] == nil { contactByEmail[key] = index }
            }
        }
        var contacts: [String: [Int]] = [:]
        var subgroups: [String: [String]] = [:]
        var order: [String] = []
        for (groupID, groupName, member) in memberships {
            if contacts[groupID] == nil, subgroups[groupID] == nil { order.append(groupID) }
            let written = member.value
            let uid = VCardFields.normalizedUID(written) ?? ""
            let email = written.lowercased().hasPrefix("mailto:")
                ? String(written.dropFirst("mailto:".count)).trimmingWhitespace.lowercased() : nil
            if let email, let index = contactByEmail[email] {
                contacts[groupID, default: []].append(index)
            } else if let index = contactByID[uid] {
                contacts[groupID, default: []].append(index)
            } else if let group = groupByUID[uid] ?? (groupIDs[uid] != nil ? uid : nil) {
                subgroups[groupID, default: []].append(group)
            } else {
                warn(.unknownMember(group: groupName, member: written), at: member.location)
            }
        }
        for groupID in order {
            // Depth first through member groups; `visited` stops a group that contains itself.
            var visited: Set<String> = [groupID]
            var pending = subgroups[groupID] ?? []
            var members = contacts[groupID] ?? []
            while let next = pending.popLast() {
                guard visited.insert(next).inserted else { continue }
                members += contacts[next] ?? []
                pending += subgroups[next] ?? []
            }
            for index in members where !store.contacts[index].groupIDs.contains(groupID) {
                store.contacts[index].groupIDs.append(groupID)
            }
        }
    }

    private mutating func warn(_ reason: VCardIssue.Reason, at location: SourceLocation) {
        diagnostics.append(VCardIssue.warning(reason, at: location))
    }

    /// Group names that differ only in case or surrounding space are one group.
    static func groupKey(_ name: String) -> String {
        name.trimmingWhitespace.lowercased()
    }
}
