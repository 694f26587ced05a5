import Foundation
import Testing
@testable import RolodeckSearch
@testable import RolodeckLocale
@testable import RolodeckCore
@testable import RolodeckPlan

/// Result rows show phone numbers and groups as the contact page does, though they are worked
/// out by shorter ways: a number `PhoneFormatter` would only trim is told by its bytes, and a
/// contact's groups are the directory's positions, not its ids looked up.
@Suite struct SearchRowsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var raw: String
        /// Whether the number is known to be shown as written without a region.
        var asWritten: Bool
        var testDescription: String { raw }
    }

    static let cases: [Case] = [
        Case(raw: "+49 151 2345 6789", asWritten: true),
        Case(raw: " 030 1234567 ", asWritten: true),
        Case(raw: "+1 (479) 555-0175", asWritten: true),
        Case(raw: "*31#", asWritten: true),
        Case(raw: "", asWritten: true),
        Case(raw: "+82 10 1234 5678", asWritten: false),
        Case(raw: "0082 2 123 4567", asWritten: false),
        Case(raw: "+(0)82 10 1234 5678", asWritten: false),
        Case(raw: "+8(0)2 10 1234 5678", asWritten: false),
        Case(raw: "+82 (0)10 1234 5678", asWritten: false),
        Case(raw: "010\u{2011}1234\u{2011}5678", asWritten: false),
        Case(raw: "＋８２ １０ １２３４ ５６７８", asWritten: false),
    ]

    /// Whenever the bytes say a number is shown as written, the formatter shows it so.
    @Test(arguments: cases, [nil, "KR", "DE"])
    func aNumberToldByItsBytesIsFormattedAsWritten(_ example: Case, region: String?) {
        let shown = SearchRows.showsAsWritten(example.raw, region: region)
        #expect(shown == (example.asWritten && region != "KR"))
        if shown {
            let formatted = PhoneFormatter(defaultRegion: region).format(example.raw)
            #expect(formatted == example.raw.trimmingWhitespace)
        }
    }

    /// Generated numbers of digits, prefixes, brackets, separators, extensions and a few
    /// non-ASCII characters: the bytes never tell wrongly, and they tell most plain numbers.
    @Test(arguments: [nil, "KR", "US"])
    func generatedNumbersToldByTheirBytesAreFormattedAsWritten(region: String?) {
        let pieces = [
            "0", "0", "1", "2", "8", "8", "82", "00", "+", " ", "-", "(0)", "(", ")", ".", "/", "*", "#",
            " ext. 12", "x", "A", "\u{00A0}", "８", "\u{2011}",
        ]
        let formatter = PhoneFormatter(defaultRegion: region)
        var state: UInt64 = 11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var told = 0
        for _ in 0..<20_000 {
            let raw = (0..<1 + next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            guard SearchRows.showsAsWritten(raw, region: region) else { continue }
            told += 1
            #expect(formatter.format(raw) == raw.trimmingWhitespace, "\(raw)")
        }
        #expect(region == "KR" ? told == 0 : told > 5_000)
    }

    /// A row's groups are the contact's known groups, in its order, repeats kept.
    @Test func rowsListTheGroupsOfTheirContacts() throws {
        var store = SearchIndexTests.store(count: 60)
        store.contacts[0].groupIDs = ["g3", "nowhere", "g1", "g3"]
        store.contacts[1].groupIDs = ["nowhere"]
        let directory = Directory(store: store, config: SiteConfig())
        let rows = SearchRows(directory: directory).rows
        var withGroups = 0
        for (entry, row) in zip(directory.entries, rows) {
            let fields = try #require(try JSONSerialization.jsonObject(with: Data(row)) as? [Any])
            let expected = entry.contact.groupIDs.compactMap { directory.groupIndex[$0] }
                .map { directory.groups[$0].group.name }
            let shown = fields.count > 6 ? try #require(fields[6] as? [String]) : []
            #expect(shown == expected, "\(entry.slug)")
            if !expected.isEmpty { withGroups += 1 }
        }
        #expect(withGroups > 20)
        let first = try #require(directory.entries.firstIndex { $0.contact.id == "c0" })
        let text = String(decoding: rows[first], as: UTF8.self)
        #expect(text.contains(#"["Book Club","Tennis Grün-Weiß","Book Club"]"#))
    }
}
