import Testing
import Mustache
@testable import RolodeckSite

/// Tables whose values are written beside their keys: each key answers with its own value.
@Suite struct TableFieldsTests {
    /// A view whose every text field holds its own key's name, and whose lists have lengths
    /// (and so flags) that tell them apart.
    static func namedView() -> ContactView {
        var view = ContactView()
        view.id = "id"
        view.name = "name"
        view.lang = "lang"
        view.givenName = "givenName"
        view.familyName = "familyName"
        view.additionalNames = "additionalNames"
        view.suffix = "suffix"
        view.isOrganization = true
        view.monogram = "monogram"
        view.phoneticName = "phoneticName"
        view.salutation = "salutation"
        view.nickname = "nickname"
        view.organization = "organization"
        view.title = "title"
        view.phones = [MustacheTable([:])]
        view.addresses = [MustacheTable([:]), MustacheTable([:])]
        view.urls = []
        view.emails = []
        view.birthday = MustacheTable(["display": "birthday"])
        view.groups = [MustacheTable([:]), MustacheTable([:]), MustacheTable([:])]
        view.notesHTML = Array("notesHTML".utf8)
        return view
    }

    @Test func everyContactKeyAnswersWithItsOwnValue() throws {
        let table = Self.namedView().table
        let texts = [
            "id", "name", "lang", "givenName", "familyName", "additionalNames", "suffix", "monogram",
            "phoneticName", "salutation", "nickname", "organization", "title",
        ]
        for key in texts {
            #expect(table[key] as? String == key, "\(key)")
        }
        #expect(table["notesHTML"] as? String == "notesHTML")
        #expect((table["birthday"] as? MustacheTable)?["display"] as? String == "birthday")
        let lists = ["phones": 1, "emails": 0, "addresses": 2, "urls": 0, "groups": 3]
        for (key, count) in lists {
            #expect((table[key] as? [MustacheTable])?.count == count, "\(key)")
        }
        let flags = [
            "isOrganization": true, "hasPhones": true, "hasEmails": false, "hasAddresses": true,
            "hasURLs": false, "hasGroups": true,
        ]
        for (key, flag) in flags {
            #expect(table[key] as? Bool == flag, "\(key)")
        }
        // Every key is one of those checked above.
        let checked = texts + ["notesHTML", "birthday"] + lists.keys + flags.keys
        #expect(Set(ContactView.keys.names) == Set(checked))
    }

    @Test func everyRowKeyAnswersWithItsOwnValue() {
        let data = RowData(
            id: "id", name: "name", lang: "lang", path: "href", salutation: "salutation",
            organization: "organization", title: "title", phone: MustacheTable(["display": "phone"]),
            email: MustacheTable(["display": "email"]))
        let table = ContactRow(data: data, root: "").table
        for key in ContactRow.keys.names {
            let value = table[key] as? String ?? (table[key] as? MustacheTable)?["display"] as? String
            #expect(value == key, "\(key)")
        }
    }

    @Test func aPageKnowsItsKind() {
        let table = PageInfo(kind: "group").table(title: "Family")
        #expect(table.keyNames == ["kind", "title", "isGroup"])
        #expect(table["kind"] as? String == "group")
        #expect(table["title"] as? String == "Family")
        #expect(table["isGroup"] as? Bool == true)
    }

    @Test func keysComeFromTheFieldsInOrderWithoutMakingTheirValues() {
        var made = 0
        func value() -> MustacheValue {
            made += 1
            return .absent
        }
        let keys = MustacheTable.Keys.of { field in [field("b", value()), field("a", value())] }
        #expect(keys.names == ["b", "a"])
        #expect(made == 0)
        let table = MustacheTable(keys: keys) { field in [field("b", .int(2)), field("a", .int(1))] }
        #expect(table["a"] as? Int == 1)
        #expect(table["b"] as? Int == 2)
    }

    #if DEBUG
        @Test func aValueBesideAnotherKeyStopsADebugBuild() async {
            await #expect(processExitsWith: .failure) {
                let keys = MustacheTable.Keys(["a", "b"])
                _ = MustacheTable(keys: keys) { field in [field("b", .int(2)), field("a", .int(1))] }
            }
        }
    #endif
}
