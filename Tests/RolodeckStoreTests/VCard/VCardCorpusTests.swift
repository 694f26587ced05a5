import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckCore

/// Every file of `../shared/corpora/vcard` (real exports and test files of other vCard
/// libraries) loads, and yields exactly these contacts, groups and warnings. A file added to
/// the corpus without an entry here fails `everyCorpusFileHasACase`.
@Suite struct VCardCorpusTests {
    struct CorpusCase: CustomTestStringConvertible, Sendable {
        var file: String
        var contacts: [String]
        var groups: [String]
        var warnings: [String]
        var testDescription: String { file }

        init(_ file: String, contacts: [String], groups: [String] = [], warnings: [String] = []) {
            self.file = file
            self.contacts = contacts
            self.groups = groups
            self.warnings = warnings
        }
    }

    static let folder = Fixtures.corpora?.appendingPathComponent("vcard")
    static let available = folder.map { FileManager.default.fileExists(atPath: $0.path) } ?? false

    @Test(.enabled(if: available, "the vCard corpus (../shared/corpora/vcard) is not beside the package"),
          arguments: cases)
    func corpusFileYieldsItsContacts(_ testCase: CorpusCase) throws {
        let url = try #require(Self.folder).appendingPathComponent(testCase.file)
        let bytes = Array(try Data(contentsOf: url))
        let (store, diagnostics) = StoreDecoder.decode([.vCard(SourceText(path: testCase.file, bytes: bytes))])
        #expect(store.contacts.map { StoreDump.contact($0, notesLimit: 60) } == testCase.contacts)
        #expect(store.groups.map(StoreDump.group) == testCase.groups)
        #expect(diagnostics.map(\.description) == testCase.warnings)
    }

