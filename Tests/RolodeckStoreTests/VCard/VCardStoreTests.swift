import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// How cards from several files become one store: ids, duplicates, and groups from all three
/// dialects merged with each other and with the JSON store's.
@Suite struct VCardStoreTests {
    /// Decodes JSON files and vCard files (path → text), in that order.
    static func decode(json: [StoreFile] = [], vcards: [(String, String)]) -> (store: Store, diagnostics: [String]) {
        let files = json + vcards.map { StoreFile.vCard(SourceText(path: $0.0, text: $0.1)) }
        let (store, diagnostics) = StoreDecoder.decode(files)
        return (store, diagnostics.map(\.description))
    }

    static func groups(of store: Store) -> [String: [String]] {
        var members: [String: [String]] = [:]
        for group in store.groups { members["\(group.id) (\(group.name))"] = [] }
        for contact in store.contacts {
            for id in contact.groupIDs {
                let group = store.groups.first { $0.id == id }!
                members["\(group.id) (\(group.name))", default: []].append(contact.id)
            }
        }
        return members
    }

    @Test func groupsOfAllThreeDialectsMergeByName() {
        let work = card("UID:ann", "N:Lee;Ann", "EMAIL:ann@example.com", "CATEGORIES:Tennis,family")
            + card("UID:urn:uuid:bo", "N:Kim;Bo")
            + card("UID:cy", "N:Park;Cy")
            + card("UID:urn:uuid:apple-family", "N:Family", "FN:Family", "X-ADDRESSBOOKSERVER-KIND:group",
                   "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:bo", "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:nobody")
        let home = card("VERSION:4.0", "UID:kids-group", "KIND:group", "FN:FAMILY ", "MEMBER:urn:uuid:cy",
                        "MEMBER:mailto:Ann@Example.com", "MEMBER:urn:uuid:friends")
            + card("VERSION:4.0", "UID:friends", "KIND:group", "FN:Friends", "MEMBER:dee")
            + card("UID:dee", "FN:Dee Doe", "CATEGORIES:Friends")
        let json = StoreFile(kind: .group, layout: .list,
                             source: SourceText(path: "store/groups.json", text: #"[{"id": "fam", "name": "Family"}]"#))
        let (store, diagnostics) = Self.decode(json: [json], vcards: [("store/work/a.vcf", work), ("store/home/b.vcf", home)])
        #expect(diagnostics == [
            "store/work/a.vcf:25:28: warning: group \"Family\" lists member \"urn:uuid:nobody\", which is not in the store; it is ignored",
        ])
        #expect(store.contacts.map(\.id) == ["ann", "bo", "cy", "dee"])
        // One Family (the JSON group's id and name), whatever each dialect calls it; Friends is
        // a member group of the 4.0 "FAMILY " card, so its members are in Family too.
        #expect(Self.groups(of: store) == [
            "fam (Family)": ["ann", "bo", "cy", "dee"],
            "Tennis (Tennis)": ["ann"],
            "friends (Friends)": ["dee"],
        ])
        #expect(store.contacts[0].groupIDs == ["Tennis", "fam"])
    }

    /// A group card's `CLASS` is its group's; a group that any of its cards (or its JSON
    /// record) marks private is private, whatever the others say.
    @Test func aGroupCardGivesItsGroupItsClass() {
        let cards = card("VERSION:4.0", "UID:club", "KIND:group", "FN:Club", "CLASS:private")
            + card("VERSION:4.0", "UID:club-2", "KIND:group", "FN:club", "CLASS:PUBLIC")
            + card("VERSION:4.0", "UID:team", "KIND:group", "FN:Team", "CLASS:PUBLIC")
            + card("VERSION:4.0", "UID:team-2", "KIND:group", "FN:TEAM", "CLASS:Confidential")
            + card("VERSION:4.0", "UID:choir", "KIND:group", "FN:Choir")
            + card("VERSION:4.0", "UID:fam-card", "KIND:group", "FN:Family", "CLASS:PUBLIC")
            + card("UID:ann", "N:Lee;Ann", "CATEGORIES:Club,Choir,Team,Family")
        let json = StoreFile(kind: .group, layout: .list, source: SourceText(
            path: "store/groups.json", text: #"[{"id": "fam", "name": "Family", "private": true}]"#))
        let (store, diagnostics) = Self.decode(json: [json], vcards: [("store/a.vcf", cards)])
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(store.groups.map { "\($0.id) \($0.classification ?? "-")" }
            == ["fam PRIVATE", "club PRIVATE", "team CONFIDENTIAL", "choir -"])
        #expect(store.contacts[0].groupIDs == ["club", "choir", "team", "fam"])
    }

    @Test func theSameUIDTwiceIsOneContactAndAClashWithJSONIsAnError() {
        let json = StoreFile(kind: .contact, layout: .list, source: SourceText(
            path: "store/contacts.json", text: #"[{"id": "jo", "givenName": "Jo"}]"#))
        let (store, diagnostics) = Self.decode(json: [json], vcards: [
            ("store/a/1.vcf", card("UID:urn:uuid:ann", "N:Lee;Ann", "TEL:1")),
            ("store/b/1.vcf", card("UID:ann", "N:Lee;Ann", "TEL:2") + card("UID:jo", "N:Other;Jo")),
        ])
        #expect(diagnostics == [
            "store/b/1.vcf:3:5: warning: the card at store/a/1.vcf:1:1 has the same UID \"ann\"; this card is skipped",
            "store/b/1.vcf:9:5: error: duplicate contact id \"jo\"; it is already used at store/contacts.json:1:9",
        ])
        #expect(store.contacts.map(\.id) == ["jo", "ann"])
        #expect(store.contacts[1].phones.map(\.value) == ["1"])
    }

    /// Cards take their UIDs as their files come in only once no JSON file of contacts is to
    /// come: a JSON contact listed after the cards still has its id first, and the card that
    /// has it as its UID is the one in error, as when the JSON file comes first.
    @Test func aJSONContactListedAfterTheCardsStillHasItsIdFirst() {
        let json = StoreFile(kind: .contact, layout: .single, source: SourceText(
            path: "store/contacts/jo.json", text: #"{"id": "jo", "givenName": "Jo"}"#))
        let first = StoreFile.vCard(SourceText(
            path: "store/a/1.vcf", text: card("UID:jo", "N:Other;Jo") + card("UID:ann", "N:Lee;Ann", "TEL:1")))
        let last = StoreFile.vCard(SourceText(path: "store/b/1.vcf", text: card("UID:ann", "N:Lee;Ann", "TEL:2")))
        for files in [[first, json, last], [json, first, last], [first, last, json]] {
            let (store, diagnostics) = StoreDecoder.decode(files)
            #expect(diagnostics.map(\.description) == [
                "store/a/1.vcf:3:5: error: duplicate contact id \"jo\"; it is already used at store/contacts/jo.json:1:8",
                "store/b/1.vcf:3:5: warning: the card at store/a/1.vcf:6:1 has the same UID \"ann\"; this card is skipped",
            ])
            #expect(store.contacts.map(\.id) == ["jo", "ann"])
            #expect(store.contacts[1].phones.map(\.value) == ["1"])
        }
    }

    @Test func cardsWithoutUIDGetIdsFromTheirNamesThatNeverTakeAnotherId() {
        let json = StoreFile(kind: .contact, layout: .list, source: SourceText(
            path: "store/contacts.json", text: #"[{"id": "Ann Lee", "givenName": "Ann"}]"#))
        let vcards = card("FN:Ann Lee", "TEL:1") + card("N:Lee;Ann", "TEL:2") + card("UID:Ann Lee 2", "FN:Someone")
            + card("ORG:Acme") + card("FN:  ", "N:;;;;", "ORG:Acme")
        let (store, diagnostics) = Self.decode(json: [json], vcards: [("store/x.vcf", vcards)])
        #expect(diagnostics.isEmpty)
        // JSON first, then the cards in file order; "Ann Lee 2" is a UID, so named ids skip it.
        #expect(store.contacts.map(\.id) == ["Ann Lee", "Ann Lee 3", "Ann Lee 4", "Ann Lee 2", "Acme", "Acme 2"])
        // The same input gives the same ids: pages keep their addresses from build to build.
        #expect(Self.decode(json: [json], vcards: [("store/x.vcf", vcards)]).store.contacts.map(\.id)
                == store.contacts.map(\.id))
    }

    @Test func manyCardsOfOneNameAreNumberedInOrderPastIdsTakenOtherwise() {
        // A card named like a numbered id, and a UID that is one, come between them.
        let vcards =
            card("FN:Ann") + card("FN:Ann") + card("FN:Ann 3") + card("FN:Ann") + card("FN:Ann")
            + card("FN:Ann") + card("UID:Ann 5", "FN:Other") + card("FN:Ann")
        let (store, diagnostics) = Self.decode(vcards: [("store/x.vcf", vcards)])
        #expect(diagnostics.isEmpty)
        let numbered = ["Ann", "Ann 2", "Ann 3", "Ann 4", "Ann 6", "Ann 7", "Ann 5", "Ann 8"]
        #expect(store.contacts.map(\.id) == numbered)
    }

    @Test func aJSONContactMayNameAVCardGroupAndACategoryMayNameAJSONGroupById() {
        let contacts = StoreFile(kind: .contact, layout: .list, source: SourceText(
            path: "store/contacts.json", text: #"[{"id": "jo", "givenName": "Jo", "groups": ["climbers"]}]"#))
        let groups = StoreFile(kind: .group, layout: .list, source: SourceText(
            path: "store/groups.json", text: #"[{"id": "team-berlin", "name": "Team Berlin"}]"#))
        let (store, diagnostics) = Self.decode(json: [contacts, groups], vcards: [
            ("store/x.vcf", card("UID:climbers", "X-ADDRESSBOOKSERVER-KIND:GROUP", "FN:Climbers")
                + card("UID:ann", "FN:Ann Lee", "CATEGORIES:team-berlin")),
        ])
        #expect(diagnostics.isEmpty)
        #expect(Self.groups(of: store) == ["climbers (Climbers)": ["jo"], "team-berlin (Team Berlin)": ["ann"]])
    }

    @Test func aCategoryFoundAsAGroupsIdIsLookedUpAgainOnceItsNameHasAGroup() {
        // "Work" is first the JSON group's id; "work" then makes a group of that name, which the
        // third card's "Work" finds by name (names ignore case), and the fourth's by the same way.
        let groups = StoreFile(kind: .group, layout: .list, source: SourceText(
            path: "store/groups.json", text: #"[{"id": "Work", "name": "Job"}]"#))
        let (store, diagnostics) = Self.decode(json: [groups], vcards: [
            ("store/x.vcf", card("UID:a", "FN:A", "CATEGORIES:Work") + card("UID:b", "FN:B", "CATEGORIES:work")
                + card("UID:c", "FN:C", "CATEGORIES:Work")
                + card("UID:d", "FN:D", "CATEGORIES:WORK,work ")),
        ])
        #expect(diagnostics.isEmpty)
        #expect(Self.groups(of: store) == ["Work (Job)": ["a"], "work (work)": ["b", "c", "d"]])
    }

    /// Thousands of cards: a name's group is the one it finds where it is first written, and a
    /// name found as an id finds the group a later category makes of its name only after that
    /// category.
    @Test func categoriesOfManyCardsFindTheirGroupsInTheOrderTheyAreWritten() {
        let groups = StoreFile(kind: .group, layout: .list, source: SourceText(
            path: "store/groups.json", text: #"[{"id": "Work", "name": "Job"}]"#))
        let count = 7_000
        // Card 4,000 makes the group "work"; every card names "Work", and one name of its own
        // in every thousand cards, first written in the batch before the one that repeats it.
        let vcards = (0..<count).map { index in
            let categories = ["Work", "Club \(index / 1_000)"] + (index == 4_000 ? ["work"] : [])
            let lines = ["UID:c\(index)", "FN:C \(index)", "CATEGORIES:" + categories.joined(separator: ",")]
            return ("store/c\(index).vcf", card(lines))
        }
        let (store, diagnostics) = Self.decode(json: [groups], vcards: vcards)
        #expect(diagnostics.isEmpty)
        let members = Self.groups(of: store)
        #expect(members["Work (Job)"] == (0...4_000).map { "c\($0)" })
        #expect(members["work (work)"] == (4_000..<count).map { "c\($0)" })
        for club in 0..<(count / 1_000) {
            #expect(members["Club \(club) (Club \(club))"] == (club * 1_000..<(club + 1) * 1_000).map { "c\($0)" })
        }
        // Card 4,000 names "Club 4" before "work".
        #expect(store.groups.map(\.id) == ["Work"] + (0...4).map { "Club \($0)" } + ["work", "Club 5", "Club 6"])
    }

    @Test func groupCardsWithoutANameOrWithAUIDSeenBeforeAreSkipped() {
        let (store, diagnostics) = Self.decode(vcards: [
            ("store/g.vcf", card("X-ADDRESSBOOKSERVER-KIND:group", "X-ADDRESSBOOKSERVER-MEMBER:mailto:a@example.com")
                + card("UID:g1", "KIND:group", "FN:Choir") + card("UID:g1", "KIND:group", "FN:Band")),
        ])
        #expect(diagnostics == [
            "store/g.vcf:1:1: warning: this group card has no name (FN or N); it is skipped",
            "store/g.vcf:14:5: warning: the group card at store/g.vcf:6:1 has the same UID \"g1\"; this group card is skipped",
        ])
        #expect(store.groups == [Group(id: "g1", name: "Choir")])
        #expect(store.contacts.isEmpty)
    }
}

/// A 3.0 card, unless the lines name another version.
private func card(_ lines: String...) -> String {
    card(lines)
}

/// A 3.0 card of the lines given as a list.
private func card(_ lines: [String]) -> String {
    let version = lines.contains { $0.hasPrefix("VERSION:") } ? [] : ["VERSION:3.0"]
    return (["BEGIN:VCARD"] + version + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
}
