import Foundation
import Mustache
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckSite
@testable import RolodeckPlan
@testable import RolodeckCore
@testable import RolodeckSearch
@testable import RolodeckLocale

/// docs/templates.md promises to list every key a page receives; this holds it to that.
@Suite struct TemplateDocsTests {
    static let docs = (try? String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/templates.md"),
                                   encoding: .utf8)) ?? ""

    /// Every key name at any depth of a context, with the path to it for messages.
    static func keys(_ value: Any, path: String = "") -> [(name: String, path: String)] {
        if let table = value as? MustacheTable {
            return table.keyNames.flatMap { key -> [(name: String, path: String)] in
                guard let child = table[key], !(path == "" && key == "t") else { return [(key, path + key)] }
                return [(key, path + key)] + keys(child, path: path + key + ".")
            }
        }
        if let dictionary = value as? [String: Any] {
            return dictionary.flatMap { key, child in
                [(key, path + key)] + keys(child, path: path + key + ".")
            }
        }
        if let list = value as? [Any] { return list.flatMap { keys($0, path: path) } }
        return []
    }

    @Test func everyContextKeyIsDocumented() throws {
        let reader = SiteReader(folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "")
        let site = try Site.load(try reader.read().input)
        let directory = Directory(store: site.store, config: site.config)
        let views = ViewBuilder(directory: directory, today: PartialDate(year: 2026, month: 11, day: 30),
                                lastUpdated: PartialDate(year: 2026, month: 11, day: 2),
                                search: SearchIndex(directory: directory))
        let contexts: [(String, MustacheTable)] = [
            ("index", views.indexPage()), ("groups", views.groupsPage()), ("group", views.groupPage(0)),
            ("todos", views.todosPage()), ("not-found", views.notFoundPage()), ("birthdays", views.birthdaysPage()),
        ] + directory.entries.indices.map { ("contact", views.contactPage($0)) }
            + Self.pagedContexts(site)
        #expect(!Self.docs.isEmpty)
        var missing = Set<String>()
        for (page, context) in contexts {
            for (name, path) in Self.keys(context) {
                let documented = Self.docs.contains("`\(name)`") || Self.docs.contains(".\(name)`")
                    || Self.docs.contains("`\(name).") || Self.docs.contains(", `\(name)`")
                if !documented { missing.insert("\(page): \(path)") }
            }
        }
        #expect(missing.isEmpty, "not in docs/templates.md: \(missing.sorted())")
        for key in InterfaceKey.allCases {
            #expect(Self.docs.contains("`t.\(key.rawValue)`"), "t.\(key.rawValue) is not in docs/templates.md")
        }
    }

    /// The contexts of the demo paged by a page size of 3: the index, its first section page
    /// and a long section's second page, a group's page and its first section page, and the
    /// todos' second page.
    static func pagedContexts(_ site: Site) -> [(String, MustacheTable)] {
        var config = site.config
        config.pageSize = 3
        let directory = Directory(store: site.store, config: config)
        let views = ViewBuilder(directory: directory, today: PartialDate(year: 2026, month: 11, day: 30),
                                search: SearchIndex(directory: directory))
        let group = directory.groups.firstIndex { $0.memberCount > 3 }!
        let long = views.paging.index.pages.firstIndex { $0.part == 2 }!
        return [
            ("index", views.indexPage()), ("section", views.sectionPage(0)), ("section", views.sectionPage(long)),
            ("group", views.groupPage(group)), ("section", views.groupSectionPage(group, 0)),
            ("todos", views.todosPage(1)), ("birthdays", views.birthdaysPage(1)),
        ]
    }

    @Test func everyRowKeyAnswers() {
        let data = RowData(id: "a", name: "A", lang: "ko", path: "contacts/a.html", salutation: "Dr.",
                           organization: "O", title: "T", phone: MustacheTable(["display": "1"]),
                           email: MustacheTable(["address": "a@b"]), thumbnail: "photos/a-96.webp")
        let row = ContactRow(data: data, root: "../").table
        for key in ContactRow.keys.names {
            #expect(row[key] != nil, "\(key)")
        }
        #expect(row["href"] as? String == "../contacts/a.html")
        #expect(row["nope"] == nil)
    }

    @Test func everyContactViewKeyAnswers() {
        var view = ContactView()
        view.salutation = "Dr."
        view.nickname = "Al"
        view.organization = "O"
        view.title = "T"
        view.birthday = MustacheTable(["display": "March 5"])
        view.age = "42"
        view.geo = MustacheTable(["display": "1, 2"])
        view.groups = []
        view.notesHTML = Array("<p>n</p>".utf8)
        view.qr = MustacheTable(["size": 29, "path": "M4 4h1v1h-1z"])
        view.photo = MustacheTable(["src": "../photos/a.jpg"])
        let table = view.table
        for key in ContactView.keys.names {
            #expect(table[key] != nil, "\(key)")
        }
        #expect(table["hasGroups"] as? Bool == false)
        for key in ["t", "tel", "site", "nope", String(repeating: "x", count: 70)] {
            #expect(table[key] == nil, "\(key)")
        }
        #expect(ContactView().table["salutation"] == nil)
        #expect(ContactView().table.keyNames.count == ContactView.keys.names.count - 12)
    }
}
