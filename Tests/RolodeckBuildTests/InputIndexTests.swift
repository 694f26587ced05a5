@testable import RolodeckBuild
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckCore
import Foundation
import Testing

/// The index of the files a build read, kept beside the output: a build with nothing to do
/// tells so from the files' statuses, and any change to what a build reads makes it read.
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

    @Test func aBuildWithNothingToDoTellsSoFromTheStatuses() throws {
        let (site, output) = try Self.site()
        guard case .published = Self.build(site, output).build(today: Self.today).outcome else {
            Issue.record("the first build did not publish")
            return
        }
        let index = try #require(InputIndex.load(besides: output.path))
        #expect(index.statuses.count == 4)
        #expect(index.statuses.keys.contains { $0.hasSuffix("store/book/ed.vcf") })
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

    /// Files changed moments before they were read cannot vouch for themselves: no index.
    @Test func aBuildOfFreshFilesKeepsNoIndex() throws {
        let (site, output) = try Self.site()
        let build = SiteBuild(folder: site, displayPath: "site", generator: Self.generator) { _ in output.path }
        guard case .published = build.build(today: Self.today).outcome else {
            Issue.record("the build did not publish")
            return
        }
        #expect(InputIndex.load(besides: output.path) == nil)
    }

    @Test func anIndexReadsBackAsWritten() {
        let index = InputIndex(
            fingerprint: "f00d", today: "2026-11-30", generator: "beef",
            statuses: ["site/store/a b.json": FileStatus(device: 1, inode: 2, size: 3, modified: 4, changed: 5),
                       "site/Public/가.css": FileStatus(device: 9, inode: 8, size: 0, modified: -7, changed: 6)])
        #expect(InputIndex(bytes: index.bytes) == index)
        #expect(InputIndex(bytes: Array(index.bytes.dropFirst())) == nil)
        #expect(InputIndex(bytes: index.bytes + Array("1 2 x 4 5 p\n".utf8)) == nil)
        #expect(InputIndex.path(besides: "out/site/") == "out/.site.rolodeck-inputs")
        #expect(InputIndex.path(besides: "/srv/www") == "/srv/.www.rolodeck-inputs")
        #expect(InputIndex.path(besides: "_site") == "._site.rolodeck-inputs")
    }
}
