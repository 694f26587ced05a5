@testable import RolodeckBuild
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckCore
import Foundation
import Testing

/// The index of the files a build read, kept as a digest in the output's manifest: a build with
/// nothing to do tells so from the files' statuses, and any change to what a build reads makes
/// it read.
@Suite struct InputIndexTests {
    static let generator = Array("rolodeck test".utf8)
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    struct Case: Sendable, CustomTestStringConvertible {
        var label: String
        var edit: @Sendable (URL, URL) throws -> Void
        var today: PartialDate = InputIndexTests.today
        var generator: [UInt8] = InputIndexTests.generator
        var testDescription: String { label }
    }

    static func write(_ text: String, _ path: String, in folder: URL) throws {
        let url = folder.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    static let changes: [Case] = [
        Case(label: "a card saved with the same bytes") { site, _ in
            try write(#"{"id": "bo", "givenName": "Bo"}"#, "store/contacts/bo.json", in: site)
        },
        Case(label: "a card added") { site, _ in
            try write(#"{"id": "cy", "givenName": "Cy"}"#, "store/contacts/cy.json", in: site)
        },
        Case(label: "a card deleted") { site, _ in
            try FileManager.default.removeItem(at: site.appendingPathComponent("store/contacts/bo.json"))
        },
        Case(label: "a card with its extension in capitals added") { site, _ in
            let card = "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:fy\r\nFN:Fy\r\nEND:VCARD\r\n"
            try write(card, "store/book/fy.VCF", in: site)
        },
        Case(label: "a card changed in place, same size, same second") { site, _ in
            let path = site.appendingPathComponent("store/contacts/bo.json").path
            let before = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
            try write(#"{"id": "bo", "givenName": "BO"}"#, "store/contacts/bo.json", in: site)
            if let before {
                try FileManager.default.setAttributes([.modificationDate: before], ofItemAtPath: path)
            }
        },
        Case(label: "a collection's displayname added") { site, _ in
            try write("Work\n", "store/book/displayname", in: site)
        },
        Case(label: "a template added") { site, _ in
            try write("{{>layout}}", "Templates/todos.mustache", in: site)
        },
        Case(label: "a static file changed") { site, _ in
            try write("body { color: red }", "Public/extra.css", in: site)
        },
        Case(label: "the config added") { site, _ in
            try write(#"{"title": "T"}"#, "rolodeck.json", in: site)
        },
        Case(label: "another day", edit: { _, _ in }, today: PartialDate(year: 2026, month: 12, day: 1)),
        Case(label: "another generator", edit: { _, _ in }, generator: Array("rolodeck other".utf8)),
        Case(label: "a page of the output edited") { _, output in
            try write("<p>mine</p>", "index.html", in: output)
        },
    ]

    static func site() throws -> (site: URL, output: URL) {
        let scratch = try Fixtures.temporaryFolder()
        let site = scratch.appendingPathComponent("site")
        try write(#"[{"id": "ann", "givenName": "Ann"}]"#, "store/contacts.json", in: site)
        try write(#"{"id": "bo", "givenName": "Bo"}"#, "store/contacts/bo.json", in: site)
        try write("BEGIN:VCARD\r\nVERSION:3.0\r\nUID:ed\r\nFN:Ed\r\nEND:VCARD\r\n", "store/book/ed.vcf", in: site)
        try write("body { color: teal }", "Public/extra.css", in: site)
        return (site, scratch.appendingPathComponent("out"))
    }

    static func build(_ site: URL, _ output: URL, generator: [UInt8] = generator) -> SiteBuild {
        let build = SiteBuild(folder: site, displayPath: "site", generator: generator) { _ in output.path }
        // The files were just written: with no margin their statuses vouch for them at once.
        build.settleMargin = 0
        return build
    }

    /// The digest of the statuses the output's manifest records, if any.
    static func recordedStatuses(_ output: URL) throws -> String? {
        let manifest = try String(contentsOf: output.appendingPathComponent(".rolodeck"), encoding: .utf8)
        let lines = manifest.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.count > 2 && lines[2].hasPrefix("statuses ") ? String(lines[2].dropFirst(9)) : nil
    }

    @Test func aBuildWithNothingToDoTellsSoFromTheStatuses() throws {
        let (site, output) = try Self.site()
        guard case .published = Self.build(site, output).build(today: Self.today).outcome else {
            Issue.record("the first build did not publish")
            return
        }
        let statuses = try #require(try Self.recordedStatuses(output))
        let read = try #require(SiteReader(folder: site, displayPath: "site").survey())
        #expect(read.statuses.count == 4)
        let index = InputIndex(
            today: Self.today.description, generator: InputFingerprint.digest(Self.generator),
            files: read.statuses)
        #expect(statuses == index.digest)
        // Nothing beside the output: no lock file, no index.
        let beside = try FileManager.default.contentsOfDirectory(atPath: output.deletingLastPathComponent().path)
        #expect(beside.sorted() == ["out", "site"])
        let build = Self.build(site, output)
        let told = build.upToDateByStatus(today: Self.today, generator: InputFingerprint.digest(Self.generator))
        guard case .upToDate(let files) = told?.outcome else {
            Issue.record("the statuses did not vouch for the input: \(String(describing: told?.outcome))")
            return
        }
        guard case .upToDate(files) = build.build(today: Self.today).outcome else {
            Issue.record("the build did not find the output up to date")
            return
        }
    }

    @Test(arguments: changes)
    func anyChangeMakesTheBuildRead(_ change: Case) throws {
        let (site, output) = try Self.site()
        guard case .published = Self.build(site, output).build(today: Self.today).outcome else {
            Issue.record("the first build did not publish")
            return
        }
        try change.edit(site, output)
        let build = Self.build(site, output, generator: change.generator)
        #expect(build.upToDateByStatus(today: change.today, generator: InputFingerprint.digest(change.generator)) == nil)
        // The full build decides, and writes an index for the next one.
        let result = build.build(today: change.today)
        switch result.outcome {
        case .published, .upToDate: break
        default: Issue.record("\(change.label): \(result.outcome)")
        }
        #expect(build.upToDateByStatus(today: change.today, generator: InputFingerprint.digest(change.generator))
                != nil)
    }

    /// Files changed moments before they were read cannot vouch for themselves: the manifest
    /// records no statuses. The next build that finds the output up to date, once they are
    /// still, records them in place: the manifest is rewritten with its modification time, and
    /// nothing else changes.
    @Test func aBuildOfFreshFilesRecordsTheStatusesLater() throws {
        let (site, output) = try Self.site()
        let fresh = SiteBuild(folder: site, displayPath: "site", generator: Self.generator) { _ in output.path }
        guard case .published = fresh.build(today: Self.today).outcome else {
            Issue.record("the build did not publish")
            return
        }
        #expect(try Self.recordedStatuses(output) == nil)
        let manifest = output.appendingPathComponent(".rolodeck")
        let before = try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date
        let pages = try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
        guard case .upToDate = Self.build(site, output).build(today: Self.today).outcome else {
            Issue.record("the second build did not find the output up to date")
            return
        }
        #expect(try Self.recordedStatuses(output) != nil)
        #expect(try FileManager.default.attributesOfItem(atPath: manifest.path)[.modificationDate] as? Date == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() == pages)
        #expect(
            Self.build(site, output).upToDateByStatus(today: Self.today, generator: InputFingerprint.digest(Self.generator))
                != nil)
    }

    /// The files are summed in no order, so that they can be looked at on every core; a file
    /// counted twice is not the same as once, nor two files' statuses swapped.
    @Test func theFilesAreSummedInAnyOrder() {
        let files = (0..<50).map { number in
            ("site/store/contacts/\(number).json",
             FileStatus(device: 1, inode: UInt64(100 + number), size: Int64(number), modified: 7, changed: 8))
        }
        var forward = FileStatusDigest()
        for (path, status) in files { forward.add(status, path: path) }
        var halves = (FileStatusDigest(), FileStatusDigest())
        for (path, status) in files.reversed() {
            if status.inode % 2 == 0 {
                halves.0.add(status, path: path)
            } else {
                halves.1.add(status, path: path)
            }
        }
        halves.0.add(halves.1)
        #expect(halves.0 == forward)
        let dictionary = Dictionary(uniqueKeysWithValues: files)
        #expect(InputIndex(today: "d", generator: "g", statuses: dictionary).digest
                == InputIndex(today: "d", generator: "g", files: forward).digest)
        var twice = forward
        twice.add(files[0].1, path: files[0].0)
        #expect(twice != forward)
        var swapped = FileStatusDigest()
        for (index, (path, _)) in files.enumerated() {
            swapped.add(files[(index + 1) % files.count].1, path: path)
        }
        #expect(InputIndex(today: "d", generator: "g", files: swapped).digest
                != InputIndex(today: "d", generator: "g", files: forward).digest)
    }

    /// The digest changes with every part it covers, and only with them.
    @Test func theDigestCoversEveryStatusTheDateAndTheGenerator() {
        let statuses = [
            "site/store/a b.json": FileStatus(device: 1, inode: 2, size: 3, modified: 4, changed: 5),
            "site/Public/가.css": FileStatus(device: 9, inode: 8, size: 0, modified: -7, changed: 6),
        ]
        let index = InputIndex(today: "2026-11-30", generator: "beef", statuses: statuses)
        #expect(InputIndex(today: "2026-11-30", generator: "beef", statuses: statuses).digest == index.digest)
        var others: [InputIndex] = [
            InputIndex(today: "2026-12-01", generator: "beef", statuses: statuses),
            InputIndex(today: "2026-11-30", generator: "beee", statuses: statuses),
            InputIndex(today: "2026-11-30", generator: "beef", statuses: statuses.filter { $0.key.hasSuffix(".css") }),
        ]
        for field in 0..<5 {
            var changed = statuses
            var status = changed["site/store/a b.json"]!
            switch field {
            case 0: status.device += 1
            case 1: status.inode += 1
            case 2: status.size += 1
            case 3: status.modified += 1
            default: status.changed += 1
            }
            changed["site/store/a b.json"] = status
            others.append(InputIndex(today: "2026-11-30", generator: "beef", statuses: changed))
        }
        var renamed = statuses
        renamed["site/store/a c.json"] = renamed.removeValue(forKey: "site/store/a b.json")
        others.append(InputIndex(today: "2026-11-30", generator: "beef", statuses: renamed))
        for other in others {
            #expect(other.digest != index.digest, "\(other)")
        }
    }
}
