import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckCore
@testable import RolodeckStore

/// Reads every corpus vCard with Debian's python3-vobject (through `Tests/VObject/vobject_dump.py`
/// and `/usr/bin/python3`, the Python it is installed for) and with Rolodeck, and compares
/// card by card: formatted name, structured name, phones, emails, categories, group kind and
/// members. They must agree, except where vobject is known to be wrong (`knownDifferences`,
/// each with the reason); a known difference that no longer shows up fails too, so the list
/// stays true.
///
/// Two differences of form are not differences of reading, and are compared after
/// normalizing: a vCard 4 `TEL` is a `tel:` URI, which Rolodeck keeps as the number (vobject
/// keeps the URI); `EMAIL` values lose a `mailto:` the same way.
@Suite struct VObjectDifferentialTests {
    static let python = "/usr/bin/python3"
    static let script = Fixtures.packageRoot.appendingPathComponent("Tests/VObject/vobject_dump.py")
    static let folder = Fixtures.corpora?.appendingPathComponent("vcard")

    /// Why the test cannot run here, or nil when it can.
    static let unavailable: String? = {
        guard let folder, FileManager.default.fileExists(atPath: folder.path) else {
            return "the vCard corpus (../shared/corpora/vcard) is not beside the package"
        }
        guard FileManager.default.isExecutableFile(atPath: python),
              (try? run([python, "-c", "import vobject"]))?.status == 0 else {
            return "python3-vobject is not installed for /usr/bin/python3 (apt-get install python3-vobject)"
        }
        return nil
    }()

    /// Where vobject reads a corpus file wrongly: "file#card field" → why.
    static let knownDifferences: [String: String] = [
        "aosp-v30_japanese.vcf#1 fn": shiftJIS,
        "aosp-v30_japanese.vcf#1 n": shiftJIS,
        "ezvcard-John_Doe_GMAIL.vcf#1 fn": """
            vobject splits FN at its unescaped comma as if it were a list and keeps the first \
            part, "Mr. John Richter"; FN is one text value, and a comma that a writer did not \
            escape is still part of the name
            """,
    ]

    static let shiftJIS = """
        vobject decodes CHARSET only after quoted-printable; this card's 8-bit Shift_JIS text is \
        read in whatever single encoding the caller chose for the whole file (Latin-1 here), and \
        the 0x5C byte inside 能 and 圭 then reads as a backslash escape
        """

    /// One card as both readers report it.
    struct Reading: Equatable {
        var fn: String?
        var n: [[String]]?
        var phones: [String]
        var emails: [String]
        var categories: [String]
        var isGroup: Bool
        var members: [String]

        /// The fields that differ from another reading, by name.
        func differences(from other: Reading) -> [String: String] {
            var result: [String: String] = [:]
            func compare<T: Equatable>(_ name: String, _ mine: T, _ theirs: T) {
                if mine != theirs { result[name] = "Rolodeck \(mine), vobject \(theirs)" }
            }
            compare("fn", fn, other.fn)
            compare("n", n, other.n)
            compare("phones", phones, other.phones)
            compare("emails", emails, other.emails)
            compare("categories", categories, other.categories)
            compare("kind", isGroup, other.isGroup)
            compare("members", members, other.members)
            return result
        }
    }

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func rolodeckReadsWhatVObjectReads() throws {
        let folder = try #require(Self.folder)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".vcf") }.sorted()
        let found = try Self.differences(files.map { ($0, folder.appendingPathComponent($0)) })
        Self.expect(found, known: Self.knownDifferences)
    }

    /// Where vobject reads the quirk cases of `VCardQuirkTests` wrongly: "case#card field" → why.
    static let knownQuirkDifferences: [String: String] = [
        "CR line ends error": """
            vobject splits lines at LF only (Python's readline), so a file with CR line ends is \
            one line, and its card is "never closed"
            """,
        "CR line ends cards": "(the same: vobject reads no card from the file)",
        "vCard 2.1 unfolding keeps the space#1 fn": """
            vobject unfolds vCard 2.1 as 3.0 does, dropping the folding space; vCard 2.1 keeps it \
            ("Anh Ng", not "AnhNg")
            """,
        "CHARSET=SHIFT_JIS, with a backslash byte inside a character#1 n": shiftJIS,
        "base64 photos in every layout do not disturb the lines around them error": """
            vobject reads vCard 2.1 base64 lines that are not indented as properties, fails to \
            decode the photo it is left with, and gives up on the whole file
            """,
        "base64 photos in every layout do not disturb the lines around them cards": "(the same: vobject reads no card from the file)",
        "a card without END:VCARD ends at the next BEGIN or the end of the file error": """
            vobject stops at a card without END:VCARD and gives up on the whole file
            """,
        "a card without END:VCARD ends at the next BEGIN or the end of the file cards":
            "(the same: vobject reads no card from the file)",
        "BEGIN and END with blanks around VCARD, one of them a no-break space error": """
            vobject keeps the blanks around a component's name, so `BEGIN: VCard<tab>` never \
            meets its `END:vcard `; it reports the card never closed and gives up on the file \
            (Rolodeck trims them, Unicode's whitespace as well as ASCII's)
            """,
        "BEGIN and END with blanks around VCARD, one of them a no-break space cards":
            "(the same: vobject reads no card from the file)",
        "text outside cards, a card with nothing to show, an unknown version cards": """
            vobject makes the property before the first BEGIN:VCARD an unnamed component that \
            holds both cards, so it reports one card with the fields of neither
            """,
    ]

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func theQuirkCasesAgreeWhereVObjectReadsThemRight() throws {
        let folder = try Fixtures.temporaryFolder()
        var files: [(String, URL)] = []
        for (index, testCase) in VCardQuirkTests.cases.enumerated() {
            let url = folder.appendingPathComponent("quirk-\(index).vcf")
            try Data(testCase.input).write(to: url)
            files.append((testCase.name, url))
        }
        Self.expect(try Self.differences(files), known: Self.knownQuirkDifferences)
    }