    @Test(.enabled(if: available, "the vCard corpus (../shared/corpora/vcard) is not beside the package"))
    func everyCorpusFileHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: try #require(Self.folder).path)
            .filter { $0.hasSuffix(".vcf") }.sorted()
        #expect(files == Self.cases.map(\.file).sorted())
    }

    static let cases: [CorpusCase] = [
        // No N, FN or EMAIL: Android's X-ANDROID-CUSTOM nickname is the name; X-GOOGLE-TALK is not shown.
        CorpusCase("aosp-v21_im.vcf",
            contacts: [
                """
                id: Nick
                nickname: Nick
                """,
            ]),
        CorpusCase("aosp-v21_org_before_title.vcf",
            contacts: [
                """
                id: Normal Guy
                given: Normal
                family: Guy
                organization: Company, Organization, Devision, Room, Sheet No.
                title: Excellent Janitor
                """,
            ]),
        // FN only, one word: a given name. The first of several ORG and TITLE is used; ISDN stays a label.
        CorpusCase("aosp-v21_pref_handling.vcf",
            contacts: [
                """
                id: Smith
                given: Smith
                organization: Company
                title: Engineer
                phone: (home) 1
                phone: (work) 2
                phone: (isdn) 3
                email: (home) test@example.com
                email: (cell) test2@examination.com
                """,
            ]),
        // No VERSION and no FN: repaired from N; the id comes from the name, as there is no UID.
        CorpusCase("aosp-v21_simple_1.vcf",
            contacts: [
                """
                id: Roid Ando
                given: Roid
                family: Ando
                """,
            ]),
        CorpusCase("aosp-v21_simple_3.vcf",
            contacts: [
                """
                id: Ando Roid
                given: Roid
                family: Ando
                """,
            ]),
        CorpusCase("aosp-v21_sip.vcf",
            contacts: [
                """
                id: Android
                given: Android
                """,
            ]),
        CorpusCase("aosp-v21_title_before_org.vcf",
            contacts: [
                """
                id: Nice Guy
                given: Nice
                family: Guy
                organization: Marverous, Perfect, Great, Good, Bad, Poor
                title: Cool Title
                """,
            ]),
        // CHARSET=SHIFT_JIS, with 0x5C (a backslash in ASCII) inside 能 and 圭; not an escape.
        CorpusCase("aosp-v30_japanese.vcf",
            contacts: [
                """
                id: 伊能 圭一 伊予
                given: 圭一
                family: 伊能
                additional: 伊予
                """,
            ]),
        // TYPE=PAGER,WORK,MSG: MSG says nothing to a reader; the page shows "Pager".
        CorpusCase("aosp-v30_pager.vcf",
            contacts: [
                """
                id: G M F
                given: G
                family: F
                additional: M
                phone: (pager,work) 6101231234@pagersample.com
                """,
            ]),
        // SORT-STRING sorts the card; ORG's units are joined.
        CorpusCase("aosp-v30_simple.vcf",
            contacts: [
                """
                id: And Roid
                given: Roid
                family: And
                sort family: android
                organization: Open, Handset, Alliance
                phone: 0300000000
                class: PUBLIC
                """,
            ]),
        CorpusCase("aosp-v30_sip.vcf",
            contacts: [
                """
                id: Android
                given: Android
                """,
            ]),
        // TEL values that are tel: URIs show their number; a sip: URI stays as written.
        CorpusCase("aosp-v40_sip.vcf",
            contacts: [
                """
                id: 安藤 ロイド
                given: ロイド
                family: 安藤
                phone: (home) 1
                phone: (home) sip:example@example.com
                """,
            ]),
        // Apple item1.ADR with item1.X-ABADR (no X-ABLabel): the TYPE gives the label.
        CorpusCase("caldavtester-v30-apple-structured-location.vcf",
            contacts: [
                """
                id: 02F8B516-13BB-4C11-8127-386DBA86D906
                given: Default
                family: Thompson
                phone: (work) 1-555-555-5555
                phone: (cell) 1-444-444-4444
                email: (work) lthompson@example.com
                address: (work) street=1245 Test; code=11111; city=Sesame Street; region=California; country=USA
                """,
            ]),
        CorpusCase("ezvcard-John_Doe_EVOLUTION.vcf",
            contacts: [
                """
                id: 477343c8e6bf375a9bac1f96a5000837
                given: John
                family: Doe
                additional: Richter, James
                salutation: Mr.
                suffix: Sr.
                nickname: Johny
                organization: IBM, Accounting, Dungeon
                title: Money Counter
                phone: (cell) 905-666-1234
                phone: (work) 905-555-1234
                email: (work) john.doe@ibm.com
                address: (home) street=15 Crescent moon drive⏎ASB-123; code=12345; city=Albaney; region=New York; country=United States of America
                url: http://www.ibm.com
                birthday: 1980-03-22
                groups: VIP
                notes: THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTR…
                """,
            ],
            groups: [
                "VIP: VIP",
            ]),
        // No UID: the id is the FN, whose unescaped comma is part of the name (vobject cuts it there).
        CorpusCase("ezvcard-John_Doe_GMAIL.vcf",
            contacts: [
                """
                id: Mr. John Richter, James Doe Sr.
                given: John
                family: Doe
                additional: Richter, James
                salutation: Mr.
                suffix: Sr.
                phonetic given: Jon
                phonetic family: Dow
                organization: IBM
                title: Money Counter
                phone: (cell) 905-555-1234
                phone: (home) 905-666-1234
                email: (home) john.doe@ibm.com
                address: (home) street=Crescent moon drive⏎555-asd⏎Nice Area, Albaney, New York 12345⏎United States of America
                url: (work) http://www.ibm.com
                birthday: 1980-03-22
                notes: THIS SOFTWARE IS PROVIDED BY THE COPYRIGHT HOLDERS AND CONTR…
                """,
            ]),
        // Two BDAYs with ALTID=1 are one birthday; the first ORG and TITLE are used; CATEGORIES:Tag is a group.
        CorpusCase("ezvcard-fullcontact.vcf",
            contacts: [
                """
                id: Prefix FirstName MiddleName LastName Suffix
                given: FirstName
                family: LastName
                additional: MiddleName
                salutation: Prefix
                suffix: Suffix
                nickname: NickName
                organization: Organization1, Department1
                title: Title1
                phone: (home) 555-555-1111
                phone: (work) 555-555-1112
                phone: (cell) 555-555-1113
                phone: (cell) 555-555-1114
                phone: 555-555-1115
                phone: (home,fax) 555-555-1116
                phone: (work,fax) 555-555-1117
                phone: 555-555-1118
                phone: 555-555-1119
                email: (home) home@example.com
                email: (work) work@example.com
                email: (school) school@example.com
                email: (other) other@example.com
                email: (customtype) custom@example.com
                address: (home) street=HomeStreet⏎HomeExtended; code=HomePostal; city=HomeCity; region=HomeState; country=HomeCountry
                address: (work) street=WorkStreet⏎WorkExtended; code=WorkPostal; city=WorkCity; region=WorkState; country=WorkCountry
                address: (other) street=OtherStreet⏎OtherExtended; code=OtherPostal; city=OtherCity; region=OtherState; country=OtherCountry
                address: (customtype) street=CustomStreet⏎CustomExtended; code=CustomPostal; city=CustomCity; region=CustomState; country=CustomCountry
                url: http://www.homepage.com
                url: http://www.blog.com
                url: http://www.other.com
                url: http://www.custom.com
                birthday: 2016-08-01
                groups: Tag
                notes: Notes line 1⏎Notes line 2
                """,
            ],
            groups: [
                "Tag: Tag",
            ]),
        CorpusCase("ezvcard-gmail-list.vcf",
            contacts: [
                """
                id: Arnold Smith
                given: Arnold
                family: Smith
                email: asmithk@gmail.com
                """,
                """
                id: Chris Beatle
                given: Chris
                family: Beatle
                email: chrisy55d@yahoo.com
                """,
                """
                id: Doug White
                given: Doug
                family: White
                email: dwhite@gmail.com
                """,
            ]),
        // item1.X-ABLabel:GRAND_CENTRAL labels item1.TEL; an ADR with everything in one component keeps it.
        CorpusCase("ezvcard-gmail-single.vcf",
            contacts: [
                """
                id: Greg Dartmouth
                given: Greg
                family: Dartmouth
                nickname: Gman
                phonetic given: Grregg
                phonetic family: Dart-mowth
                organization: TheCompany
                title: TheJobTitle
                phone: (cell) 555 555 1111
                phone: (GRAND_CENTRAL) 555 555 2222
                email: gdartmouth@hotmail.com
                address: (home) street=123 Home St⏎Home City, HM 12345
                address: (CustomAdrType) street=321 Custom St; code=98765; city=Custom City; region=TX; country=USA
                url: (PROFILE) http://TheProfile.com
                birthday: 1960-09-10
                notes: This is GMail's note field.⏎It should be added as a NOTE typ…
                """,
            ]),
        // FN without N: the last word is the family name. The ADR is folded before its "CA;" component.
        CorpusCase("ezvcard-rfc2426-example.vcf",
            contacts: [
                """
                id: Frank Dawson
                given: Frank
                family: Dawson
                organization: Lotus Development Corporation
                phone: (work) +1-919-676-9515
                phone: (fax,work) +1-919-676-9564
                email: Frank_Dawson@Lotus.com
                email: fdawson@earthlink.net
                address: (work) street=6544 Battleford Drive; code=27613-3502; city=Raleigh; region=NC; country=U.S.A.
                url: http://home.earthlink.net/~fdawson
                """,
                """
                id: Tim Howes
                given: Tim
                family: Howes
                organization: Netscape Communications Corp.
                phone: (work) +1-415-937-3419
                phone: (fax,work) +1-415-528-4164
                email: howes@netscape.com
                address: (work) street=501 E. Middlefield Rd.; code=94043; city=Mountain View; region=CA; country=U.S.A.
                """,
            ]),
        // BDAY:--0203 has no year; the suffix list "ing. jr,M.Sc." is joined with a comma.
        CorpusCase("ezvcard-rfc6350-example.vcf",
            contacts: [
                """
                id: Simon Perreault
                given: Simon
                family: Perreault
                suffix: ing. jr, M.Sc.
                organization: Viagenie
                phone: (work) +1-418-656-9254;ext=102
                phone: (work,cell) +1-418-262-6501
                email: (work) simon.perreault@viagenie.ca
                address: (work) street=2875 Laurier⏎Suite D2-630; code=G1V 2M2; city=Quebec; region=QC; country=Canada
                url: (home) http://nomis80.org
                birthday: --02-03
                geo: geo:46.772673,-71.282945
                """,
            ]),
        // BDAY as a UTC date-time: its date. UID urn:uuid: is dropped from the id. The bad REV is not read.
        CorpusCase("kcontacts-testfullvcard-v40-sherlock.vcf",
            contacts: [
                """
                id: b8767877-b4a1-4c70-9acc-505d3819e519
                given: Sherlock
                family: Holmes
                salutation: Mr
                nickname: Shirley
                title: Detective
                phone: (home) +44-555-555-5555;ext=5555
                phone: (cell) +44-555-555-6666
                phone: (work) +44-555-555-7777
                email: (home) sherlock.holmes@gmail.com
                email: (work) detective@sherlockholmes.com
                address: street=221B Baker Street; code=NW1; city=London; country=United Kingdom
                url: https://sherlockholmes.com
                birthday: 1953-10-15
                geo: geo:51.5237,0.1585
                groups: FICTION, LITERATURE
                """,
            ],
            groups: [
                "FICTION: FICTION",
                "LITERATURE: LITERATURE",
            ]),
        CorpusCase("kcontacts-vcard1-v30-lowercase-begin.vcf",
            contacts: [
                """
                id: gDVbA6LY3t
                given: Frank
                family: Dawson
                organization: Lotus Development Corporation
                phone: (work) +1-919-676-9515
                phone: (fax,work) +1-919-676-9564
                email: Frank_Dawson@Lotus.com
                email: fdawson@earthlink.net
                address: (work) street=6544 Battleford Drive; code=27613-3502; city=Raleigh; region=NC; country=U.S.A.
                url: http://home.earthlink.net/~fdawson
                """,
            ]),
        CorpusCase("kcontacts-vcard11-v30-evolution-ui-slot.vcf",
            contacts: [
                """
                id: uJTkVqH5Qt
                given: Test
                family: User
                email: (home) thejoe@abc.com
                email: (work) johndoe@abc.com
                class: PUBLIC
                """,
            ]),
        // Two folded base64 PNG photos are skipped.
        CorpusCase("kcontacts-vcard12-v30-two-photos-png.vcf",
            contacts: [
                """
                id: pas-id-54B2522600000001
                given: Good
                family: Looking
                email: (work) goodlooking@example.com
                """,
            ]),
        CorpusCase("kcontacts-vcard13-v30-two-urls.vcf",
            contacts: [
                """
                id: uJTkVqH5Qt
                given: Test
                family: User
                email: (home) thejoe@abc.com
                email: (work) johndoe@abc.com
                url: test1.url
                url: test2.url
                class: PUBLIC
                """,
            ]),
        CorpusCase("kcontacts-vcard2-v30-folded-adr.vcf",
            contacts: [
                """
                id: 1UgvYejJMs
                given: Tim
                family: Howes
                organization: Netscape Communications Corp.
                phone: (work) +1-415-937-3419
                phone: (fax,work) +1-415-528-4164
                email: howes@netscape.com
                address: (work) street=501 E. Middlefield Rd.; code=94043; city=Mountain View; region=CA; country=U.S.A.
                """,
            ]),
        // VERSION as the last property is still found before the card is unfolded.
        CorpusCase("kcontacts-vcard6-v30-version-last.vcf",
            contacts: [
                """
                id: uJTkVqH5Qt
                given: Test
                family: User
                email: email1@abc.de
                email: email2@abc.de
                class: PUBLIC
                """,
            ]),
        // An Apple group card with no FN, N or UID has nothing to call the group by.
        CorpusCase("sabre-apple-group-v30-mailto-members.vcf",
            contacts: [],
            warnings: [
                "sabre-apple-group-v30-mailto-members.vcf:1:1: warning: this group card has no name (FN or N); it is skipped",
            ]),
        // A 350-line base64 photo (bare BASE64 parameter, two-space folding) is skipped.
        CorpusCase("sabre-issue153-v30-photo-german.vcf",
            contacts: [
                """
                id: Test Benutzer
                given: Test
                family: Benutzer
                """,
            ]),
    ]
}
