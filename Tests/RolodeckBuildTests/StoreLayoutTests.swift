import Foundation
import Testing
@testable import RolodeckBuild
@testable import RolodeckCore
@testable import RolodeckPublish
@testable import RolodeckTestSupport

/// The same contacts kept as one array file (`store/contacts.json`) and as one file each
/// (`store/contacts/<id>.json`) build the same site: every page and file byte for byte, and the
/// same list of files in the manifest, whose input fingerprint alone differs (it hashes the
/// store's file paths). The files are read in name order, which is not the array's order, so
/// an output that followed the reading order would differ.
@Suite struct StoreLayoutTests {
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    /// Builds the site in `folder` whole into `output`, as `rolodeck build` does.
    static func build(_ folder: URL, into output: URL) -> BuildResult {
        let build = SiteBuild(
            folder: folder, displayPath: "site", generator: SiteBuildRebuildTests.generator,
            output: { _ in output.path })
        return build.build(today: today)
    }

    /// Builds the sites in `one` and `other` and checks that they come out the same; each must
    /// have `contacts` contacts.
    static func expectSameSite(_ one: URL, _ other: URL, contacts: Int) throws {
        let outputs = [one, other].map {
            $0.deletingLastPathComponent().appendingPathComponent("out-" + $0.lastPathComponent)
        }
        for (site, output) in zip([one, other], outputs) {
            let result = build(site, into: output)
            guard case .published = result.outcome else {
                Issue.record("\(site.lastPathComponent) did not publish: \(result.outcome)")
                return
            }
            #expect(result.counts.contacts == contacts, "\(site.lastPathComponent)")
        }
        let trees = try outputs.map(SiteBuildRebuildTests.tree)
        #expect(
            Set(trees[0].keys) == Set(trees[1].keys),
            "only in one: \(Set(trees[0].keys).symmetricDifference(trees[1].keys).sorted())")
        let files = trees[0].filter { $0.value != nil && $0.key != Publisher.markerName }
        #expect(files.keys.filter { $0.hasPrefix("contacts/") && $0.hasSuffix(".html") }.count == contacts)
        for (path, bytes) in files where trees[1][path] != bytes {
            Issue.record("\(path) differs")
        }
        let manifests = try outputs.map { output in
            try #require(
                OutputManifest(
                    bytes: Array(Data(contentsOf: output.appendingPathComponent(Publisher.markerName)))))
        }
        #expect(Set(manifests[0].files.map(\.path)) == Set(files.keys))
        #expect(
            manifests[0].files.elementsEqual(manifests[1].files) { $0 == $1 },
            "the manifests list different files")
    }

    /// The ids of the contacts in `store/contacts/` as they are read: by file name.
    static func idsInReadingOrder(_ site: URL) throws -> [String] {
        let folder = site.appendingPathComponent("store/contacts")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let data = try Data(contentsOf: folder.appendingPathComponent(name))
            return (try JSONSerialization.jsonObject(with: data) as! [String: Any])["id"] as! String
        }
    }

    /// The demo's 80 contacts in one file each, and half of them (the first 40 in `contacts.json`,
    /// the rest in files beside it).
    @Test(arguments: [0, 40]) func theDemoWithAFilePerContactBuildsTheSameSite(keptInArray: Int) throws {
        let scratch = try Fixtures.temporaryFolder()
        let array = scratch.appendingPathComponent("array")
        let files = scratch.appendingPathComponent("files")
        try FileManager.default.copyItem(at: DemoStoreLayouts.demo, to: array)
        try DemoStoreLayouts.copyWithContactFiles(to: files, keptInArray: keptInArray)
        let ids = try DemoStoreLayouts.contacts().map { $0["id"] as! String }
        let read = try Self.idsInReadingOrder(files)
        #expect(Set(read) == Set(ids.dropFirst(keptInArray)))
        #expect(read != Array(ids.dropFirst(keptInArray)), "the files are read in the array's order")
        try Self.expectSameSite(array, files, contacts: 80)
    }

    /// 400 contacts from `gen-store.py` with the same seed, written with `--layout array` and
    /// `--layout files`.
    @Test(
        .enabled(
            if: Fixtures.storeGenerator != nil, "../shared/tools/gen-store.py not found beside the package"))
    func aGeneratedStoreWithAFilePerContactBuildsTheSameSite() throws {
        let scratch = try Fixtures.temporaryFolder()
        let array = scratch.appendingPathComponent("array")
        let files = scratch.appendingPathComponent("files")
        try Fixtures.generateStore(into: array, contacts: 400, seed: 17, layout: "array")
        try Fixtures.generateStore(into: files, contacts: 400, seed: 17, layout: "files")
        #expect(
            !FileManager.default.fileExists(atPath: files.appendingPathComponent("store/contacts.json").path))
        let data = try Data(contentsOf: array.appendingPathComponent("store/contacts.json"))
        let ids = (try JSONSerialization.jsonObject(with: data) as! [[String: Any]]).map {
            $0["id"] as! String
        }
        let read = try Self.idsInReadingOrder(files)
        #expect(Set(read) == Set(ids) && read.count == 400)
        #expect(read != ids, "the files are read in the array's order")
        try Self.expectSameSite(array, files, contacts: 400)
    }
}
