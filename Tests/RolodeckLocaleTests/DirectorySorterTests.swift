import Foundation
import Testing
@testable import RolodeckLocale

/// Names in input order and the exact page they must produce: "label: names".
struct DirectoryOrderCase: CustomTestStringConvertible, Sendable {
    let locale: String
    let input: [String]
    let expected: [String]

    var testDescription: String { locale }
}

@Suite("Directory sorting")
struct DirectorySorterTests {
    static let cases: [DirectoryOrderCase] = [
        .init(locale: "en", input: [
            "Zoë", "zoe", "Émile", "Emil", "Eve", "'Ali", "Ali", "Müller", "Mu\u{308}ller", "Muller", "Mutter",
            "O'Brien", "Obrien", "1Password", "김민준", "たなか", "Æsop", "Adams", "😀", "",
        ], expected: [
            "A: Adams Æsop 'Ali Ali", "E: Emil Émile Eve", "M: Muller Mu\u{308}ller Müller Mutter",
            "O: O'Brien Obrien", "Z: zoe Zoë", "ㄱ: 김민준", "た: たなか", "#:  😀 1Password",
        ]),
        .init(locale: "de", input: [
            "Zander", "Müller", "Muller", "Mutter", "Mueller", "Straße", "Strasse", "Strauss", "Öl", "Ol", "Olaf",
            "Ärger", "Arzt",
        ], expected: [
            "A: Ärger Arzt", "M: Mueller Muller Müller Mutter", "O: Ol Öl Olaf", "S: Strasse Straße Strauss",
            "Z: Zander",
        ]),
        .init(locale: "sv", input: [
            "Östlund", "Zander", "Åberg", "Ängström", "Ærø", "Øberg", "Olsson", "Über", "Yngve", "Ulf",
            "Wallin", "Vik", "Émile", "Eriksson", "O\u{308}dman",
        ], expected: [
            "E: Émile Eriksson", "O: Olsson", "U: Ulf", "V: Vik", "W: Wallin", "Y: Über Yngve", "Z: Zander",
            "Å: Åberg", "Ä: Ängström Ærø", "Ö: Øberg O\u{308}dman Östlund",
        ]),
        .init(locale: "ko", input: [
            "이민호", "김민준", "Kim", "Adams", "たなか", "1번", "까치", "가나", "각", "가하", "나", "(주)다온소프트",
            "쌍용", "서준", "ㅎ",
        ], expected: [
            "ㄱ: 가나 가하 각 김민준 까치", "ㄴ: 나", "ㅅ: 서준 쌍용", "ㅇ: 이민호", "ㅈ: (주)다온소프트", "ㅎ: ㅎ",
            "A: Adams", "K: Kim", "た: たなか", "#: 1번",
        ]),
        .init(locale: "ja", input: [
            "たなか", "タナカ", "だいすけ", "さとう", "サトウ", "ｻﾄｳ", "あおき", "Smith", "김", "山田", "ーあ",
            "ぱん", "はな", "ばなな", "ゃ", "やまだ", "ヴァイオリン", "うえだ", "んじゃめな", "わだ",
        ], expected: [
            "あ: あおき ヴァイオリン うえだ", "さ: さとう サトウ ｻﾄｳ", "た: だいすけ たなか タナカ",
            "は: はな ばなな ぱん", "や: ゃ やまだ", "わ: わだ んじゃめな", "S: Smith", "ㄱ: 김", "#: ーあ 山田",
        ]),
    ]

    static func render(_ groups: [SectionGroup<String>]) -> [String] {
        groups.map { "\($0.section.label): " + $0.items.joined(separator: " ") }
    }

    @Test("exact page order", arguments: cases)
    func order(_ example: DirectoryOrderCase) {
        let sorter = DirectorySorter(localeIdentifier: example.locale)
        #expect(Self.render(sorter.sortedStrings(example.input)) == example.expected)
    }

    @Test("the same page for every input order", arguments: cases)
    func permutations(_ example: DirectoryOrderCase) {
        let sorter = DirectorySorter(localeIdentifier: example.locale)
        let reference = Self.render(sorter.sortedStrings(example.input))
        var random = LocaleTestRandom(seed: 5)
        for _ in 0..<20 {
            var shuffled = example.input
            for index in shuffled.indices.reversed() {
                shuffled.swapAt(index, random.next(below: index + 1))
            }
            #expect(Self.render(sorter.sortedStrings(shuffled)) == reference)
        }
    }

