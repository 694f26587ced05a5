import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// A contact may give its age as a number, for when no birthday (or no birth year) is known;
/// beside a birthday with a year, which gives the age on every build's day, it is ignored.
@Suite struct AgeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var contact: String
        var age: Int?
        var diagnostics: [String] = []
        var testDescription: String { contact }
    }

    static let cases: [Case] = [
        Case(contact: #"{"id": "a", "givenName": "A", "age": 42}"#, age: 42),
        Case(contact: #"{"id": "a", "givenName": "A", "age": 0}"#, age: 0),
        Case(contact: #"{"id": "a", "givenName": "A", "age": 150}"#, age: 150),
        Case(contact: #"{"id": "a", "givenName": "A", "age": 4.2e1}"#, age: 42),
        Case(contact: #"{"id": "a", "givenName": "A", "age": null}"#, age: nil),
        Case(contact: #"{"id": "a", "givenName": "A", "birthday": "--03-05", "age": 42}"#, age: 42),
        // Whichever comes first in the object.
        Case(contact: #"{"id": "a", "age": 42, "givenName": "A", "birthday": "--03-05"}"#, age: 42),
        Case(
            contact: #"{"id": "a", "givenName": "A", "birthday": "1983-03-05", "age": 42}"#, age: nil,
            diagnostics: [
                #"store/contacts.json:1:65: warning: contact "a" has a birthday with a year, which gives the age; "age" is ignored"#
            ]),
        Case(
            contact: #"{"id": "a", "age": 42, "givenName": "A", "birthday": "1983-03-05"}"#, age: nil,
            diagnostics: [
                #"store/contacts.json:1:21: warning: contact "a" has a birthday with a year, which gives the age; "age" is ignored"#
            ]),
        Case(
            contact: #"{"id": "a", "givenName": "A", "age": 42.5}"#, age: nil,
            diagnostics: ["store/contacts.json:1:39: error: age 42.5 is not a whole number from 0 to 150"]),
        Case(
            contact: #"{"id": "a", "givenName": "A", "age": -1}"#, age: nil,
            diagnostics: ["store/contacts.json:1:39: error: age -1 is not a whole number from 0 to 150"]),
        Case(
            contact: #"{"id": "a", "givenName": "A", "age": 151}"#, age: nil,
            diagnostics: ["store/contacts.json:1:39: error: age 151 is not a whole number from 0 to 150"]),
        Case(
            contact: #"{"id": "a", "givenName": "A", "age": "42"}"#, age: nil,
            diagnostics: [#"store/contacts.json:1:39: error: "age" must be a number, not a string"#]),
    ]

    @Test(arguments: cases)
    func theAgeIsReadAsGivenWhenNoBirthYearGivesIt(_ testCase: Case) {
        let (store, diagnostics) = StoreDecoderTests.decode(contacts: "[" + testCase.contact + "]")
        #expect(diagnostics.map(\.description) == testCase.diagnostics)
        #expect(store.contacts.first?.age == testCase.age)
    }

    /// The age is part of the contact, so watch sees an edit of it as a change of the contact.
    @Test func contactsThatDifferOnlyInTheirAgeDiffer() {
        var older = Contact(id: "a")
        older.age = 43
        var younger = Contact(id: "a")
        younger.age = 42
        #expect(older != younger)
    }
}
