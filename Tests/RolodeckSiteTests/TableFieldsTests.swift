import Testing
import Mustache
@testable import RolodeckSite

/// Tables whose values are written beside their keys: each key answers with its own value.
@Suite struct TableFieldsTests {
    @Test func everyContactKeyAnswersWithItsOwnValue() throws {
        // Every text field holds its own key's name; the lists' lengths (and so the flags) differ.
        let texts: [(WritableKeyPath<ContactView, String>, String)] = [
            (\.id, "id"), (\.name, "name"), (\.lang, "lang"), (\.givenName, "givenName"),
            (\.familyName, "familyName"), (\.additionalNames, "additionalNames"), (\.suffix, "suffix"),
            (\.monogram, "monogram"), (\.phoneticName, "phoneticName"), (\.vcard, "vcard"),
        ]
        let optionalTexts: [(WritableKeyPath<ContactView, String?>, String)] = [
            (\.salutation, "salutation"), (\.nickname, "nickname"), (\.organization, "organization"),
            (\.title, "title"), (\.age, "age"),
        ]
        var view = ContactView()
        for (field, key) in texts { view[keyPath: field] = key }
        for (field, key) in optionalTexts { view[keyPath: field] = key }
        view.isOrganization = true
        view.phones = [MustacheTable([:])]
        view.addresses = [MustacheTable([:]), MustacheTable([:])]
        view.groups = [MustacheTable([:]), MustacheTable([:]), MustacheTable([:])]
        view.birthday = MustacheTable(["display": "birthday"])
        view.geo = MustacheTable(["display": "geo"])
        view.notesHTML = Array("notesHTML".utf8)
        view.qr = MustacheTable(["path": "qr"])
        view.photo = MustacheTable(["src": "photo"])

        let table = view.table
        let textKeys = texts.map(\.1) + optionalTexts.map(\.1)
        for key in textKeys {
            #expect(table[key] as? String == key, "\(key)")
        }
        #expect(table["notesHTML"] as? String == "notesHTML")
        #expect((table["birthday"] as? MustacheTable)?["display"] as? String == "birthday")
        #expect((table["geo"] as? MustacheTable)?["display"] as? String == "geo")
        #expect((table["qr"] as? MustacheTable)?["path"] as? String == "qr")
        #expect((table["photo"] as? MustacheTable)?["src"] as? String == "photo")
        let lists = ["phones": 1, "emails": 0, "addresses": 2, "urls": 0, "groups": 3]
        for (key, count) in lists {
            #expect((table[key] as? [MustacheTable])?.count == count, "\(key)")
        }
        let flags = [
            "isOrganization": true, "hasPhones": true, "hasEmails": false, "hasAddresses": true,
            "hasURLs": false, "hasGroups": true, "hasPlaces": true,
        ]
        for (key, flag) in flags {
            #expect(table[key] as? Bool == flag, "\(key)")
        }
        // Every key is one of those checked above.
        let checked = textKeys + ["notesHTML", "birthday", "geo", "qr", "photo"] + lists.keys + flags.keys
        #expect(Set(ContactView.keys.names) == Set(checked))
    }

    @Test func everyRowKeyAnswersWithItsOwnValue() {
        let data = RowData(
            id: "id", name: "name", lang: "lang", path: "href", salutation: "salutation",
            organization: "organization", title: "title", phone: MustacheTable(["display": "phone"]),
            email: MustacheTable(["display": "email"]), thumbnail: "thumbnail", monogram: "monogram",
            isOrganization: true)
        let table = ContactRow(data: data, root: "").table
        #expect(table["isOrganization"] as? Bool == true)
        for key in ContactRow.keys.names where key != "isOrganization" {
            let value =
                table[key] as? String ?? (table[key] as? MustacheTable)?["display"] as? String
                ?? (table[key] as? MustacheTable)?["src"] as? String
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
