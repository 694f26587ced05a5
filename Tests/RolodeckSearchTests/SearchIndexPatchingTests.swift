import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSearch

/// An index patched for contacts edited in place (what `rolodeck watch` does on most saves) is
/// byte for byte the index built anew, however many pieces the edits touch.
@Suite struct SearchIndexPatchingTests {
    /// Edits one contact without moving it: its name and so its place stay.
    static func edit(_ contact: inout Contact, _ kind: Int, _ seed: Int) {
        switch kind {
        case 0:
            contact.phones = [
                LabeledValue(label: "work", value: "+49 30 \(1_000_000 + seed * 7919 % 8_999_999)")
            ]
        case 1: contact.phones = []
        case 2:
            contact.emails.append(LabeledValue(label: "work", value: "neu\(seed)@zweite-firma\(seed % 5).de"))
        case 3: contact.emails = []
        case 4:
            contact.organization = ["", "Acme Corp.", "Zebra Logistik", "한빛전자", "Ærø Fisk"][seed % 5]
        case 5: contact.nickname = ["", "Jo", "Büffel", "짱", "Zed"][seed % 5]
        default:
            contact.phones.append(
                LabeledValue(label: "mobile", value: "010-\(seed % 9000 + 1000)-\(seed % 7 + 1)234"))
        }
    }

    /// A store of `count` contacts, its directory, and the index a watched build keeps of it,
    /// its terms collected in `runs` runs.
    static func indexed(count: Int, seed: UInt64 = 7, runs: Int = 3) -> (Store, Directory, SearchIndex) {
        let store = SearchIndexTests.store(count: count, seed: seed)
        let directory = Directory(store: store, config: SiteConfig())
        let index = SearchIndex(
            directory: directory, limits: SearchIndexTests.limits, cache: SearchIndexCache(), runs: runs)
        return (store, directory, index)
    }

    /// The numbers the saves' edits are drawn from, the same for the same seed.
    struct Random {
        var state: Int

        init(_ seed: Int) { state = seed }

        /// The next number below `bound`.
        mutating func next(_ bound: Int) -> Int {
            state = (state &* 1_103_515_245 &+ 12_345) & 0x7fff_ffff
            return state % bound
        }
    }

