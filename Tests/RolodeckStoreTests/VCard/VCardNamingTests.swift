import Testing
@testable import RolodeckStore
@testable import RolodeckCore

/// What a card is called, from what it writes: the names `N`, `SORT-AS` and `ORG` give, then for
/// a card whose `N` gives neither a given nor a family name its `FN` split (unless `FN` is the
/// organization), else its first email or phone; and the name a person reads.
@Suite struct VCardNamingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        /// What the card writes, read.
        var card: VCardFields.WrittenCard
        /// The contact's names as `StoreDump` writes them, and the name a person reads.
        var contact: String
        var formattedName: String
        var testDescription: String { name }

        init(
            name: String, fn: String? = nil, n: [[String]]? = nil, sortAs: [String] = [],
            sortString: String = "",
            organization: [[String]]? = nil, nicknames: [String] = [], emails: [String] = [],
            phones: [String] = [], contact: String, formattedName: String
        ) {
            self.name = name
            card = VCardFields.WrittenCard(lists: true, customLabels: [:])
            (card.fn, card.n) = (fn, n.map(TextComponents.init))
            (card.sortAs, card.sortString) = (sortAs, sortString)
            (card.organization, card.nicknames) = (organization.map(TextComponents.init), nicknames)
            card.contact.emails = emails.map { LabeledValue(label: "", value: $0) }
            card.contact.phones = phones.map { LabeledValue(label: "", value: $0) }
            self.contact = contact
            self.formattedName = formattedName
        }
    }

    static let cases: [Case] = [
        Case(
            name: "N gives the names, FN the name a person reads",
            fn: "Dr. Ann B. Lee", n: [["Lee"], ["Ann"], ["B."], ["Dr."], ["PhD", "MD"]],
            contact: "given: Ann\nfamily: Lee\nadditional: B.\nsalutation: Dr.\nsuffix: PhD, MD",
            formattedName: "Dr. Ann B. Lee"),
        Case(
            name: "N's values are trimmed and empty ones left out", n: [[" Lee "], ["Ann", " ", "Bo"]],
            contact: "given: Ann Bo\nfamily: Lee", formattedName: "Ann Bo Lee"),
        Case(
            name: "SORT-AS gives both sort names, SORT-STRING only the family's when SORT-AS has none",
            n: [["van Gogh"], ["Vincent"]], sortAs: ["Gogh", "Vince"], sortString: "ignored",
            contact: "given: Vincent\nfamily: van Gogh\nsort given: Vince\nsort family: Gogh",
            formattedName: "Vincent van Gogh"),
        Case(
            name: "SORT-STRING", n: [["Ando"], ["Roid"]], sortString: "あんどう",
            contact: "given: Roid\nfamily: Ando\nsort family: あんどう", formattedName: "Roid Ando"),
        Case(
            name: "without N, FN is split: the last word is the family name", fn: "Frank Van Dawson",
            contact: "given: Frank Van\nfamily: Dawson", formattedName: "Frank Van Dawson"),
        Case(
            name: "an East Asian FN starts with the family name", fn: "安藤 ロイド",
            contact: "given: ロイド\nfamily: 安藤", formattedName: "安藤 ロイド"),
        Case(
            name: "an N without a given or family name leaves FN to give them", fn: "Ann Lee",
            n: [[], [], ["B."]],
            contact: "given: Ann\nfamily: Lee\nadditional: B.", formattedName: "Ann Lee"),
        Case(
            name: "FN that is the organization is not split", fn: "ACME Corp",
            organization: [["Acme Corp"], ["Sales"]], contact: "organization: Acme Corp, Sales",
            formattedName: "ACME Corp"),
        Case(
            name: "an organization without FN is called by it",
            organization: [[" Acme "], [""], ["Sales", "x"]],
            contact: "organization: Acme, Sales", formattedName: "Acme, Sales"),
        Case(
            name: "nicknames are joined, empty ones left out", nicknames: ["Annie", "", "Lee"],
            contact: "nickname: Annie, Lee", formattedName: "Annie, Lee"),
        Case(
            name: "a card with only an email is called by it", emails: ["ann@example.com", "b@example.com"],
            phones: ["555"], contact: "nickname: ann@example.com", formattedName: "ann@example.com"),
        Case(
            name: "a card with only a phone is called by it", phones: ["555 1234"],
            contact: "nickname: 555 1234", formattedName: "555 1234"),
        Case(name: "a card with nothing to call it by", contact: "", formattedName: ""),
    ]

    @Test(arguments: cases)
    func aCardIsCalledByWhatItWrites(_ test: Case) {
        var card = test.card
        card.nameContact()
        card.nameContactWithoutN()
        var names = card.contact
        names.emails = []
        names.phones = []
        let dump = StoreDump.contact(names).split(separator: "\n").dropFirst().joined(separator: "\n")
        #expect(dump == test.contact)
        #expect(card.contact.hasName == !test.formattedName.isEmpty)
        #expect(card.formattedName == test.formattedName)
    }
    /// `FN` and `N` as written stay in a record only for a reader asked to keep them (the
    /// comparison with vobject is): the store does not need them.
    @Test func writtenNamesAreKeptOnlyWhenAsked() throws {
        let source = SourceText(
            path: "store/ada.vcf",
            text: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nN:Lovelace;Ada;;;\r\nEND:VCARD\r\n")
        let card = try #require(VCardParser.parse(source).cards.first)
        var plain = VCardFields()
        let read = plain.record(from: card)
        let record = try #require(read)
        #expect(record.writtenFN == nil)
        #expect(record.writtenN == nil)
        #expect(record.formattedName == "Ada Lovelace")
        var keeping = VCardFields(keepsWrittenNames: true)
        let keptRead = keeping.record(from: card)
        let kept = try #require(keptRead)
        #expect(kept.writtenFN == "Ada Lovelace")
        #expect(kept.writtenN == [["Lovelace"], ["Ada"], [""], [""], [""]])
    }
}
