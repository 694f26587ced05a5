import Testing
@testable import RolodeckPublish

/// A manifest patched with new sizes is the manifest written anew for the same files.
@Suite struct OutputManifestPatchingTests {
    /// Paths of several depths and scripts, some sharing long prefixes, with sizes.
    static func listing(count: Int, seed: UInt64) -> [(path: String, size: Int)] {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let folders = ["", "contacts/", "groups/", "groups/tennis/", "search/", "sections/", "photos/"]
        let names = ["a", "kim-minjun", "müller", "김철수", "z", "index", "r", "t1", "t10", "t2"]
        var seen: Set<String> = []
        var files: [(path: String, size: Int)] = []
        while files.count < count {
            let path = folders[next(folders.count)] + names[next(names.count)] + "-\(next(500)).html"
            if seen.insert(path).inserted { files.append((path, next(3) == 0 ? 0 : next(2_000_000))) }
        }
        return files
    }

    @Test(arguments: [1, 2, 3, 4])
    func patchedSizesGiveTheManifestWrittenAnew(seed: UInt64) throws {
        var files = Self.listing(count: 400, seed: seed)
        let old = OutputManifest.bytes(fingerprint: "old", statuses: "digest", listing: files)
        var changed: [(path: String, size: Int)] = []
        for (number, index) in files.indices.shuffled().prefix(1 + Int(seed) * 7).enumerated() {
            // Shorter, longer and equal sizes, the first and last files among them.
            let size = [0, 7, 123_456_789, files[index].size][number % 4]
            files[index].size = size
            changed.append((files[index].path, size))
        }
        let first = OutputManifest.sorted(files).first!, last = OutputManifest.sorted(files).last!
        changed += [(first.path, first.size), (last.path, last.size)]
        let patched = try #require(OutputManifest.patching(old, fingerprint: "new", sizes: changed))
        #expect(patched == OutputManifest.bytes(fingerprint: "new", listing: files))
    }

    @Test func aFileTheManifestDoesNotListIsNotPatchedIn() {
        let files = Self.listing(count: 50, seed: 9)
        let old = OutputManifest.bytes(fingerprint: "old", listing: files)
        #expect(OutputManifest.patching(old, fingerprint: "new", sizes: [("contacts/new.html", 10)]) == nil)
        #expect(OutputManifest.patching(Array("not a manifest\n".utf8), fingerprint: "new", sizes: []) == nil)
    }
}