    /// The index files and version of a directory built anew.
    static func fresh(_ directory: Directory) -> SearchIndex.Content {
        SearchIndex(directory: directory, limits: SearchIndexTests.limits).build.content
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6])
    func aPatchedIndexIsTheIndexBuiltAnew(seed: Int) throws {
        var (store, directory, index) = Self.indexed(count: 240, seed: UInt64(seed))
        var random = Random(seed)
        func next(_ bound: Int) -> Int { random.next(bound) }
        // Several saves in a row, each patching the last one's index.
        for step in 0..<5 {
            let before = store
            for _ in 0..<(1 + next(4)) {
                Self.edit(&store.contacts[next(store.contacts.count)], next(7), next(100_000))
            }
            let patch = try #require(Directory.patching(directory, from: before, to: store), "step \(step)")
            let base = SearchIndex.Base(
                index: index, directory: directory, changedEntries: patch.changedEntries)
            let patched = try #require(SearchIndex.patched(base, directory: patch.directory, listRows: nil))
            let expected = Self.fresh(patch.directory)
            #expect(patched.files.map(\.path) == expected.files.map(\.path), "step \(step)")
            for (made, built) in zip(patched.files, expected.files) {
                #expect(made.bytes == built.bytes, "step \(step): \(made.path)")
            }
            #expect(patched.version == expected.version, "step \(step)")
            directory = patch.directory
            index = SearchIndex(build: SearchIndex.Build(patched))
        }
        // The store had pieces enough for a patch to leave most of them as they were.
        #expect(index.files.filter { $0.path.hasPrefix("search/t") }.count > 10)
    }

    /// The places of `planned`'s entries in `directory`, as the site finds them: an entry that
    /// shows the very same contact under the same name and path is the one it was.
    static func places(of planned: Directory, in directory: Directory) -> [Int?] {
        var oldPlaces: [String: Int] = [:]
        for (place, entry) in directory.entries.enumerated() { oldPlaces[entry.slug] = place }
        return planned.entries.map { entry in
            guard let place = oldPlaces[entry.slug],
                directory.entries[place].contact.isIdentical(to: entry.contact),
                directory.entries[place].displayName == entry.displayName
            else { return nil }
            return place
        }
    }

    /// Renames that move contacts, cards added and removed, and edits in place, several saves in
    /// a row: each index, patched from the last one's by where the entries went, is byte for
    /// byte the index built anew.
    @Test(arguments: [1, 2, 3, 4, 5])
    func anIndexPatchedForMovedContactsIsTheIndexBuiltAnew(seed: Int) throws {
        var (store, directory, index) = Self.indexed(count: 240, seed: UInt64(seed))
        var random = Random(seed)
        func next(_ bound: Int) -> Int { random.next(bound) }
        var copied = 0, moved = 0
        for step in 0..<8 {
            for edit in 0..<(1 + next(3)) {
                let count = store.contacts.count
                switch (step + edit) % 4 {
                case 0:
                    store.contacts[next(count)].familyName =
                        ["Aaberg", "Zysk", "Müller", "김", "Ørsted", "Lefèvre"][next(6)] + "\(next(50))"
                case 1:
                    var contact = store.contacts[next(count)]
                    contact.id = "new-\(step)-\(edit)"
                    contact.givenName = ["Ada", "Zora", "철수", "Émile"][next(4)]
                    store.contacts.insert(contact, at: next(count))
                case 2: store.contacts.remove(at: next(count))
                default: Self.edit(&store.contacts[next(count)], next(7), next(100_000))
                }
            }
            let planned = Directory(store: store, config: SiteConfig())
            let places = Self.places(of: planned, in: directory)
            moved += places.enumerated().filter { $0.element != nil && $0.element != $0.offset }.count
            let base = SearchIndex.Base(index: index, directory: directory, places: places)
            let patched = try #require(
                SearchIndex.patched(base, directory: planned, listRows: nil), "step \(step)")
            let expected = Self.fresh(planned)
            #expect(patched.files.map(\.path) == expected.files.map(\.path), "step \(step)")
            for (made, built) in zip(patched.files, expected.files) {
                #expect(made.bytes == built.bytes, "step \(step): \(made.path)")
            }
            #expect(patched.version == expected.version, "step \(step)")
            copied += try #require(patched.kept).copiedEntries
            directory = planned
            index = SearchIndex(build: SearchIndex.Build(patched))
        }
        // Contacts did move, and entries they left alone were copied, not encoded again.
        #expect(moved > 0)
        #expect(copied > 0)
    }

    /// The contact listed last removed, or one added after it: the last row piece ends
    /// elsewhere, though none of its rows moved.
    @Test(arguments: [false, true])
    func theLastRowPieceFollowsTheCount(adding: Bool) throws {
        let (store, directory, index) = Self.indexed(count: 240)
        var changed = store
        let last = try #require(directory.entries.last).contact
        if adding {
            var contact = last
            contact.id = "after-the-last"
            changed.contacts.append(contact)
        } else {
            changed.contacts.removeAll { $0.id == last.id }
        }
        let planned = Directory(store: changed, config: SiteConfig())
        let places = Self.places(of: planned, in: directory)
        let base = SearchIndex.Base(index: index, directory: directory, places: places)
        let patched = try #require(SearchIndex.patched(base, directory: planned, listRows: nil))
        let expected = Self.fresh(planned)
        #expect(patched.files.map(\.path) == expected.files.map(\.path))
        for (made, built) in zip(patched.files, expected.files) {
            #expect(made.bytes == built.bytes, "\(made.path)")
        }
    }

    /// A base whose directory is not the one its index was built from is refused: the terms of
    /// the contacts gone are not those the index lists for them.
    @Test func aBaseOfAnotherDirectoryIsRefused() throws {
        let (store, _, index) = Self.indexed(count: 60, runs: 1)
        var other = store
        for position in other.contacts.indices { other.contacts[position].familyName = "Zzz\(position)" }
        let otherDirectory = Directory(store: other, config: SiteConfig())
        var fewer = other
        fewer.contacts.removeFirst()
        let planned = Directory(store: fewer, config: SiteConfig())
        let base = SearchIndex.Base(
            index: index, directory: otherDirectory, places: Self.places(of: planned, in: otherDirectory))
        #expect(SearchIndex.patched(base, directory: planned, listRows: nil) == nil)
    }

    /// Places that do not ascend cannot be a directory planned anew: the base is refused, and
    /// the index is built whole.
    @Test func placesOutOfOrderAreRefused() throws {
        let (_, directory, index) = Self.indexed(count: 40, runs: 1)
        var places: [Int?] = Array(0..<40)
        places.swapAt(3, 4)
        let base = SearchIndex.Base(index: index, directory: directory, places: places)
        #expect(SearchIndex.patched(base, directory: directory, listRows: nil) == nil)
    }

    /// A patch takes the pieces it does not touch as they were: a nickname given touches a few
    /// term pieces, not every one. (The digits of a phone number spread over most pieces of a
    /// store this small.)
    @Test func aPatchEncodesOnlyThePiecesItTouches() throws {
        let (store, directory, index) = Self.indexed(count: 240)
        var changed = store
        changed.contacts[17].nickname = "Zed"
        let patch = try #require(Directory.patching(directory, from: store, to: changed))
        let kept = try #require(index.build.content.kept)
        let base = SearchIndex.Base(index: index, directory: directory, changedEntries: patch.changedEntries)
        let patched = try #require(SearchIndex.patched(base, directory: patch.directory, listRows: nil))
        let old = index.files
        let differing = zip(old, patched.files).filter { $0.0.bytes != $0.1.bytes }.map(\.0.path)
        #expect(differing.contains("search/root.js"))
        #expect(differing.count > 1)
        // The pieces around the nickname's terms are encoded again, the others taken as they were.
        let encoded = try #require(patched.kept).encodedEntries
        #expect(encoded > 0)
        #expect(encoded * 4 < kept.encodedEntries, "\(encoded) of \(kept.encodedEntries) entries encoded")
        // Most entries of the pieces encoded again keep their bytes, and are copied.
        let copied = try #require(patched.kept).copiedEntries
        #expect(copied * 2 > encoded, "\(copied) of \(encoded) entries copied")
    }

    /// A patch moves the contacts it changed within the hot prefixes' lists, read back from the
    /// last save's hot pieces: only a prefix that was not hot before is merged from the table.
    @Test(arguments: [17, 101, 230])
    func aPatchMovesChangedContactsInTheHotLists(contact: Int) throws {
        let (store, directory, index) = Self.indexed(count: 240)
        var changed = store
        changed.contacts[contact].phones = [LabeledValue(label: "work", value: "+49 30 0\(contact)77123")]
        changed.contacts[contact].nickname = "Zz\(contact)"
        let patch = try #require(Directory.patching(directory, from: store, to: changed))
        let kept = try #require(index.build.content.kept)
        let base = SearchIndex.Base(index: index, directory: directory, changedEntries: patch.changedEntries)
        let patched = try #require(SearchIndex.patched(base, directory: patch.directory, listRows: nil))
        let made = try #require(patched.kept)
        let expected = Self.fresh(patch.directory)
        #expect(patched.files.map(\.path) == expected.files.map(\.path))
        for (file, built) in zip(patched.files, expected.files) {
            #expect(file.bytes == built.bytes, "\(file.path)")
        }
        let hotBefore = Set(kept.hotPrefixes)
        #expect(made.mergedHotPrefixes == made.hotPrefixes.filter { !hotBefore.contains($0) }.count)
        // Some hot piece holds the contact moved, so the moves were made, not merely read back.
        let oldHot = Dictionary(uniqueKeysWithValues: index.files.map { ($0.path, $0.bytes) })
        let movedPieces = patched.files.filter { file in
            file.path.hasPrefix("search/h") && oldHot[file.path].map { $0 != file.bytes } ?? false
        }
        #expect(!movedPieces.isEmpty)
    }
}
