import Testing
@testable import RolodeckCore
@testable import RolodeckSite
@testable import RolodeckStore

/// What the config hides is in no file of the site: not in a page, a vCard, a QR code or the
/// search index. Every hideable field of one contact holds a word found nowhere else, and a
/// hidden contact has words of its own; every output file is searched for all of them.
@Suite struct HiddenDataExportTests {
    static let store = [
        StoreFile(
            kind: .contact, layout: .list,
            source: SourceText(
                path: "store/contacts.json",
                text: """
                    [{"id": "ann", "salutation": "Xsalutation", "givenName": "Ann", "familyName": "Lee",
                      "nickname": "Xnickname", "organization": "Xorganization", "title": "Xtitle",
                      "emails": [{"label": "work", "value": "xemail@example.com"}],
                      "phones": [{"label": "mobile", "value": "+1 555 0199 7777"}],
                      "addresses": [{"label": "home", "street": "Xstreet 1", "city": "Xcity"}],
                      "urls": [{"label": "blog", "value": "https://qzurl.example"}],
                      "birthday": "1911-11-11", "groups": ["xgroup"], "notes": "Xnotes"},
                     {"id": "xhidden", "givenName": "Xhiddengiven", "familyName": "Xhiddenfamily",
                      "phones": [{"label": "home", "value": "+1 555 0100 4242"}], "groups": ["open"]},
                     {"id": "bo", "givenName": "Bo", "familyName": "Kim", "groups": ["open"]}]
                    """)),
        StoreFile(
            kind: .group, layout: .list,
            source: SourceText(
                path: "store/groups.json",
                text: """
                    [{"id": "xgroup", "name": "Xgroupname"}, {"id": "open", "name": "Open"}]
                    """)),
    ]

    /// The hidden words, as they would be written somewhere (the phone's digits in any form).
    static let hiddenWords = [
        "Xsalutation", "Xnickname", "Xorganization", "Xtitle", "xemail", "0199", "Xstreet", "Xcity", "qzurl",
        "1911", "Xnotes", "Xhiddengiven", "Xhiddenfamily", "0100", "xhidden", "Xgroupname",
    ]

    static func render(_ config: SiteConfig) throws -> [String: [UInt8]] {
        try Site.load(SiteInput(config: config, storeFiles: store)).renderFiles(
            today: PartialDate(year: 2026, month: 1, day: 1))
    }

    @Test func hiddenFieldsAndContactsAreInNoFile() throws {
        var config = SiteConfig()
        config.hiddenFields = Set(SiteConfig.Field.allCases)
        config.hiddenContacts = ["xhidden"]
        let files = try Self.render(config)
        #expect(files["contacts/ann.vcf"] != nil && files["contacts.vcf"] != nil)
        // Who is in a group is each member's groups: hiding them leaves no group page or card.
        let groupFiles = files.keys.filter { $0.hasPrefix("groups/") }.sorted()
        #expect(groupFiles.isEmpty, "group files with groups hidden: \(groupFiles)")
        var leaks: [String] = []
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let text = String(decoding: bytes, as: UTF8.self).lowercased()
            // Digits of the phones as the pages or a search index may write them, separators gone.
            let digits = text.filter(\.isNumber)
            for word in Self.hiddenWords {
                let key = word.lowercased()
                if text.contains(key) || (key.allSatisfy(\.isNumber) && digits.contains("555" + key)) {
                    leaks.append("\(path): \(word)")
                }
            }
        }
        #expect(leaks.isEmpty, "hidden data in the output:\n\(leaks.joined(separator: "\n"))")
        // No card names the groups of its contact.
        for (path, bytes) in files where path.hasSuffix(".vcf") {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("Xgroupname") && !text.contains("CATEGORIES"), "\(path) names groups")
        }
        // The QR code is still there, with the name.
        let page = String(decoding: try #require(files["contacts/ann.html"]), as: UTF8.self)
        #expect(page.contains(#"<img class="qr-code" src="data:image/png;base64,"#))
    }

    /// The same words are all there when nothing is hidden: the check above can find them.
    @Test func theWordsAreThereWhenNothingIsHidden() throws {
        let files = try Self.render(SiteConfig())
        let card = String(decoding: try #require(files["contacts/ann.vcf"]), as: UTF8.self)
        let all = files.values.map { String(decoding: $0, as: UTF8.self).lowercased() }.joined()
        for word in Self.hiddenWords {
            #expect(
                all.contains(word.lowercased()) || all.filter(\.isNumber).contains("555" + word), "\(word)")
        }
        for word in [
            "Xsalutation", "Xnickname", "Xorganization", "Xtitle", "xemail", "Xstreet", "Xcity", "qzurl",
            "1911", "Xgroupname", "Xnotes", "+1 555 0199 7777",
        ] {
            #expect(card.contains(word), "\(word) not in the card")
        }
    }
}
