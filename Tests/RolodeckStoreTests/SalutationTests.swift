import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckCore
@testable import RolodeckStore

/// A store may keep its salutations as records of their own, in `salutations.json` or
/// `salutations/*.json`, which contacts name by id (`{"id": "herr"}`); a salutation written as
/// text keeps working beside them.
@Suite struct SalutationTests {
    static func decode(contacts: String, salutations: String) -> (store: Store, diagnostics: [String]) {
        let (store, diagnostics) = StoreDecoder.decode([
            StoreFile(
                kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", text: contacts)
            ),
            StoreFile(
                kind: .salutation, layout: .list,
                source: SourceText(path: "store/salutations.json", text: salutations)),
        ])
        return (store, diagnostics.map(\.description))
    }

    static let salutations = """
        [{"id": "herr", "text": "Herr"},
         {"id": "frau", "text": "Frau"},
         {"id": "dr", "text": "Dr."}]
        """

    @Test func contactsNameSalutationRecordsOrWriteTheirOwn() {
        let (store, diagnostics) = Self.decode(
            contacts: """
                [{"id": "a", "givenName": "A", "salutation": {"id": "frau"}},
                 {"id": "b", "givenName": "B", "salutation": "Prof. Dr."},
                 {"id": "c", "givenName": "C", "salutation": {"id": "dr"}},
                 {"id": "d", "givenName": "D"},
                 {"id": "e", "givenName": "E", "salutation": null}]
                """,
            salutations: Self.salutations)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(store.contacts.map(\.salutation) == ["Frau", "Prof. Dr.", "Dr.", "", ""])
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var contacts: String
        var salutations = SalutationTests.salutations
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "an id close to one that exists",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"id": "hrr"}}]"#,
            expected: [
                #"store/contacts.json:1:53: error: contact "a" names salutation "hrr", which does not exist; "#
                    + #"did you mean "herr"?"#
            ]),
        Case(
            name: "an id like none that exists",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"id": "madame"}}]"#,
            expected: [
                #"store/contacts.json:1:53: error: contact "a" names salutation "madame", which does not exist"#
            ]),
        Case(
            name: "no salutation records at all",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"id": "herr"}}]"#, salutations: "[]",
            expected: [
                #"store/contacts.json:1:53: error: contact "a" names salutation "herr", which does not exist"#
            ]),
        Case(
            name: "an object without an id",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"ID": "herr"}}]"#,
            expected: [
                #"store/contacts.json:1:46: error: this salutation names no "id"; write the salutation as text "#
                    + #"("Frau"), or name one of the store's salutations by its id ({"id": "frau"})"#,
                #"store/contacts.json:1:47: warning: unknown field "ID" of a contact; did you mean "id"?"#,
            ]),
        Case(
            name: "an id that is not text",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"id": 7}}]"#,
            expected: [#"store/contacts.json:1:53: error: "id" must be a string, not a number"#]),
        Case(
            name: "a salutation that is neither text nor an object",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": ["Herr"]}]"#,
            expected: [
                #"store/contacts.json:1:46: error: "salutation" must be text or {"id": …}, not an array"#
            ]),
        Case(
            name: "a salutation record without text, named by a contact",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"id": "herr"}}]"#,
            salutations: #"[{"id": "herr", "txt": "Herr"}]"#,
            expected: [
                #"store/salutations.json:1:2: error: salutation "herr" has no "text""#,
                #"store/salutations.json:1:17: warning: unknown field "txt" of a salutation; did you mean "text"?"#,
            ]),
        Case(
            name: "a salutation record named by its name",
            contacts: "[]", salutations: #"[{"id": "herr", "name": "Herr"}]"#,
            expected: [
                #"store/salutations.json:1:2: error: salutation "herr" has no "text""#,
                #"store/salutations.json:1:17: warning: unknown field "name" of a salutation; did you mean "text"?"#,
            ]),
        Case(
            name: "a salutations file that does not parse",
            contacts: #"[{"id": "a", "givenName": "A", "salutation": {"id": "herr"}}]"#,
            salutations: #"[{"id": "herr", "text": "Herr"} {"id": "frau"}]"#,
            expected: [#"store/salutations.json:1:33: error: unexpected '{' after the end of the JSON value"#]
        ),
        Case(
            name: "a duplicate salutation id",
            contacts: "[]",
            salutations: #"[{"id": "herr", "text": "Herr"},"# + "\n" + #" {"id": "herr", "text": "Hr."}]"#,
            expected: [
                #"store/salutations.json:2:9: error: duplicate salutation id "herr"; "#
                    + "it is already used at store/salutations.json:1:9"
            ]),
    ]

    @Test(arguments: cases)
    func whatIsWrongWithASalutationIsSaidWhere(_ testCase: Case) {
        #expect(
            Self.decode(contacts: testCase.contacts, salutations: testCase.salutations).diagnostics
                == testCase.expected)
    }

    /// `salutations.json` and a folder of one record per file are both read from a site.
    @Test func aSiteReadsItsSalutationsFromTheListAndTheFolder() throws {
        let folder = try Fixtures.temporaryFolder()
        let store = folder.appendingPathComponent("store")
        try FileManager.default.createDirectory(
            at: store.appendingPathComponent("salutations"), withIntermediateDirectories: true)
        let files = [
            "contacts.json": """
            [{"id": "a", "givenName": "A", "salutation": {"id": "herr"}},
             {"id": "b", "givenName": "B", "salutation": {"id": "dr"}}]
            """,
            "salutations.json": #"[{"id": "herr", "text": "Herr"}]"#,
            "salutations/dr.json": #"{"id": "dr", "text": "Dr."}"#,
        ]
        for (path, text) in files { try Data(text.utf8).write(to: store.appendingPathComponent(path)) }
        let (input, _) = try SiteReader(folder: folder, displayPath: "site").read()
        #expect(
            input.storeFiles.map(\.source.path) == [
                "site/store/contacts.json", "site/store/salutations.json", "site/store/salutations/dr.json",
            ])
        let (decoded, diagnostics) = StoreDecoder.decode(input.storeFiles)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(decoded.contacts.map(\.salutation) == ["Herr", "Dr."])
    }

    /// Watch decodes again only what changed: a contact that names a salutation takes the
    /// record's new text, though the contact's own file is taken from the cache.
    @Test func aCachedContactTakesTheNewTextOfItsSalutation() {
        let cache = StoreDecodeCache()
        let contacts = StoreFile(
            kind: .contact, layout: .list,
            source: SourceText(
                path: "store/contacts.json",
                text: #"[{"id": "a", "givenName": "A", "salutation": {"id": "dr"}}]"#))
        func decode(_ salutations: String) -> [String] {
            let file = StoreFile(
                kind: .salutation, layout: .list,
                source: SourceText(path: "store/salutations.json", text: salutations))
            return StoreDecoder.decode([contacts, file], cache: cache).store.contacts.map(\.salutation)
        }
        #expect(decode(#"[{"id": "dr", "text": "Dr."}]"#) == ["Dr."])
        #expect(decode(#"[{"id": "dr", "text": "Doctor"}]"#) == ["Doctor"])
        #expect(cache.takeDecodedCount() == 3)
    }
}
