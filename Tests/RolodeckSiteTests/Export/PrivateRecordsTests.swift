import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// What a contact's, a group's or a todo's app marks private (`CLASS` other than `PUBLIC`, or
/// `"private": true` in the JSON store) is in no file of the site, unless the config publishes
/// it: each private record holds words found nowhere else, and every output file is searched
/// for all of them.
@Suite struct PrivateRecordsTests {
    static func card(_ lines: String...) -> String {
        (["BEGIN:VCARD", "VERSION:3.0"] + lines + ["END:VCARD"]).joined(separator: "\r\n") + "\r\n"
    }

    /// Ann is public; Bob private, Cat confidential (written in small letters), Dan marked with a
    /// class Rolodeck does not know, Eve a JSON contact marked private; all five in the club. Ann
    /// is in two private groups as well: a group card's, which lists her, and a JSON group's,
    /// which her categories name. Of the todos, the party is private, and with it its subtask
    /// and that one's subtask, and so is a JSON todo; the milk is not, nor a todo linked to Bob.
    /// Bob's photo, a PNG in his card.
    static let photo = (try? Fixtures.photo("face.png")) ?? []

    static let store: [StoreFile] = [
        .vCard(
            SourceText(
                path: "store/book/ann.vcf",
                text: card(
                    "UID:ann", "FN:Ann Lee", "N:Lee;Ann;;;", "CLASS:PUBLIC", "CATEGORIES:Club,Xhushclub"))),
        .vCard(
            SourceText(
                path: "store/book/secret.vcf",
                text: card(
                    "UID:xsecret", "X-ADDRESSBOOKSERVER-KIND:group", "FN:Xsecretname", "CLASS:PRIVATE",
                    "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:ann", "NOTE:Xsecretnote"))),
        StoreFile(
            kind: .contact, layout: .single,
            source: SourceText(
                path: "store/contacts/xeve.json",
                text: #"{"id": "xeve", "givenName": "Xevegiven", "groups": ["Club"], "private": true}"#)),
        StoreFile(
            kind: .group, layout: .list,
            source: SourceText(
                path: "store/groups.json",
                text: #"[{"id": "Club", "name": "Club"},"#
                    + #" {"id": "xhush", "name": "Xhushclub", "private": true}]"#)),
        StoreFile(
            kind: .todo, layout: .list,
            source: SourceText(
                path: "store/todos.json",
                text: #"[{"id": "xjsontodo", "title": "Xjsontitle", "private": true},"#
                    + #" {"id": "call", "title": "Call back", "contact": "xbob"}]"#)),
        .vCard(
            SourceText(
                path: "store/book/bob.vcf",
                text: card(
                    "UID:xbob", "FN:Xbobgiven Xbobfamily", "N:Xbobfamily;Xbobgiven;;;", "CLASS:PRIVATE",
                    "TEL:+1 555 0100 4242", "EMAIL:xbobmail@example.com", "BDAY:1911-11-11",
                    "CATEGORIES:Club", "NOTE:Xbobnote",
                    "PHOTO;ENCODING=b;TYPE=PNG:" + Data(photo).base64EncodedString()))),
        .vCard(
            SourceText(
                path: "store/book/cat.vcf",
                text: card(
                    "UID:xcat", "FN:Xcatgiven Kim", "N:Kim;Xcatgiven;;;", "class:confidential",
                    "CATEGORIES:Club"))),
        .vCard(
            SourceText(
                path: "store/book/dan.vcf",
                text: card(
                    "UID:xdan", "FN:Xdangiven Park", "N:Park;Xdangiven;;;", "CLASS:X-FAMILY",
                    "CATEGORIES:Club"))),
        .iCalendar(
            SourceText(
                path: "store/tasks/todos.ics",
                text: [
                    "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Rolodeck tests//EN",
                    "BEGIN:VTODO", "UID:milk", "SUMMARY:Buy milk", "END:VTODO",
                    "BEGIN:VTODO", "UID:xparty", "SUMMARY:Xpartysummary", "CLASS:PRIVATE", "END:VTODO",
                    "BEGIN:VTODO", "UID:xcake", "SUMMARY:Xcakesummary", "RELATED-TO:xparty", "END:VTODO",
                    "BEGIN:VTODO", "UID:xbaker", "SUMMARY:Xbakersummary", "RELATED-TO:xcake", "END:VTODO",
                    "END:VCALENDAR",
                ].joined(separator: "\r\n") + "\r\n"),
            collection: ""),
    ]

    /// The private words, as they would be written somewhere (the phone's digits in any form).
    static let privateWords = [
        "Xbobgiven", "Xbobfamily", "xbobmail", "0100", "1911", "Xbobnote", "xbob", "Xcatgiven", "xcat",
        "Xdangiven", "xdan", "Xpartysummary", "xparty", "Xcakesummary", "xcake", "Xbakersummary", "xbaker",
        "Xevegiven", "xeve", "Xsecretname", "Xsecretnote", "xsecret", "Xhushclub", "xhush", "Xjsontitle", "xjsontodo",
    ]

    static func load(_ config: SiteConfig) throws -> Site {
        try Site.load(SiteInput(config: config, storeFiles: store))
    }

    static func render(_ site: Site) throws -> [String: [UInt8]] {
        try site.renderFiles(today: PartialDate(year: 2026, month: 1, day: 1))
    }

    /// Where the private words are written in `files`, as "path: word".
    static func leaks(in files: [String: [UInt8]]) -> [String] {
        var leaks: [String] = []
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let text = String(decoding: bytes, as: UTF8.self).lowercased()
            let digits = text.filter(\.isNumber)
            for word in privateWords {
                let key = word.lowercased()
                if text.contains(key) || (key.allSatisfy(\.isNumber) && digits.contains("555" + key)) {
                    leaks.append("\(path): \(word)")
                }
            }
        }
        return leaks
    }

    @Test func privateContactsGroupsAndTodosAreInNoFile() throws {
        let site = try Self.load(SiteConfig())
        #expect(site.privateRecords == PrivateRecords(contacts: 4, groups: 2, todos: 4))
        #expect(site.hiddenContactCount == 0)
        #expect(site.store.groups.map(\.id) == ["Club"])
        #expect(site.store.contacts.map(\.groupIDs) == [["Club"], ["Club"], ["Club"], ["Club"], ["Club"]])
        let files = try Self.render(site)
        #expect(files["contacts/ann.html"] != nil)
        let groupFiles = files.keys.filter { $0.hasPrefix("groups/") }.sorted()
        #expect(groupFiles == ["groups/club.html", "groups/club.vcf"])
        #expect(String(decoding: files["todos.html"] ?? [], as: UTF8.self).contains("Buy milk"))
        let leaks = Self.leaks(in: files)
        #expect(leaks.isEmpty, "private data in the output:\n\(leaks.joined(separator: "\n"))")
        // Nor Bob's photo: no contact the site shows has one.
        #expect(!files.keys.contains { $0.hasPrefix("photos/") }, "\(files.keys.sorted())")
    }

    /// With `publishPrivate` every word is there: the search above can find them.
    @Test func theConfigPublishesThemWhenAsked() throws {
        var config = SiteConfig()
        config.publishPrivate = true
        let site = try Self.load(config)
        #expect(site.privateRecords == PrivateRecords())
        let files = try Self.render(site)
        let all = files.values.map { String(decoding: $0, as: UTF8.self).lowercased() }.joined()
        for word in Self.privateWords {
            #expect(
                all.contains(word.lowercased()) || all.filter(\.isNumber).contains("555" + word), "\(word)")
        }
        #expect(files["contacts/xbob.html"] != nil && files["contacts/xdan.vcf"] != nil)
        #expect(
            files.keys.filter { $0.hasPrefix("groups/") }.sorted() == [
                "groups/club.html", "groups/club.vcf", "groups/xhush.html", "groups/xhush.vcf",
                "groups/xsecret.html", "groups/xsecret.vcf",
            ])
        #expect(!Self.photo.isEmpty && files.keys.filter { $0.hasPrefix("photos/") }.count == 2)
    }

    /// A private contact the config hides by id too is counted once, as hidden; a misspelt
    /// hidden id is not said to be one typo from a private contact, which is not published.
    @Test func aPrivateContactHiddenByIdIsCountedOnceAsHidden() throws {
        var config = SiteConfig()
        config.hiddenContacts = ["xbob", "ann"]
        let site = try Self.load(config)
        #expect(site.hiddenContactCount == 2)
        #expect(site.privateRecords == PrivateRecords(contacts: 3, groups: 2, todos: 4))
        config.hiddenContacts = ["xcatt"]
        let warnings = try Self.load(config).warnings.map(\.description)
        #expect(
            warnings == [#"warning: hiddenContacts names "xcatt", which is not in the store"#], "\(warnings)")
    }

    @Test func onlyPublicOrNoClassIsPublic() {
        #expect(!AccessClass.isPrivate(nil) && !AccessClass.isPrivate("PUBLIC"))
        for value in ["PRIVATE", "CONFIDENTIAL", "X-FAMILY", "PUBLIC-ISH"] {
            #expect(AccessClass.isPrivate(value), "\(value)")
        }
    }
}