    /// Every difference between the two readings of some files, as "name#card field" (or
    /// "name error" and "name cards" for a file vobject cannot read) → what each read.
    static func differences(_ files: [(name: String, url: URL)]) throws -> [String: String] {
        let output = try run([python, script.path] + files.map(\.url.path))
        try #require(output.status == 0, "vobject_dump.py failed: \(output.error)")
        let theirs = try #require(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        var found: [String: String] = [:]
        for (name, url) in files {
            let report = try #require(theirs[url.lastPathComponent] as? [String: Any], "no report on \(name)")
            if let error = report["error"] as? String { found["\(name) error"] = error }
            let theirCards = (report["cards"] as? [[String: Any]] ?? []).map(reading)
            let ourCards = readings(SourceText(path: url.lastPathComponent, bytes: Array(try Data(contentsOf: url))))
            if ourCards.count != theirCards.count {
                found["\(name) cards"] = "Rolodeck reads \(ourCards.count) cards, vobject \(theirCards.count)"
            }
            for (index, (ours, theirs)) in zip(ourCards, theirCards).enumerated() {
                for (field, difference) in ours.differences(from: theirs) {
                    found["\(name)#\(index + 1) \(field)"] = difference
                }
            }
        }
        return found
    }

    /// Expects exactly the known differences.
    static func expect(_ found: [String: String], known: [String: String],
                       sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let unexpected = found.filter { known[$0.key] == nil }.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        #expect(unexpected.isEmpty, "Rolodeck and vobject differ:\n\(unexpected.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
        let gone = known.keys.filter { found[$0] == nil }.sorted()
        #expect(gone.isEmpty, "known differences that no longer show up (remove them): \(gone)",
                sourceLocation: sourceLocation)
    }

    /// What Rolodeck reads from each card of a file, in order.
    static func readings(_ source: SourceText) -> [Reading] {
        var fields = VCardFields(keepsWrittenNames: true)
        return VCardParser.parse(source).cards.map { card in
            guard let record = fields.record(from: card) else {
                return Reading(fn: nil, n: nil, phones: [], emails: [], categories: [], isGroup: false, members: [])
            }
            var reading = Reading(fn: record.writtenFN, n: record.writtenN.map(fiveComponents), phones: [], emails: [],
                                  categories: record.categories.map(\.value), isGroup: false, members: [])
            switch record.content {
            case .contact(let contact):
                reading.phones = contact.phones.map(\.value)
                reading.emails = contact.emails.map(\.value)
            case .group(_, _, _, let members):
                reading.isGroup = true
                reading.members = members.map(\.value)
            }
            return reading
        }
    }

    /// What vobject read from one card, normalized as the suite's comment says.
    static func reading(_ card: [String: Any]) -> Reading {
        func strings(_ key: String) -> [String] { (card[key] as? [String]) ?? [] }
        func withoutScheme(_ text: String, _ scheme: String) -> String {
            let trimmed = text.trimmingWhitespace
            return trimmed.lowercased().hasPrefix(scheme) ? String(trimmed.dropFirst(scheme.count)) : trimmed
        }
        return Reading(
            fn: card["fn"] as? String,
            n: (card["n"] as? [[String]]).map(fiveComponents),
            phones: strings("phones").map { withoutScheme($0, "tel:") }.filter { !$0.isEmpty },
            emails: strings("emails").map { withoutScheme($0, "mailto:") }.filter { !$0.isEmpty },
            categories: strings("categories").map(\.trimmingWhitespace).filter { !$0.isEmpty },
            isGroup: card["kind"] as? String == "group",
            members: strings("members").map(\.trimmingWhitespace))
    }

    /// `N` as five components (family, given, additional, prefix, suffix); missing ones empty.
    static func fiveComponents(_ components: [[String]]) -> [[String]] {
        (0..<5).map { $0 < components.count ? components[$0] : [""] }
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, text: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let message = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self), String(decoding: message, as: UTF8.self))
    }
}
