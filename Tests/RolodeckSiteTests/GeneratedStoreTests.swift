import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckSite
@testable import RolodeckCore

/// The store `../shared/tools/gen-store.py` writes is a valid store, read unchanged.
@Suite struct GeneratedStoreTests {
    static let generator = Fixtures.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/tools/gen-store.py")
    static let available = FileManager.default.fileExists(atPath: generator.path)

    @Test(.enabled(if: available, "../shared/tools/gen-store.py not found beside the package"))
    func generatedStoreLoadsWithoutAnyDiagnostic() throws {
        let folder = try Fixtures.temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Self.generator.path, "--contacts", "1500", "--seed", "7", "--out", folder.path]
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)

        let (input, warnings) = try SiteReader(folder: folder, displayPath: "gen").read()
        #expect(warnings.isEmpty)
        let (store, diagnostics) = StoreDecoder.decode(input.storeFiles)
        #expect(diagnostics.isEmpty, "\(diagnostics.prefix(5))")
        #expect(store.contacts.count == 1500)
        #expect(store.groups.count == 30)
        #expect(store.todos.count == 150)
        // The odd cases survive intact: decomposed text, markup-like names, right-to-left script.
        let names = Set(store.contacts.map { $0.givenName + " " + $0.familyName })
        #expect(names.contains("<b>Bold</b> O'Reilly & Sons") || names.contains { $0.contains("\u{308}") })

        // And the whole site renders, every contact with its own page.
        let site = try Site.load(input)
        let pages = Set(try site.renderFiles(today: PartialDate(year: 2026, month: 11, day: 30)).keys)
        #expect(pages.filter { $0.hasPrefix("contacts/") && $0.hasSuffix(".html") }.count == 1500)
        #expect(pages.filter { $0.hasPrefix("groups/") && $0.hasSuffix(".html") }.count == 30)
        // And a vCard beside each page.
        #expect(pages.filter { $0.hasPrefix("contacts/") && $0.hasSuffix(".vcf") }.count == 1500)
        #expect(pages.filter { $0.hasPrefix("groups/") && $0.hasSuffix(".vcf") }.count == 30)
    }
}
