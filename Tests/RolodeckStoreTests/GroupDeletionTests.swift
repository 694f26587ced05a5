import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// A group deleted while contacts still name it (one tap in a groups app) does not stop the
/// build: each contact that names it is warned about by name, with the group it probably meant
/// when one is close, and is left out of it.
@Suite struct GroupDeletionTests {
    static let contacts = """
        [{"id": "ann", "givenName": "Ann", "groups": ["chess", "family"]},
         {"id": "bo", "givenName": "Bo", "groups": ["famliy"]},
         {"id": "cy", "givenName": "Cy", "groups": ["chess", "friends"]}]
        """

    @Test func aContactInAGroupThatIsGoneIsLeftOutOfItWithAWarning() {
        let (store, diagnostics) = StoreDecoderTests.decode(
            contacts: Self.contacts,
            groups: #"[{"id": "family", "name": "Family"}, {"id": "friends", "name": "Friends"}]"#)
        #expect(
            diagnostics.map(\.description) == [
                #"store/contacts.json:1:47: warning: contact "ann" is left out of group "chess", which does not exist"#,
                #"store/contacts.json:2:45: warning: contact "bo" is left out of group "famliy", which does not exist; "#
                    + #"did you mean "family"?"#,
                #"store/contacts.json:3:45: warning: contact "cy" is left out of group "chess", which does not exist"#,
            ])
        #expect(store.contacts.map(\.groupIDs) == [["family"], [], ["friends"]])
    }

    /// With no groups at all, every membership goes, and the store is still usable.
    @Test func everyGroupGone() {
        let (store, diagnostics) = StoreDecoderTests.decode(contacts: Self.contacts)
        #expect(diagnostics.count == 5)
        #expect(diagnostics.allSatisfy { $0.severity == .warning && !$0.message.contains("did you mean") })
        #expect(store.contacts.allSatisfy { $0.groupIDs.isEmpty })
    }
}

/// An unknown field is a warning that names the field the record probably meant: by the names
/// other tools use for it, or by a near-miss in spelling.
@Suite struct FieldSuggestionTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var contacts = "[]"
        var groups = "[]"
        var todos = "[]"
        var expected: String
        var testDescription: String { expected }
    }

    static let cases: [Case] = [
        Case(
            contacts: #"[{"id": "a", "givenName": "A", "phoneNumber": ["+49 30 1234"]}]"#,
            expected:
                #"store/contacts.json:1:32: warning: unknown field "phoneNumber" of a contact; did you mean "phones"?"#
        ),
        Case(
            contacts: #"[{"id": "a", "givenName": "A", "e_mail": ["a@example.com"]}]"#,
            expected:
                #"store/contacts.json:1:32: warning: unknown field "e_mail" of a contact; did you mean "emails"?"#
        ),
        Case(
            contacts: #"[{"id": "a", "givenName": "A", "dateOfBirth": "1990-01-01"}]"#,
            expected:
                #"store/contacts.json:1:32: warning: unknown field "dateOfBirth" of a contact; did you mean "birthday"?"#
        ),
        Case(
            contacts: #"[{"id": "a", "givenName": "A", "category": ["x"]}]"#,
            expected:
                #"store/contacts.json:1:32: warning: unknown field "category" of a contact; did you mean "groups"?"#
        ),
        Case(
            contacts: #"[{"id": "a", "givenName": "A", "nickame": "Al"}]"#,
            expected:
                #"store/contacts.json:1:32: warning: unknown field "nickame" of a contact; did you mean "nickname"?"#
        ),
        Case(
            contacts: #"[{"id": "a", "givenName": "A", "addresses": [{"city": "Berlin", "zip": "10115"}]}]"#,
            expected:
                #"store/contacts.json:1:65: warning: unknown field "zip" of a contact; did you mean "postalCode"?"#
        ),
        Case(
            groups: #"[{"id": "g", "name": "G", "title": "Golf"}]"#,
            expected:
                #"store/groups.json:1:27: warning: unknown field "title" of a group; did you mean "name"?"#),
        Case(
            todos: #"[{"id": "t", "title": "T", "name": "Call"}]"#,
            expected:
                #"store/todos.json:1:28: warning: unknown field "name" of a todo; did you mean "title"?"#),
        Case(
            todos: #"[{"id": "t", "title": "T", "category": ["home"]}]"#,
            expected:
                #"store/todos.json:1:28: warning: unknown field "category" of a todo; did you mean "categories"?"#
        ),
        Case(
            todos: #"[{"id": "t", "title": "T", "shoeSize": 42}]"#,
            expected: #"store/todos.json:1:28: warning: unknown field "shoeSize" of a todo; it is ignored"#),
    ]

    @Test(arguments: cases)
    func anUnknownFieldNamesTheFieldItProbablyMeant(_ testCase: Case) {
        let (_, diagnostics) = StoreDecoderTests.decode(
            contacts: testCase.contacts, groups: testCase.groups, todos: testCase.todos)
        #expect(diagnostics.map(\.description) == [testCase.expected])
    }
}
