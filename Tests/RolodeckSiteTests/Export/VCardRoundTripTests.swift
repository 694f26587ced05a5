import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckLocale
@testable import RolodeckPlan
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// Every contact exported and read back by the store's own vCard reader is the same contact,
/// property by property: the demo, a generated store of 10,000, and the corpus of real cards.
///
/// What vCard 3.0 has no place for is not compared: the age a store gives without a birthday
/// year; a person known only by a nickname is expected back with the nickname as a name too. Labels are compared by the kind the pages show (a "mobile" comes back as "cell", both
/// shown as Mobile); the user's own labels exactly. Groups come back by name (a vCard names its
/// categories, not the store's ids).
@Suite struct VCardRoundTripTests {
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    /// The contacts of `directory` as its vCards give them back, by id, with each one's group
    /// names, after checking the reader reported nothing.
    static func readBack(_ directory: Directory) throws -> (
        contacts: [String: Contact], groups: [String: String]
    ) {
        guard !directory.entries.isEmpty else { return ([:], [:]) }
        let writer = VCardWriter(revisionDate: today)
        let bytes = writer.cards(directory.entries.indices.map(directory.exportedCard(ofEntry:)))
        let (store, diagnostics) = StoreDecoder.decode([
            .vCard(SourceText(path: "contacts.vcf", bytes: bytes))
        ])
        #expect(diagnostics.isEmpty, "\(diagnostics.prefix(5))")
        var contacts: [String: Contact] = [:]
        for contact in store.contacts { contacts[contact.id] = contact }
        return (contacts, Dictionary(uniqueKeysWithValues: store.groups.map { ($0.id, $0.name) }))
    }

    /// The differences between the contacts of `directory` and what their vCards give back, as
    /// "id field: what was written / what came back".
    static func differences(_ directory: Directory) throws -> [String] {
        let (readBack, groupNames) = try readBack(directory)
        #expect(readBack.count == directory.entries.count)
        var found: [String] = []
        for index in directory.entries.indices {
            let written = directory.exportedCard(ofEntry: index)
            let id = written.contact.id
            guard let read = readBack[id] else {
                found.append("\(id): not read back")
                continue
            }
            var mine = written.contact
            // A card needs `FN`, and a reader names a card without a given or family name in
            // `N` by its `FN`: a person known only by a nickname comes back with it as a name.
            if mine.givenName.isEmpty, mine.familyName.isEmpty, !mine.isOrganizationOnly {
                (mine.givenName, mine.familyName) = VCardFields.splitFormattedName(written.formattedName)
            }
            var readCategories = read.groupIDs.map { groupNames[$0] ?? $0 }
            readCategories.sort()
            for (field, mine, theirs) in compared(mine, read) + [
                ("groups", "\(written.categories.sorted())", "\(readCategories)")
            ] where mine != theirs {
                found.append("\(id) \(field): \(mine) / \(theirs)")
            }
        }
        return found
    }

    /// Each field of two contacts as text, side by side.
    static func compared(_ mine: Contact, _ theirs: Contact) -> [(String, String, String)] {
        func labeled(_ values: [LabeledValue]) -> String {
            "\(values.map { "\(label($0.label)) \($0.value.trimmingWhitespace)" })"
        }
        func addresses(_ values: [PostalAddress]) -> String {
            "\(values.map { [label($0.label), $0.street, $0.postalCode, $0.city, $0.region, $0.country].map(\.trimmingWhitespace) })"
        }
        let texts: [(String, KeyPath<Contact, String>)] = [
            ("salutation", \.salutation), ("givenName", \.givenName), ("familyName", \.familyName),
            ("additionalNames", \.additionalNames), ("suffix", \.suffix), ("nickname", \.nickname),
            ("phoneticGivenName", \.phoneticGivenName), ("phoneticFamilyName", \.phoneticFamilyName),
            ("sortGivenName", \.sortGivenName), ("sortFamilyName", \.sortFamilyName),
            ("organization", \.organization), ("title", \.title), ("notes", \.notes),
        ]
        return texts.map {
            ($0.0, mine[keyPath: $0.1].trimmingWhitespace, theirs[keyPath: $0.1].trimmingWhitespace)
        } + [
            ("phones", labeled(mine.phones), labeled(theirs.phones)),
            ("emails", labeled(mine.emails), labeled(theirs.emails)),
            ("urls", labeled(mine.urls), labeled(theirs.urls)),
            ("addresses", addresses(mine.addresses), addresses(theirs.addresses)),
            (
                "birthday", "\(mine.birthday.map(\.description) ?? "")",
                "\(theirs.birthday.map(\.description) ?? "")"
            ),
            ("class", mine.classification ?? "", theirs.classification ?? ""),
        ]
    }

    /// A label as the pages show it: its kind, or the user's own word as written.
    static func label(_ text: String) -> String {
        ContactLabelKind.key(for: text).map { "\($0)" } ?? VCardLabelText.unwrapped(text)
    }

    @Test func theDemoComesBackAsItWent() throws {
        let reader = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "demo")
        let (input, _) = try reader.read()
        let site = try Site.load(input)
        let directory = Directory(store: site.store, config: site.config)
        #expect(directory.entries.count > 50)
        let found = try Self.differences(directory)
        #expect(found.isEmpty, "\(found.count) differences:\n\(found.prefix(20).joined(separator: "\n"))")
    }

    @Test(
        .enabled(
            if: Fixtures.storeGenerator != nil, "../shared/tools/gen-store.py not found beside the package"))
    func aGeneratedStoreOf10000ComesBackAsItWent() throws {
        let folder = try Fixtures.temporaryFolder()
        try Fixtures.generateStore(into: folder, contacts: 10_000, seed: 19)
        let (input, _) = try SiteReader(folder: folder, displayPath: "gen").read()
        let site = try Site.load(input)
        let directory = Directory(store: site.store, config: site.config)
        #expect(directory.entries.count == 10_000)
        let found = try Self.differences(directory)
        #expect(found.isEmpty, "\(found.count) differences:\n\(found.prefix(20).joined(separator: "\n"))")
    }

    static let corpus = Fixtures.corpora?.appendingPathComponent("vcard")
    static let corpusMissing = corpus.map { !FileManager.default.fileExists(atPath: $0.path) } ?? true

    /// Each card of the corpus, read in as the store reads it, written out and read again, has
    /// the fields it had.
    @Test(
        .enabled(
            if: !corpusMissing,
            "skipped: the vCard corpus (../shared/corpora/vcard) is not beside the package"))
    func theCorpusCardsKeepTheirFields() throws {
        let folder = try #require(Self.corpus)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".vcf")
        }.sorted()
        #expect(files.count > 10)
        var found: [String] = []
        var contacts = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            let (store, _) = StoreDecoder.decode([.vCard(SourceText(path: file, bytes: bytes))])
            let directory = Directory(store: store, config: SiteConfig())
            contacts += directory.entries.count
            found += try Self.differences(directory).map { "\(file): \($0)" }
        }
        #expect(contacts > 20)
        #expect(found.isEmpty, "\(found.count) differences:\n\(found.prefix(30).joined(separator: "\n"))")
    }
}

/// The reader's way of taking Apple's wrapper off a label, for comparing custom labels.
enum VCardLabelText {
    static func unwrapped(_ label: String) -> String {
        LabeledValue.innerAppleLabel(label) ?? label.trimmingWhitespace
    }
}
