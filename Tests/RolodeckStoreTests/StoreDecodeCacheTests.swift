import Testing
@testable import RolodeckStore
@testable import RolodeckCore

/// A store decoded with the watch cache must be exactly the store decoded afresh, with the same
/// diagnostics at the same places, while decoding only what changed.
@Suite struct StoreDecodeCacheTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        /// The versions of `store/contacts.json`, decoded one after another.
        var versions: [String]
        /// How many records each decode after the first parses afresh.
        var decoded: [Int]
        var testDescription: String { label }
    }

    static let groups = StoreFile(
        kind: .group, layout: .list,
        source: SourceText(
            path: "store/groups.json", text: #"[{"id": "team", "name": "Team"}]"#))

    static func contact(_ id: String, _ name: String, extra: String = "") -> String {
        #"{"id": "\#(id)", "givenName": "\#(name)", "groups": ["team"]\#(extra)}"#
    }

    static let three =
        "[\n" + [contact("a", "Ann"), contact("b", "Bo"), contact("c", "Cy")].joined(separator: ",\n")
        + "\n]\n"

    static let cases: [Case] = [
        Case(label: "an unchanged file is not decoded again", versions: [three, three], decoded: [0]),
        Case(
            label: "one record edited in the middle",
            versions: [
                three, three.replacingOccurrences(of: "Bo", with: "Bodil Margarethe"),
            ], decoded: [1]),
        Case(
            label: "a record inserted first moves every other one",
            versions: [
                three, three.replacingOccurrences(of: "[\n", with: "[\n" + contact("z", "Zed") + ",\n"),
            ], decoded: [1]),
        Case(
            label: "the last record deleted",
            versions: [
                three, three.replacingOccurrences(of: ",\n" + contact("c", "Cy"), with: ""),
            ], decoded: [0]),
        Case(
            label: "whitespace before every record",
            versions: [
                three, three.replacingOccurrences(of: "\n{", with: "\n\n  {"),
            ], decoded: [0]),
        Case(
            label: "a syntax error in one record, then fixed",
            versions: [
                three, three.replacingOccurrences(of: #""Bo""#, with: "Bo"), three,
            ], decoded: [1, 1]),
        Case(
            label: "a record with a warning is decoded again, so its place is right",
            versions: [
                three.replacingOccurrences(of: #""Cy""#, with: #""Cy", "givenName": "Cyrus""#),
                "\n\n"
                    + three.replacingOccurrences(of: #""Cy""#, with: #""Cy", "givenName": "Cyrus""#)
                    .replacingOccurrences(of: "Ann", with: "Anna"),
            ], decoded: [2]),
        Case(
            label: "two edits apart decode the stretch between; an unknown group is reported where it now is",
            versions: [
                three,
                three.replacingOccurrences(of: "Ann", with: "Ann\\nLee\",\n \"familyName\": \"Lee")
                    .replacingOccurrences(
                        of: #""Cy", "groups": ["team"]"#, with: #""Cy", "groups": ["nope"]"#),
            ], decoded: [3]),
        Case(
            label: "an unknown group is reported where the moved record now is",
            versions: [
                three.replacingOccurrences(
                    of: #""Cy", "groups": ["team"]"#, with: #""Cy", "groups": ["nope"]"#),
                three.replacingOccurrences(of: "Ann", with: "Ann\\nLee\",\n \"familyName\": \"Lee")
                    .replacingOccurrences(
                        of: #""Cy", "groups": ["team"]"#, with: #""Cy", "groups": ["nope"]"#),
            ], decoded: [1]),
        Case(
            label: "a missing photo is reported where the moved record now is",
            versions: [
                three.replacingOccurrences(of: #""Cy""#, with: #""Cy", "photo": "photos/cy.jpg""#),
                three.replacingOccurrences(of: #""Cy""#, with: #""Cy", "photo": "photos/cy.jpg""#)
                    .replacingOccurrences(of: "Ann", with: "Ann\\nLee\",\n \"familyName\": \"Lee"),
            ], decoded: [1]),
        Case(
            label: "a file that is not a list is decoded whole, every time",
            versions: [
                #"{"id": "a"}"#, #"{"id": "b"}"#, three,
            ], decoded: [0, 3]),
        Case(
            label: "a duplicate id across unchanged records is still found",
            versions: [
                three, three.replacingOccurrences(of: #""id": "c""#, with: #""id": "a""#),
            ], decoded: [1]),
    ]

    static func decode(_ text: String, cache: StoreDecodeCache?) -> (Store, [String]) {
        let file = StoreFile(
            kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", text: text))
        let (store, diagnostics) = StoreDecoder.decode([groups, file], cache: cache)
        return (store, diagnostics.map(\.description))
    }

    @Test(arguments: cases)
    func cachedDecodesEqualFreshOnes(_ test: Case) {
        let cache = StoreDecodeCache()
        var decoded: [Int] = []
        for (number, version) in test.versions.enumerated() {
            let (cached, cachedDiagnostics) = Self.decode(version, cache: cache)
            let (fresh, freshDiagnostics) = Self.decode(version, cache: nil)
            #expect(cached.contacts == fresh.contacts, "version \(number)")
            #expect(cached.groups == fresh.groups, "version \(number)")
            #expect(cachedDiagnostics == freshDiagnostics, "version \(number)")
            let count = cache.takeDecodedCount()
            if number > 0 { decoded.append(count) }
        }
        #expect(decoded == test.decoded)
    }

    /// A file's yield is taken only for that file: when a file before it goes, the files after
    /// it move up a place, and one of them is found where a file with the very same bytes (but
    /// of another kind) was.
    @Test func aFileThatMovedUpIsNotTakenForTheOneWhosePlaceItTook() {
        let same = #"{"id": "same", "name": "Same"}"#
        func file(_ kind: RecordKind, _ path: String, _ text: String) -> StoreFile {
            StoreFile(kind: kind, layout: .single, source: SourceText(path: path, text: text))
        }
        let first = [
            file(.contact, "store/contacts/a.json", #"{"id": "a", "givenName": "Ann"}"#),
            file(.contact, "store/contacts/same.json", same),
            file(.group, "store/groups/same.json", same),
        ]
        let cache = StoreDecodeCache()
        _ = StoreDecoder.decode(first, cache: cache)
        let second = Array(first.dropFirst())
        let (cached, cachedDiagnostics) = StoreDecoder.decode(second, cache: cache)
        let (fresh, freshDiagnostics) = StoreDecoder.decode(second, cache: nil)
        #expect(fresh.groups.map(\.id) == ["same"])
        #expect(cached.contacts == fresh.contacts)
        #expect(cached.groups == fresh.groups)
        #expect(cachedDiagnostics.map(\.description) == freshDiagnostics.map(\.description))
    }

    /// A list as it was and as it is, and how many elements at its start and its end are kept.
    struct ListChangeCase: Sendable, CustomTestStringConvertible {
        var label: String
        var old: String
        var new: String
        var unchanged: (prefix: Int, suffix: Int)
        var testDescription: String { label }
    }

    static let listChanges: [ListChangeCase] = [
        ListChangeCase(label: "the same", old: "[1, 2, 3]", new: "[1, 2, 3]", unchanged: (3, 0)),
        ListChangeCase(
            label: "one in the middle edited", old: "[1, 2, 3]", new: "[1, 5, 3]", unchanged: (1, 1)),
        ListChangeCase(label: "the first removed", old: "[1, 2, 3]", new: "[2, 3]", unchanged: (0, 2)),
        ListChangeCase(label: "one inserted", old: "[1, 3]", new: "[1, 2, 3]", unchanged: (1, 1)),
        ListChangeCase(
            label: "one added after a last one whose range ran on to the bracket", old: "[\n1,\n2\n]\n",
            new: "[\n1,\n2,\n3\n]\n", unchanged: (2, 0)),
        ListChangeCase(
            label: "the suffix never counts the prefix's elements again", old: "[1, 1]", new: "[1, 1, 1]",
            unchanged: (2, 0)),
        ListChangeCase(label: "everything changed", old: "[1, 2]", new: "[3, 4]", unchanged: (0, 0)),
        ListChangeCase(label: "from empty", old: "[]", new: "[1]", unchanged: (0, 0)),
        ListChangeCase(
            label: "the same length, not the same bytes", old: "[12]", new: "[21]", unchanged: (0, 0)),
        ListChangeCase(
            label: "more space between two kept elements", old: "[1, 2, 3, 4]", new: "[1, 5, 3,   4]",
            unchanged: (1, 2)),
        ListChangeCase(
            label: "an element the same but for its end", old: "[1, 23, 4]", new: "[1, 24, 4]",
            unchanged: (1, 1)),
    ]

    /// Found from the bytes the two lists share at their ends, and by comparing every element
    /// (as when they share none): both find the same.
    @Test(arguments: listChanges)
    func theUnchangedEndsOfAListAreFound(_ test: ListChangeCase) throws {
        let old = Array(test.old.utf8), new = Array(test.new.utf8)
        let oldElements = try #require(JSONArraySplitter.elements(of: old))
        let newElements = try #require(JSONArraySplitter.elements(of: new))
        for ends in [JSONArraySplitter.commonEnds(old, new), (prefix: 0, suffix: 0)] {
            let change = StoreDecodeCache.ListChange(
                from: (old, oldElements), to: (new, newElements), commonEnds: ends)
            #expect(change.unchangedPrefix == test.unchanged.prefix, "shared ends \(ends)")
            #expect(change.unchangedSuffix == test.unchanged.suffix, "shared ends \(ends)")
        }
    }

    @Test func bytesThatAreNotUTF8AreReportedWhereverTheyAre() {
        let valid = Array(Self.three.utf8)
        var broken = valid
        broken[valid.firstIndex(of: UInt8(ascii: "B"))!] = 0xFF
        var brokenTwice = broken
        brokenTwice[valid.firstIndex(of: UInt8(ascii: "C"))!] = 0xC3
        let cache = StoreDecodeCache()
        for (number, bytes) in [valid, broken, brokenTwice, valid].enumerated() {
            let file = StoreFile(
                kind: .contact, layout: .list, source: SourceText(path: "store/contacts.json", bytes: bytes))
            let cached = StoreDecoder.decode([Self.groups, file], cache: cache).diagnostics.map(\.description)
            let fresh = StoreDecoder.decode([Self.groups, file]).diagnostics.map(\.description)
            #expect(cached == fresh, "version \(number)")
            #expect(
                cached.filter { $0.contains("UTF-8") }.count == [0, 1, 2, 0][number],
                "version \(number): \(cached)")
        }
    }

    @Test func vCardAndICalendarFilesAreTakenWholeWhenUnchanged() {
        let card = StoreFile.vCard(
            SourceText(
                path: "store/a.vcf", text: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ann\r\nUID:a\r\nEND:VCARD\r\n"))
        let other = StoreFile.vCard(
            SourceText(
                path: "store/b.vcf", text: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bo\r\nUID:b\r\nEND:VCARD\r\n"))
        let todo = StoreFile.iCalendar(
            SourceText(
                path: "store/t.ics",
                text:
                    "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:t\r\nSUMMARY:Call Ann\r\nEND:VTODO\r\nEND:VCALENDAR\r\n"
            ))
        let cache = StoreDecodeCache()
        _ = StoreDecoder.decode([card, other, todo], cache: cache)
        #expect(cache.takeDecodedCount() == 3)
        let edited = StoreFile.vCard(
            SourceText(
                path: "store/b.vcf", text: "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Bodil\r\nUID:b\r\nEND:VCARD\r\n")
        )
        let (store, _) = StoreDecoder.decode([card, edited, todo], cache: cache)
        #expect(cache.takeDecodedCount() == 1)
        #expect(
            store.contacts.map(\.givenName)
                == StoreDecoder.decode([card, edited, todo]).store.contacts.map(\.givenName))
        #expect(store.contacts.count == 2 && store.todos.map(\.title) == ["Call Ann"])
        // A file that left the store is forgotten; when it comes back it is decoded again.
        _ = StoreDecoder.decode([card, todo], cache: cache)
        #expect(cache.takeDecodedCount() == 0)
        _ = StoreDecoder.decode([card, edited, todo], cache: cache)
        #expect(cache.takeDecodedCount() == 1)
    }
}
