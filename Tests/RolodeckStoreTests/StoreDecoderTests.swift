import Testing
@testable import RolodeckCore
@testable import RolodeckStore

@Suite struct StoreDecoderTests {
    static func decode(contacts: String = "[]", groups: String = "[]", todos: String = "[]")
        -> (store: Store, diagnostics: [Diagnostic]) {
        StoreDecoder.decode([
            StoreFile(kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", text: contacts)),
            StoreFile(kind: .group, layout: .list, source: SourceText(path: "store/groups.json", text: groups)),
            StoreFile(kind: .todo, layout: .list, source: SourceText(path: "store/todos.json", text: todos)),
        ])
    }

    /// References are checked in blocks on every core; the unknown ones are still reported
    /// each once, in the order they are written, also across blocks.
    @Test func unknownReferencesOfManyRecordsComeInOrder() throws {
        let count = 10_000
        let missing: Set<Int> = [0, 4_095, 4_096, 4_097, 8_191, 9_999]
        let contacts = (0..<count).map { index in
            let group = missing.contains(index) ? "gone-\(index)" : "club"
            return "{\"id\": \"c\(index)\", \"givenName\": \"C\", \"groups\": [\"club\", \"\(group)\"]}"
        }
        let list = "[\n" + contacts.joined(separator: ",\n") + "\n]"
        let (_, all) = Self.decode(contacts: list, groups: #"[{"id": "club", "name": "Club"}]"#)
        let diagnostics = all.filter { $0.message.contains("which does not exist") }
        let named = diagnostics.map(\.message)
        #expect(named.count == missing.count)
        let expected = missing.sorted().map { "contact \"c\($0)\" is left out of group \"gone-\($0)\"" }
        #expect(zip(named, expected).allSatisfy { $0.hasPrefix($1) }, "\(named)")
        #expect(diagnostics.map(\.location?.line) == missing.sorted().map { $0 + 2 })
    }

    /// `"private": true` marks a contact, a group or a todo as a `CLASS:PRIVATE` would; false
    /// and null leave it unmarked.
    @Test func aPrivateMarkIsReadAsAClassification() {
        let (store, diagnostics) = Self.decode(
            contacts: #"[{"id": "a", "givenName": "A", "private": true},"#
                + #" {"id": "b", "givenName": "B", "private": false}, {"id": "c", "givenName": "C", "private": null}]"#,
            groups: #"[{"id": "g", "name": "G", "private": true}, {"id": "h", "name": "H"}]"#,
            todos: #"[{"id": "t", "title": "T", "private": true},"# + #" {"id": "u", "title": "U", "private": false}]"#)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(store.contacts.map(\.classification) == ["PRIVATE", nil, nil])
        #expect(store.groups.map(\.classification) == ["PRIVATE", nil])
        #expect(store.todos.map(\.classification) == ["PRIVATE", nil])
    }

    @Test func readsEveryField() throws {
        let contacts = """
            [{
              "id": "mueller-juergen",
              "salutation": "Herr",
              "givenName": "Jürgen",
              "familyName": "Müller",
              "additionalNames": "Karl",
              "suffix": "Jr.",
              "nickname": "Jü",
              "phoneticGivenName": "Yürgen",
              "phoneticFamilyName": "Mueller",
              "organization": "Müller & Söhne GmbH",
              "title": "Geschäftsführer",
              "emails": [{"label": "work", "value": "j@firma.example"}, "j@home.example"],
              "phones": [{"label": "mobile", "value": "+49 151 1234567"}],
              "addresses": [{"label": "work", "street": "Hauptstraße 5", "postalCode": "10115",
                             "city": "Berlin", "region": "BE", "country": "Germany"}],
              "urls": [{"label": "homepage", "value": "https://firma.example"}],
              "birthday": "1970-02-28",
              "groups": ["work"],
              "notes": "**Kunde** seit 2001"
            },
            {"id": "no-year", "givenName": "Ann", "birthday": "--02-29", "organization": null}]
            """
        let groups = #"[{"id": "work", "name": "Work", "notes": "The *team*"}]"#
        let todos = """
            [{"id": "t2", "title": "Call Jürgen", "done": true, "due": "2026-12-01T09:30", "priority": "high",
              "contact": "mueller-juergen", "notes": "ask about **invoice**"},
             {"id": "t1", "title": "Plain", "priority": 5, "due": "2027-01-31", "parent": "t2",
              "categories": ["home", "calls", "home"]}]
            """
        let (store, diagnostics) = Self.decode(contacts: contacts, groups: groups, todos: todos)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let contact = try #require(store.contacts.first)
        var expected = Contact(id: "mueller-juergen")
        expected.salutation = "Herr"
        expected.givenName = "Jürgen"
        expected.familyName = "Müller"
        expected.additionalNames = "Karl"
        expected.suffix = "Jr."
        expected.nickname = "Jü"
        expected.phoneticGivenName = "Yürgen"
        expected.phoneticFamilyName = "Mueller"
        expected.organization = "Müller & Söhne GmbH"
        expected.title = "Geschäftsführer"
        expected.emails = [LabeledValue(label: "work", value: "j@firma.example"),
                           LabeledValue(label: "", value: "j@home.example")]
        expected.phones = [LabeledValue(label: "mobile", value: "+49 151 1234567")]
        expected.addresses = [PostalAddress(label: "work", street: "Hauptstraße 5", postalCode: "10115",
                                            city: "Berlin", region: "BE", country: "Germany")]
        expected.urls = [LabeledValue(label: "homepage", value: "https://firma.example")]
        expected.birthday = PartialDate(year: 1970, month: 2, day: 28)
        expected.groupIDs = ["work"]
        expected.notes = "**Kunde** seit 2001"
        #expect(contact == expected)
        #expect(store.contacts[1].birthday == PartialDate(year: nil, month: 2, day: 29))
        #expect(store.groups == [Group(id: "work", name: "Work", notes: "The *team*")])
        #expect(store.todos.map(\.id) == ["t2", "t1"])
        let todo = store.todos[0]
        #expect(todo.title == "Call Jürgen")
        #expect(todo.done)
        #expect(todo.due == DueDate(date: PartialDate(year: 2026, month: 12, day: 1), hour: 9, minute: 30))
        #expect(todo.priority == .high)
        #expect(todo.contactID == "mueller-juergen")
        #expect(todo.notes == "ask about **invoice**")
        #expect(store.todos[1].priority == .medium)
        #expect(store.todos[1].parentID == "t2")
        #expect(store.todos[1].categories == ["home", "calls"])
        #expect(store.todos[0].parentID == nil)
        #expect(store.todos[1].done == false)
    }

    struct BadInput: CustomTestStringConvertible, Sendable {
        var name: String
        var contacts = "[]"
        var groups = "[]"
        var todos = "[]"
        var expected: [String]
        var testDescription: String { name }
    }

    static let badInputs: [BadInput] = [
        BadInput(name: "malformed JSON", contacts: "[\n  {\"id\": \"a\" \"givenName\": \"A\"}\n]",
                 expected: ["store/contacts.json:2:14: error: unexpected '\"'; expected ',' or '}'"]),
        BadInput(name: "wrong type", contacts: "[{\"id\": \"a\", \"givenName\": 42, \"phones\": \"0101234\"}]",
                 expected: [
                    "store/contacts.json:1:27: error: \"givenName\" must be a string, not a number",
                    "store/contacts.json:1:41: error: \"phones\" must be an array, not a string",
                    "store/contacts.json:1:2: error: contact \"a\" has no name; give at least one of givenName, familyName, nickname or organization",
                 ]),
        BadInput(name: "missing id", contacts: "[\n {\"givenName\": \"Ann\"}]",
                 expected: ["store/contacts.json:2:2: error: this contact has no \"id\"; every contact needs a unique id"]),
        BadInput(name: "empty id", groups: "[{\"id\": \" \", \"name\": \"X\"}]",
                 expected: ["store/groups.json:1:9: error: the group's \"id\" is empty; every group needs a unique id"]),
        BadInput(name: "id of the wrong type", todos: "[{\"id\": 7, \"title\": \"x\"}]",
                 expected: ["store/todos.json:1:9: error: \"id\" must be a string, not a number"]),
        BadInput(name: "duplicate id", contacts: "[{\"id\": \"a\", \"givenName\": \"A\"},\n {\"id\": \"a\", \"givenName\": \"B\"}]",
                 expected: ["store/contacts.json:2:9: error: duplicate contact id \"a\"; it is already used at store/contacts.json:1:9"]),
        BadInput(name: "an id used three times",
                 groups: #"[{"id": "g", "name": "G"},"# + "\n" + #" {"id": "g", "name": "H"},"# + "\n"
                    + #" {"id": "g", "name": "I"}]"#,
                 expected: [2, 3].map {
                     "store/groups.json:\($0):9: error: duplicate group id \"g\"; "
                         + "it is already used at store/groups.json:1:9"
                 }),
        BadInput(name: "no name at all", contacts: "[{\"id\": \"nobody\", \"givenName\": \"  \", \"emails\": [\"x@example.com\"]}]",
                 expected: ["store/contacts.json:1:2: error: contact \"nobody\" has no name; give at least one of givenName, familyName, nickname or organization"]),
        BadInput(name: "unknown group", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"groups\": [\"family\", \"fmaily\"]}]",
                 groups: "[{\"id\": \"family\", \"name\": \"Family\"}]",
                 expected: ["store/contacts.json:1:53: warning: contact \"a\" is left out of group \"fmaily\", which does not exist; did you mean \"family\"?"]),
        BadInput(name: "unknown contact", todos: "[{\"id\": \"t\", \"title\": \"Call\", \"contact\": \"ghost\"}]",
                 expected: ["store/todos.json:1:42: error: todo \"t\" refers to contact \"ghost\", which does not exist"]),
        BadInput(name: "unknown parent", todos: "[{\"id\": \"t\", \"title\": \"Call\", \"parent\": \"ghost\"}]",
                 expected: ["store/todos.json:1:41: error: todo \"t\" is a subtask of \"ghost\", which does not exist"]),
        BadInput(name: "subtask loop", todos: "[{\"id\": \"a\", \"title\": \"A\", \"parent\": \"b\"},\n {\"id\": \"b\", \"title\": \"B\", \"parent\": \"a\"}]",
                 expected: [
                    "store/todos.json:1:38: error: todo \"a\" is, through \"parent\", a subtask of itself",
                    "store/todos.json:2:38: error: todo \"b\" is, through \"parent\", a subtask of itself",
                 ]),
        BadInput(name: "impossible date", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"birthday\": \"1990-02-30\"}]",
                 expected: ["store/contacts.json:1:44: error: birthday \"1990-02-30\" is not a date: February 1990 has 28 days"]),
        BadInput(name: "malformed date", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"birthday\": \"30.02.1990\"}]",
                 expected: ["store/contacts.json:1:44: error: birthday \"30.02.1990\" is not a date; write YYYY-MM-DD, or --MM-DD when the year is unknown"]),
        BadInput(name: "impossible due date", todos: "[{\"id\": \"t\", \"title\": \"x\", \"due\": \"2026-13-01\"}]",
                 expected: ["store/todos.json:1:35: error: due \"2026-13-01\" is not a date: there is no month 13"]),
        BadInput(name: "bad priority", todos: "[{\"id\": \"t\", \"title\": \"x\", \"priority\": \"urgent\"}]",
                 expected: ["store/todos.json:1:40: error: priority \"urgent\" is not one of \"high\", \"medium\", \"low\" or a number from 0 to 9"]),
        BadInput(name: "todo without title", todos: "[{\"id\": \"t\", \"done\": \"yes\"}]",
                 expected: [
                    "store/todos.json:1:2: error: todo \"t\" has no \"title\"",
                    "store/todos.json:1:22: error: \"done\" must be true or false, not a string",
                 ]),
        BadInput(name: "a private mark that is not true or false", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"private\": \"yes\"}]",
                 expected: ["store/contacts.json:1:43: error: \"private\" must be true or false, not a string"]),
        BadInput(name: "a field that may mean private is an error: the record would be published",
                 contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"privat\": true}, {\"id\": \"b\", \"givenName\": \"B\", \"hidden\": true}]",
                 groups: "[{\"id\": \"g\", \"name\": \"G\", \"Private\": true}]",
                 todos: "[{\"id\": \"t\", \"title\": \"T\", \"secret\": true}]",
                 expected: [
                    "store/contacts.json:1:32: error: unknown field \"privat\" of a contact; did you mean \"private\"? (the contact would be published)",
                    "store/contacts.json:1:79: error: unknown field \"hidden\" of a contact; did you mean \"private\"? (the contact would be published)",
                    "store/groups.json:1:27: error: unknown field \"Private\" of a group; did you mean \"private\"? (the group would be published)",
                    "store/todos.json:1:28: error: unknown field \"secret\" of a todo; did you mean \"private\"? (the todo would be published)",
                 ]),
        BadInput(name: "unknown fields are warnings", contacts: "[{\"id\": \"a\", \"firstName\": \"A\", \"familyName\": \"B\", \"shoeSize\": 42}]",
                 expected: [
                    "store/contacts.json:1:14: warning: unknown field \"firstName\" of a contact; did you mean \"givenName\"?",
                    "store/contacts.json:1:51: warning: unknown field \"shoeSize\" of a contact; it is ignored",
                 ]),
        BadInput(name: "top level not an array", groups: "{\"id\": \"g\"}",
                 expected: ["store/groups.json:1:1: error: expected an array of groups here, found an object"]),
        BadInput(name: "repeated key", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"givenName\": \"B\"}]",
                 expected: ["store/contacts.json:1:32: error: \"givenName\" appears twice in this object; the first is at store/contacts.json:1:14"]),
        BadInput(name: "repeated key, once escaped", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"given\\u004eame\": \"B\"}]",
                 expected: ["store/contacts.json:1:32: error: \"givenName\" appears twice in this object; the first is at store/contacts.json:1:14"]),
        BadInput(name: "repeated unknown key, in another normalization", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"caf\u{E9}\": 1, \"cafe\u{301}\": 2}]",
                 expected: [
                    "store/contacts.json:1:32: warning: unknown field \"caf\u{E9}\" of a contact; it is ignored",
                    "store/contacts.json:1:43: error: \"cafe\u{301}\" appears twice in this object; the first is at store/contacts.json:1:32",
                    "store/contacts.json:1:43: warning: unknown field \"cafe\u{301}\" of a contact; it is ignored",
                 ]),
        // A record's id is known only once all its members are read; the last one counts.
        BadInput(name: "repeated id, the last one a string",
                 contacts: #"[{"id": 5, "givenName": "A", "id": "a"}]"#,
                 expected: [#"store/contacts.json:1:30: error: "id" appears twice in this object; "#
                    + "the first is at store/contacts.json:1:3"]),
        BadInput(name: "repeated id, the last one not a string",
                 contacts: #"[{"id": "a", "givenName": "A", "id": [1]}]"#,
                 expected: [
                    #"store/contacts.json:1:32: error: "id" appears twice in this object; "#
                        + "the first is at store/contacts.json:1:3",
                    #"store/contacts.json:1:38: error: "id" must be a string, not an array"#,
                 ]),
        // A record is decoded as it is parsed; what it reported is dropped when it does not parse.
        BadInput(name: "problems before a syntax error in the same record",
                 contacts: #"[{"givenName": 1, "x": [tru]}]"#,
                 expected: ["store/contacts.json:1:25: error: unexpected 'tru'; expected a value "
                    + "(strings need double quotes; the literals are true, false and null)"]),
        BadInput(name: "labelled values of every wrong kind",
                 contacts: #"[{"id": "a", "givenName": "A", "emails": [1, null, {"label": "x"}, "#
                    + #"{"value": 2, "valeu": ""}, "b"]}]"#,
                 expected: [
                    #"store/contacts.json:1:43: error: "emails" must be an array of {"label", "value"} "#
                        + "objects, not an array containing a number",
                    #"store/contacts.json:1:52: error: this entry of "emails" has no "value""#,
                    #"store/contacts.json:1:78: error: "value" must be a string, not a number"#,
                    #"store/contacts.json:1:81: warning: unknown field "valeu" of a contact; "#
                        + #"did you mean "value"?"#,
                 ]),
        BadInput(name: "an address that is not an object",
                 contacts: #"[{"id": "a", "givenName": "A", "addresses": [null, "Main St"]}]"#,
                 expected: [#"store/contacts.json:1:52: error: "addresses" must be an array of address "#
                    + "objects, not an array containing a string"]),
        BadInput(name: "repeated key in an address", contacts: "[{\"id\": \"a\", \"givenName\": \"A\", \"addresses\": [{\"city\": \"X\", \"type\": \"home\", \"city\": \"Y\"}]}]",
                 expected: ["store/contacts.json:1:76: error: \"city\" appears twice in this object; the first is at store/contacts.json:1:47"]),
    ]

    @Test(arguments: badInputs)
    func badInputIsReportedWithItsLocation(_ input: BadInput) {
        let (_, diagnostics) = Self.decode(contacts: input.contacts, groups: input.groups, todos: input.todos)
        #expect(diagnostics.map(\.description) == input.expected.sortedByLocationText())
    }

    /// A group listed again is kept once and reported at each repeat, both in a short list
    /// (compared with the groups kept) and in a long one (hashed).
    @Test(arguments: [3, 40])
    func repeatedGroupsAreKeptOnce(count: Int) {
        let ids = (0..<count).map { "g\($0)" }
        let listed = ids + ["g1", "g0", "g1"]
        let groups = "[" + ids.map { "{\"id\": \"\($0)\", \"name\": \"\($0)\"}" }.joined(separator: ",") + "]"
        let contacts = "[{\"id\": \"a\", \"givenName\": \"A\", \"groups\": ["
            + listed.map { "\"\($0)\"" }.joined(separator: ",") + "]}]"
        let (store, diagnostics) = Self.decode(contacts: contacts, groups: groups)
        #expect(store.contacts.first?.groupIDs == ids)
        let repeatsStart = contacts.utf8.count - 17
        func repeated(_ group: String, at offset: Int) -> String {
            "store/contacts.json:1:\(repeatsStart + offset): warning: contact \"a\" lists group \"\(group)\" "
                + "more than once"
        }
        #expect(diagnostics.map(\.description) == [
            repeated("g1", at: 1), repeated("g0", at: 6), repeated("g1", at: 11),
        ])
    }

    @Test func invalidUTF8IsReportedAndTheRestStillRead() {
        let bytes = Array("[{\"id\": \"a\", \"givenName\": \"J".utf8) + [0xFC] + Array("rgen\"}]".utf8)
        let (store, diagnostics) = StoreDecoder.decode([
            StoreFile(kind: .contact, layout: .list, source: SourceText(path: "c.json", bytes: bytes)),
        ])
        #expect(diagnostics.map(\.description) == [
            "c.json:1:29: error: invalid UTF-8 (byte 0xFC); the store must be saved as UTF-8",
        ])
        #expect(store.contacts.first?.givenName == "J\u{FFFD}rgen")
    }

    /// A file of one record is checked for bytes that are not UTF-8 as its strings are made,
    /// not in a pass of its own: wherever the byte is (a field's value, a member no field reads,
    /// deep in one, a key, after an escape), it is reported where it is; a file with a leading
    /// BOM and only UTF-8 has no error.
    @Test(arguments: [
        (#"{"id": "a", "givenName": "J"#, #"rgen"}"#),
        (#"{"id": "a", "mood": "gl"#, #"ad"}"#),
        (#"{"id": "a", "extra": {"deep": [1, "x"#, #""]}}"#),
        (#"{"id": "a", "giv"#, #"enName": "J"}"#),
        (#"{"id": "a", "notes": "x\ny"#, #""}"#),
    ])
    func invalidUTF8InAFileOfOneRecordIsReported(before: String, after: String) {
        let bytes = Array(before.utf8) + [0xFC] + Array(after.utf8)
        let (_, diagnostics) = StoreDecoder.decode([
            StoreFile(kind: .contact, layout: .single, source: SourceText(path: "c.json", bytes: bytes)),
        ])
        let expected = "c.json:1:\(before.utf8.count + 1): error: invalid UTF-8 (byte 0xFC); "
            + "the store must be saved as UTF-8"
        #expect(diagnostics.map(\.description).filter { $0.contains("UTF-8") } == [expected])
        let valid = [0xEF, 0xBB, 0xBF] + Array(#"{"id": "a", "givenName": "Jürgen"}"#.utf8)
        let (store, clean) = StoreDecoder.decode([
            StoreFile(kind: .contact, layout: .single, source: SourceText(path: "c.json", bytes: valid)),
        ])
        #expect(clean.isEmpty)
        #expect(store.contacts.first?.givenName == "Jürgen")
    }

    @Test func invalidUTF8AfterAnEscapeOrBetweenRecordsIsReported() {
        let bytes = Array("[{\"id\": \"a\", \"givenName\": \"A\", \"notes\": \"x\\ny".utf8) + [0xE9]
            + Array("\"},\n ".utf8) + [0xFF] + Array(", {\"id\": \"b\", \"givenName\": \"B\"}]".utf8)
        let (store, diagnostics) = StoreDecoder.decode([
            StoreFile(kind: .contact, layout: .list, source: SourceText(path: "c.json", bytes: bytes)),
        ])
        // The syntax error first: what could not be read may explain the rest.
        #expect(diagnostics.map(\.description) == [
            "c.json:2:2: error: unexpected byte 0xFF; expected a value",
            "c.json:1:46: error: invalid UTF-8 (byte 0xE9); the store must be saved as UTF-8",
            "c.json:2:2: error: invalid UTF-8 (byte 0xFF); the store must be saved as UTF-8",
        ])
        #expect(store.contacts.map(\.notes) == ["x\ny\u{FFFD}", ""])
    }

    @Test func keysWithEscapesNameTheirFields() {
        let (store, diagnostics) = Self.decode(
            contacts: #"[{"\u0069d": "a", "given\u004eame": "Ann", "emails": [{"l\u0061bel": "work", "value": "a@x.example"}]}]"#)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(store.contacts.map(\.givenName) == ["Ann"])
        #expect(store.contacts.first?.emails == [LabeledValue(label: "work", value: "a@x.example")])
    }

    @Test func everyProblemIsCollectedBeforeFailing() {
        let contacts = """
            [{"id": "a"},
             {"id": "b", "givenName": "B", "birthday": "2001-02-29"},
             {"givenName": "C"}]
            """
        let (_, diagnostics) = Self.decode(contacts: contacts, todos: "[{\"id\": \"t\"}]")
        #expect(diagnostics.count == 4)
        #expect(diagnostics.allSatisfy { $0.severity == .error })
    }

    @Test func aMalformedRecordDoesNotHideTheProblemsOfTheOthers() {
        let contacts = """
            [{"id": "a", "givenName": "A" "familyName": "B"},
             {"id": "b", "givenName": "B", "birthday": "2001-02-29"},
             {"id": "c", "givenName": "C"}]
            """
        let (store, diagnostics) = Self.decode(contacts: contacts)
        #expect(diagnostics.map(\.description) == [
            "store/contacts.json:1:31: error: unexpected '\"'; expected ',' or '}'",
            "store/contacts.json:2:44: error: birthday \"2001-02-29\" is not a date: February 2001 has 28 days",
        ])
        #expect(store.contacts.map(\.id) == ["b", "c"])
    }

    struct PiecesCase: Sendable, CustomTestStringConvertible {
        var label: String
        var json: String
        /// Whether the list parses in pieces (else it is split and parsed element by element).
        var inPieces: Bool
        var ids: [String]
        /// The diagnostics, when they are not those of the same array read as a single file.
        var diagnostics: [String]?
        var testDescription: String { label }
    }

    static let piecesCases = [
        PiecesCase(label: "one per line", json: """
            [
            {"id": "a", "givenName": "A", "groups": ["g"]},
            {"id": "b", "givenName": "B", "birthday": "2001-02-29"},
            {"id": "a", "givenName": "A again"},
            {"id": "c", "givenName": "C", "colour": "red"},
            {"id": "d"}
            ]
            """, inPieces: true, ids: ["a", "b", "c", "d"]),
        PiecesCase(
            label: "one line, as JSON.stringify writes it",
            json: #"[{"id": "a", "givenName": "A", "groups": ["g"]}, {"id": "b", "givenName": "B", "birthday": "2001-02-29"}, {"id": "a", "givenName": "A again"}, {"id": "c", "givenName": "C", "colour": "red"}, {"id": "d"}]"#,
            inPieces: true, ids: ["a", "b", "c", "d"]),
        PiecesCase(
            label: "one line, a nested object in a list begins as the elements do",
            json: #"[{"id": "a", "givenName": "A"}, {"id": "b", "givenName": "B", "addresses": [{"id": "x"}, {"id": "y"}]}, {"id": "c", "givenName": "C"}]"#,
            inPieces: false, ids: ["a", "b", "c"]),
        PiecesCase(label: "a nested object starts a line", json: """
            [
            {"id": "a", "givenName": "A", "addresses": [
            {"city": "X"},
            {"city": "Y"}]},
            {"id": "b", "givenName": "B"}
            ]
            """, inPieces: false, ids: ["a", "b"]),
        PiecesCase(label: "a syntax error", json: """
            [
            {"id": "a", "givenName": "A"},
            {"id": "b", "givenName": "B" "familyName": "C"},
            {"id": "c", "givenName": "C"}
            ]
            """, inPieces: false, ids: ["a", "c"],
            diagnostics: ["c.json:3:30: error: unexpected '\"'; expected ',' or '}'"]),
    ]

    /// A list parsed in pieces from guessed starts yields what the list split element by element
    /// yields, problems and their order included; a guess that is not an element's start (here an
    /// address on a line of its own, whose piece runs into the end of the addresses) or a syntax
    /// error makes it give up, and the split is used.
    @Test(arguments: piecesCases)
    func listsParsedInPiecesYieldWhatTheSplitYields(_ testCase: PiecesCase) throws {
        let source = SourceText(path: "c.json", text: testCase.json)
        let file = StoreFile(kind: .contact, layout: .list, source: source)
        var inPieces = StoreDecoder()
        let accepted = inPieces.acceptInPieces(file, pieceLength: 1)
        #expect(accepted == testCase.inPieces)
        var split = StoreDecoder()
        if testCase.inPieces {
            split.accept(StoreDecoder.records(of: file), of: file)
        }
        // Accepted in the same order, with the same problems in the same order (or nothing).
        #expect(inPieces.store.contacts == split.store.contacts)
        #expect(inPieces.diagnostics.map(\.description) == split.diagnostics.map(\.description))
        #expect(inPieces.contactIDs.mapValues(\.location) == split.contactIDs.mapValues(\.location))

        let (store, diagnostics) = StoreDecoder.decode([file])
        #expect(store.contacts.map(\.id) == testCase.ids)
        if let expected = testCase.diagnostics {
            #expect(diagnostics.map(\.description) == expected)
        } else {
            // A single file holding an array is parsed whole, neither split nor in pieces.
            let single = StoreFile(kind: .contact, layout: .single, source: file.source)
            let (singleStore, singleDiagnostics) = StoreDecoder.decode([single])
            #expect(store.contacts == singleStore.contacts)
            #expect(diagnostics.map(\.description) == singleDiagnostics.map(\.description))
            #expect(diagnostics.count >= (testCase.inPieces ? 5 : 0))
        }
    }

    /// Bytes that are not UTF-8 in a list read in pieces are reported where the split list
    /// reports them: before the problems of its records.
    @Test func invalidUTF8InAListReadInPiecesIsReportedAsWhenSplit() {
        let bytes = Array("[\n{\"id\": \"a\", \"givenName\": \"J".utf8) + [0xFC]
            + Array("rgen\", \"birthday\": \"1990-02-30\"},\n{\"id\": \"b\"}\n]".utf8)
        let file = StoreFile(kind: .contact, layout: .list, source: SourceText(path: "c.json", bytes: bytes))
        var inPieces = StoreDecoder()
        let accepted = inPieces.acceptInPieces(file, pieceLength: 1)
        #expect(accepted)
        var split = StoreDecoder()
        split.accept(StoreDecoder.records(of: file), of: file)
        #expect(inPieces.diagnostics.map(\.description) == split.diagnostics.map(\.description))
        #expect(inPieces.diagnostics.first?.description
            == "c.json:2:28: error: invalid UTF-8 (byte 0xFC); the store must be saved as UTF-8")
        #expect(inPieces.diagnostics.count == 3)
        #expect(inPieces.store.contacts.map(\.givenName) == ["J\u{FFFD}rgen", ""])
    }

    @Test func singleRecordFilesAreRead() {
        let (store, diagnostics) = StoreDecoder.decode([
            StoreFile(kind: .contact, layout: .single,
                      source: SourceText(path: "store/contacts/kim.json", text: #"{"id": "kim", "familyName": "김"}"#)),
            StoreFile(kind: .contact, layout: .single,
                      source: SourceText(path: "store/contacts/lee.json", text: #"{"id": "lee", "familyName": "이"}"#)),
        ])
        #expect(diagnostics.isEmpty)
        #expect(store.contacts.map(\.familyName) == ["김", "이"])
    }
}

extension Array where Element == String {
    /// The expected lines in the order the decoder prints them (by file, line, column).
    func sortedByLocationText() -> [String] {
        sorted { lhs, rhs in
            func key(_ line: String) -> (String, Int, Int) {
                let parts = line.split(separator: ":", maxSplits: 3)
                return (String(parts[0]), Int(parts[1]) ?? 0, Int(parts[2]) ?? 0)
            }
            return key(lhs) < key(rhs)
        }
    }
}
