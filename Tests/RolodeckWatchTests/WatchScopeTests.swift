import Foundation
import Testing
@testable import RolodeckWatch

/// Which changes the watcher passes on: what `SiteReader` reads, and nothing else.
@Suite struct WatchScopeTests {
    static let scope = WatchScope(
        siteFolder: URL(fileURLWithPath: "/s/site"), store: "store", output: "/s/site/_site")

    struct Case: Sendable, CustomTestStringConvertible {
        var folder: String
        var name: String
        var isFolder = false
        var relevant: Bool
        var testDescription: String { "\(folder)/\(name)" }
    }

    static let cases: [Case] = [
        Case(folder: "/s/site", name: "rolodeck.json", relevant: true),
        Case(folder: "/s/site", name: "store", isFolder: true, relevant: true),
        Case(folder: "/s/site", name: "Templates", isFolder: true, relevant: true),
        Case(folder: "/s/site", name: "Public", isFolder: true, relevant: true),
        Case(folder: "/s/site", name: "README.md", relevant: false),
        Case(folder: "/s/site", name: "_site", isFolder: true, relevant: false),
        Case(folder: "/s/site", name: "._site.rolodeck-staging-12", isFolder: true, relevant: false),
        Case(folder: "/s/site/store", name: "contacts.json", relevant: true),
        Case(folder: "/s/site/store", name: "contacts.json.tmp", relevant: false),
        Case(folder: "/s/site/store", name: ".contacts.json.swp", relevant: false),
        Case(folder: "/s/site/store", name: "contacts.json~", relevant: false),
        Case(folder: "/s/site/store", name: "4913", relevant: false),
        Case(folder: "/s/site/store", name: "notes.txt", relevant: false),
        Case(folder: "/s/site/store", name: "work", isFolder: true, relevant: true),
        Case(folder: "/s/site/store", name: ".git", isFolder: true, relevant: false),
        Case(folder: "/s/site/store/work", name: "ann.VCF", relevant: true),
        Case(folder: "/s/site/store/work", name: "ann.vcard", relevant: true),
        Case(folder: "/s/site/store/tasks", name: "call.ics", relevant: true),
        Case(folder: "/s/site/store/tasks", name: "displayname", relevant: true),
        Case(folder: "/s/site/store/tasks", name: "color", relevant: false),
        Case(folder: "/s/site/store/.git/objects", name: "ab.json", relevant: false),
        // Photo files are read whatever their names; editors' leftovers beside them are not.
        Case(folder: "/s/site/store/photos", name: "ada.jpg", relevant: true),
        Case(folder: "/s/site/store/photos/team", name: "IMG_0001", relevant: true),
        Case(folder: "/s/site/store/photos", name: "ada.jpg~", relevant: false),
        Case(folder: "/s/site/store/work", name: "ada.jpg", relevant: false),
        Case(folder: "/s/site/Templates", name: "contact.mustache", relevant: true),
        Case(folder: "/s/site/Public/img", name: "logo.svg", relevant: true),
        Case(folder: "/s/site/_site", name: "index.html", relevant: false),
        Case(folder: "/s/other", name: "contacts.json", relevant: false),
    ]

    @Test(arguments: cases)
    func relevance(_ test: Case) {
        #expect(Self.scope.isRelevant(test.name, in: test.folder, isFolder: test.isFolder) == test.relevant)
    }

    @Test func treesAreTheStoreTemplatesAndPublic() {
        #expect(Self.scope.trees == ["/s/site/store", "/s/site/Templates", "/s/site/Public"])
        // A store that is the site folder covers the other two; the output inside it is left out.
        let whole = WatchScope(
            siteFolder: URL(fileURLWithPath: "/s/site"), store: ".", output: "/s/site/_site")
        #expect(whole.trees == ["/s/site"])
        #expect(whole.isRelevant("contacts.json", in: "/s/site", isFolder: false))
        #expect(!whole.isWatched(folder: "/s/site/_site"))
        #expect(!whole.isRelevant("index.html", in: "/s/site/_site/contacts", isFolder: false))
        // A store outside the site folder, named with `..`.
        let outside = WatchScope(
            siteFolder: URL(fileURLWithPath: "/s/site/"), store: "../shared//store/", output: nil)
        #expect(outside.trees == ["/s/shared/store", "/s/site/Templates", "/s/site/Public"])
        #expect(outside.isRelevant("a.vcf", in: "/s/shared/store/book", isFolder: false))
        // One named by an absolute path, as the config may name it.
        let absolute = WatchScope(
            siteFolder: URL(fileURLWithPath: "/s/site"), store: "/home/ann/contacts", output: nil)
        #expect(absolute.trees == ["/home/ann/contacts", "/s/site/Templates", "/s/site/Public"])
        #expect(absolute.isRelevant("a.vcf", in: "/home/ann/contacts/book", isFolder: false))
        #expect(!absolute.isRelevant("contacts.json", in: "/s/site/store", isFolder: false))
    }
}