    /// A contact-like item for the keyed API.
    struct Person: Equatable, Sendable {
        let family: String
        let given: String
        let id: String
    }

    @Test("ties break on secondary, then id, then input position")
    func tieBreaks() {
        let people = [
            Person(family: "Kim", given: "Zoe", id: "3"),
            Person(family: "Kim", given: "Anna", id: "9"),
            Person(family: "Kim", given: "Anna", id: "10"),
            Person(family: "Kim", given: "anna", id: "1"),
            Person(family: "Kim", given: "Anna", id: "10"),
            Person(family: "Ahn", given: "Zed", id: "0"),
        ]
        let sorter = DirectorySorter(localeIdentifier: "en")
        let groups = sorter.sorted(people) { (primary: $0.family, secondary: $0.given, id: $0.id) }
        #expect(groups.map(\.section.label) == ["A", "K"])
        #expect(groups[1].items.map(\.id) == ["1", "10", "10", "9", "3"])
        #expect(groups[1].items[1] == people[2])
    }

    @Test("equal names order by the ids' scalars, then input position, in several runs")
    func idTiesInRuns() {
        // Ids longer than a small string, sharing prefixes, and non-ASCII, across two names.
        let ids = [
            "kim-anna-12345678901", "kim-anna-1234567890", "kim-anna-ä", "kim-anna-z", "a", "kim-anna-ä",
        ]
        let people = ids.map { Person(family: "Kim", given: "Anna", id: $0) }
            + ids.map { Person(family: "Ahn", given: "Bo", id: $0) }
        let groups = DirectorySorter(localeIdentifier: "en")
            .sorted(people) { (primary: $0.family, secondary: $0.given, id: $0.id) }
        let expected = [
            "a", "kim-anna-1234567890", "kim-anna-12345678901", "kim-anna-z", "kim-anna-ä", "kim-anna-ä",
        ]
        #expect(groups.map(\.section.label) == ["A", "K"])
        #expect(groups.map { $0.items.map(\.id) } == [expected, expected])
    }

    @Test("sections come out in rank order with no empty groups", arguments: ["en", "sv", "ko", "ja"])
    func grouping(_ locale: String) {
        var random = LocaleTestRandom(seed: 3)
        let pieces = ["Ka", "Ö", "Å", "김", "이", "か", "さ", "1", "Z", "é", "ﾊ", "Ю"]
        let names = (0..<500).map { _ in random.string(from: pieces, maxLength: 3) }
        let groups = DirectorySorter(localeIdentifier: locale).sortedStrings(names)
        let sections = groups.map(\.section)
        #expect(sections == sections.sorted())
        #expect(Set(sections).count == sections.count)
        #expect(groups.allSatisfy { !$0.items.isEmpty })
        #expect(groups.reduce(0) { $0 + $1.items.count } == names.count)
    }

    @Test("a sort string's slot is found by its bytes, and canonically equal spellings share one")
    func slotsOfEqualAndEquivalentStrings() {
        var table = SortStringTable()
        // Enough strings to make the byte table grow a few times.
        let names = (0..<1_000).map { "Name \($0) Müller" }
        let slots = names.map { table.primarySlot(for: $0) }
        #expect(Set(slots).count == names.count)
        #expect(names.map { table.primarySlot(for: $0) } == slots)
        let remade = names.map { String(decoding: Array($0.utf8), as: UTF8.self) }
        #expect(remade.map { table.secondarySlot(for: $0) } == slots)
        let composed = table.primarySlot(for: "M\u{FC}ller")
        #expect(table.secondarySlot(for: "Mu\u{308}ller") == composed)
        #expect(table.primarySlot(for: "M\u{FC}ller") == composed)
        #expect(table.primarySlot(for: "Muller") != composed)
        #expect(table.primarySlot(for: "") != composed)
    }

    @Test("an empty input gives no sections")
    func empty() {
        #expect(DirectorySorter(localeIdentifier: "en").sortedStrings([]).isEmpty)
    }
}
