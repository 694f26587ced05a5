import RolodeckTestSupport
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

    /// Patches `old` with `changes`, as a watch save does.
    static func patched(_ old: [UInt8], _ changes: [(path: String, size: Int?)]) -> [UInt8]? {
        var text = old
        return OutputManifest.patch(&text, fingerprint: "new", changes: changes) ? text : nil
    }

    @Test(arguments: [1, 2, 3, 4])
    func patchedSizesGiveTheManifestWrittenAnew(seed: UInt64) throws {
        var files = Self.listing(count: 400, seed: seed)
        var generator = SeededGenerator(seed: seed)
        let old = OutputManifest.bytes(fingerprint: "old", statuses: "digest", listing: files)
        var changed: [(path: String, size: Int?)] = []
        let picked = files.indices.shuffled(using: &generator).prefix(1 + Int(seed) * 7)
        for (number, index) in picked.enumerated() {
            // Shorter, longer and equal sizes, the first and last files among them.
            let size = [0, 7, 123_456_789, files[index].size][number % 4]
            files[index].size = size
            changed.append((files[index].path, size))
        }
        let first = OutputManifest.sorted(files).first!, last = OutputManifest.sorted(files).last!
        changed += [(first.path, first.size), (last.path, last.size)]
        let patched = try #require(Self.patched(old, changed))
        #expect(patched == OutputManifest.bytes(fingerprint: "new", listing: files))
    }

    /// Files added (before the first, after the last, several at one place) and removed are
    /// patched in and out, in the order a whole build lists them.
    @Test(arguments: [1, 2, 3, 4])
    func filesAddedAndRemovedGiveTheManifestWrittenAnew(seed: UInt64) throws {
        let all = Self.listing(count: 500, seed: seed)
        var generator = SeededGenerator(seed: seed)
        var files = Array(all.prefix(400))
        let old = OutputManifest.bytes(fingerprint: "old", listing: files)
        let sorted = OutputManifest.sorted(files)
        var changes: [(path: String, size: Int?)] = all.suffix(100).map { ($0.path, $0.size) }
        changes += [("!first.html", 1), ("!first-b.html", 5), ("~last.html", 2), ("~last-b.html", 6)]
        let others = files.shuffled(using: &generator).prefix(Int(seed) * 5).map(\.path)
        let removed = Set([sorted.first!.path, sorted.last!.path] + others)
        changes += removed.map { ($0, nil) }
        // A file removed that was never listed changes nothing.
        changes.append(("contacts/never.html", nil))
        files.removeAll { removed.contains($0.path) }
        files += changes.compactMap { change in change.size.map { (change.path, $0) } }
        let patched = try #require(Self.patched(old, changes.shuffled(using: &generator)))
        #expect(patched == OutputManifest.bytes(fingerprint: "new", listing: files))
    }

    /// Sizes of as many digits as they had are written where they lie, and so is a heading of
    /// the same length; anything else makes a new text. Either way the result is the same.
    @Test func sizesOfTheSameDigitsArePatchedWhereTheyLie() throws {
        var files = Self.listing(count: 300, seed: 5).map { (path: $0.path, size: 1_000 + $0.size % 9_000) }
        var text = OutputManifest.bytes(fingerprint: "old", listing: files)
        let address = text.withUnsafeBufferPointer { $0.baseAddress }
        files[7].size = 9_999
        files[70].size = 1_000
        #expect(
            OutputManifest.patch(
                &text, fingerprint: "new", changes: [(files[70].path, 1_000), (files[7].path, 9_999)]))
        #expect(text == OutputManifest.bytes(fingerprint: "new", listing: files))
        #expect(text.withUnsafeBufferPointer { $0.baseAddress } == address)
        files[8].size = 10_000
        #expect(OutputManifest.patch(&text, fingerprint: "new", changes: [(files[8].path, 10_000)]))
        #expect(text == OutputManifest.bytes(fingerprint: "new", listing: files))
    }

    @Test func textThatIsNotAManifestIsNotPatched() {
        var text = Array("not a manifest\n".utf8)
        #expect(!OutputManifest.patch(&text, fingerprint: "new", changes: [("a.html", 1)]))
        #expect(text == Array("not a manifest\n".utf8))
    }

    /// A manifest whose last line has lost its newline is patched as if it had it, whether that
    /// line changes, goes or stays, and files are added after it.
    @Test func aLastLineWithoutItsNewlineIsPatched() throws {
        var files = Self.listing(count: 20, seed: 3)
        var text = OutputManifest.bytes(fingerprint: "old", listing: files)
        text.removeLast()
        let last = OutputManifest.sorted(files).last!.path
        let index = files.firstIndex { $0.path == last }!
        files[index].size = 123_456_789_012
        var changed = try #require(Self.patched(text, [(last, 123_456_789_012)]))
        #expect(changed == OutputManifest.bytes(fingerprint: "new", listing: files))
        files.remove(at: index)
        changed = try #require(Self.patched(text, [(last, nil)]))
        #expect(changed == OutputManifest.bytes(fingerprint: "new", listing: files))
        files.append(("\u{10FFFF}.html", 5))
        changed = try #require(Self.patched(text, [(last, nil), ("\u{10FFFF}.html", 5)]))
        #expect(changed == OutputManifest.bytes(fingerprint: "new", listing: files))
    }

    /// A manifest whose lines are out of order, or whose last line has lost its newline
    /// (damaged by hand), is patched or refused, never a crash, whatever the changes.
    @Test(arguments: [1, 2, 3])
    func aManifestOutOfOrderIsNeverACrash(seed: UInt64) {
        let files = Self.listing(count: 60, seed: seed)
        let sorted = OutputManifest.bytes(fingerprint: "old", listing: files)
        let head = OutputManifest.head(fingerprint: "old", statuses: nil, photos: nil)
        let lines = sorted[head.count...].split(separator: UInt8(ascii: "\n"))
        var state = SeededGenerator(seed: seed)
        var patched = 0
        for _ in 0..<50 {
            var text = head
            for line in lines.shuffled(using: &state) { text += line + [UInt8(ascii: "\n")] }
            // And sometimes without the last newline.
            if state.next() % 2 == 0 { text.removeLast() }
            var changes: [(path: String, size: Int?)] = files.shuffled(using: &state).prefix(30).map {
                ($0.path, state.next() % 3 == 0 ? nil : 12)
            }
            changes += [("a-new.html", 1), ("zzz.html", 2), ("contacts/b.html", 3)]
            if OutputManifest.patch(&text, fingerprint: "new", changes: changes) {
                patched += 1
                #expect(OutputManifest(bytes: text)?.fingerprint == "new")
            }
        }
        #expect(patched > 0)
    }
}
