import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// A file that does not parse is reported by its syntax error, first, and by nothing made up:
/// references into the kind of record it holds are not checked, since what they name may be in
/// the text that could not be read.
@Suite struct UnreadReferenceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var contacts = "[]"
        var groups = "[]"
        var todos = "[]"
        /// The diagnostics, exactly, in the order they are reported.
        var expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "a group that does not parse, named by contacts after another error",
            contacts: """
                [{"id": "a", "givenName": "A", "groups": ["friends"], "birthday": "1990-02-30"},
                 {"id": "b", "givenName": "B", "groups": ["friends", "family"]}]
                """,
            groups: """
                [{"id": "family", "name": "Family"},
                 {"id": "friends", "name": }]
                """,
            expected: [
                "store/groups.json:2:28: error: unexpected '}'; expected a value",
                #"store/contacts.json:1:67: error: birthday "1990-02-30" is not a date: February 1990 has 28 days"#,
            ]),
        Case(
            name: "a groups file that does not parse as a whole",
            contacts: #"[{"id": "a", "givenName": "A", "groups": ["friends"]}]"#,
            groups: #"[{"id": "friends", "name": "Friends"} {"id": "x"}"#,
            expected: ["store/groups.json:1:39: error: unexpected '{'; expected ',' or ']'"]),
        Case(
            name: "a groups file whose top level is not an array",
            contacts: #"[{"id": "a", "givenName": "A", "groups": ["friends"]}]"#,
            groups: #"{"id": "friends", "name": "Friends"}"#,
            expected: ["store/groups.json:1:1: error: expected an array of groups here, found an object"]),
        Case(
            name: "a contact that does not parse, named by a todo",
            contacts: #"[{"id": "a", "givenName": "A"}, {"id": "b" "givenName": "B"}]"#,
            todos: #"[{"id": "t", "title": "Call B", "contact": "b"}]"#,
            expected: [#"store/contacts.json:1:44: error: unexpected '"'; expected ',' or '}'"#]),
        Case(
            name: "a todo that does not parse, the parent of another",
            todos: #"[{"id": "p", "title": "Plan",}, {"id": "s", "title": "Step", "parent": "p"}]"#,
            expected: [
                "store/todos.json:1:30: error: a comma before '}' is not allowed in JSON; remove the trailing comma"
            ]),
        Case(
            name: "a group left out for a reason of its own",
            contacts: #"[{"id": "a", "givenName": "A", "groups": ["friends"]}]"#,
            groups: #"[{"id": "friends"}]"#,
            expected: [#"store/groups.json:1:2: error: group "friends" has no "name""#]),
        Case(
            name: "a todo left out for a reason of its own, the parent of another",
            todos: #"[{"id": "p"}, {"id": "s", "title": "Step", "parent": "p"}]"#,
            expected: [#"store/todos.json:1:2: error: todo "p" has no "title""#]),
        Case(
            name: "syntax errors of every file first, in reading order",
            contacts: #"[{"id": "a", "givenName": 1}, {"id": "b",, "givenName": "B"}]"#,
            todos: #"[{"id": "t", "title": "T", "due": "soon"}, {"title": "U",}]"#,
            expected: [
                "store/contacts.json:1:42: error: unexpected ','; object keys must be strings in double quotes",
                "store/todos.json:1:58: error: a comma before '}' is not allowed in JSON; remove the trailing comma",
                #"store/contacts.json:1:2: error: contact "a" has no name; give at least one of givenName, "#
                    + "familyName, nickname or organization",
                #"store/contacts.json:1:27: error: "givenName" must be a string, not a number"#,
                #"store/todos.json:1:35: error: due "soon" is not a date; write YYYY-MM-DD or YYYY-MM-DDTHH:MM"#,
            ]),
    ]

    @Test(arguments: cases)
    func onlyTheSyntaxErrorSpeaksForWhatDidNotParse(_ testCase: Case) {
        let (_, diagnostics) = StoreDecoderTests.decode(
            contacts: testCase.contacts, groups: testCase.groups, todos: testCase.todos)
        #expect(diagnostics.map(\.description) == testCase.expected)
        // The build's error carries them in the same order.
        #expect(DiagnosticError(diagnostics).diagnostics.map(\.description) == testCase.expected)
    }

    /// What is known to exist is still checked when another kind did not parse.
    @Test func referencesIntoKindsThatParsedAreStillChecked() {
        let (_, diagnostics) = StoreDecoderTests.decode(
            contacts: #"[{"id": "a", "givenName": "A"}]"#, groups: "[{",
            todos: #"[{"id": "t", "title": "Call", "contact": "ghost"}]"#)
        #expect(
            diagnostics.map(\.description) == [
                "store/groups.json:1:3: error: the file ends too early; expected a key in double quotes",
                #"store/todos.json:1:42: error: todo "t" refers to contact "ghost", which does not exist"#,
            ])
    }
}
