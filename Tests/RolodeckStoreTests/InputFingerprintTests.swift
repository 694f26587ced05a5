import Testing
@testable import RolodeckStore
@testable import RolodeckCore

@Suite struct InputFingerprintTests {
    private func digest(_ parts: [[UInt8]]) -> String {
        var hasher = InputFingerprint()
        for part in parts { hasher.add(part) }
        return hasher.hex
    }

    @Test func everyFlippedBitChangesTheDigest() {
        // Lengths around the 8-byte words and the 32-byte blocks, so the flipped bit lands in
        // every lane of a block, in whole words after the blocks and in tails.
        for length in Array(1...19) + [31, 32, 33, 40, 63, 64, 65, 100] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let original = digest([bytes])
            var seen: Set<String> = [original]
            for position in 0..<length {
                for bit in 0..<8 {
                    var changed = bytes
                    changed[position] ^= 1 << bit
                    seen.insert(digest([changed]))
                }
            }
            #expect(seen.count == 1 + length * 8, "length \(length)")
        }
    }

    @Test func partsCannotRunIntoEachOther() {
        let digests = [
            digest([[1, 2, 3], [4]]), digest([[1, 2], [3, 4]]), digest([[1, 2, 3, 4]]),
            digest([[1, 2, 3, 4], []]),
            digest([[1, 2, 3, 4, 0]]), digest([[]]), digest([]),
        ]
        #expect(Set(digests).count == digests.count)
    }

    /// A watched site's fingerprint takes the digests of the files it did not read again from
    /// the last rebuild: it must be the fingerprint a whole build makes of the same input, and
    /// change with any file that changed, wherever it is.
    @Test func aWatchedFingerprintIsTheOneAWholeBuildMakes() {
        func file(_ name: String, _ text: String) -> StoreFile {
            StoreFile(
                kind: .contact, layout: .single,
                source: SourceText(path: "store/contacts/\(name).json", text: text))
        }
        let today = PartialDate(year: 2026, month: 12, day: 5)
        var files = (0..<200).map { file("c\($0)", #"{"id": "c\#($0)", "givenName": "Name \#($0)"}"#) }
        let digests = StoreDigests()
        func fingerprints() -> (watched: String, whole: String) {
            let input = SiteInput(storeFiles: files)
            return (
                InputFingerprint.of(input, today: today, generator: [1], storeDigests: digests),
                InputFingerprint.of(input, today: today, generator: [1])
            )
        }
        var seen: Set<String> = []
        for edit in [nil, 0, 117, 199, 117] as [Int?] {
            if let edit {
                files[edit] = file("c\(edit)", #"{"id": "c\#(edit)", "givenName": "Edited \#(seen.count)"}"#)
            }
            let (watched, whole) = fingerprints()
            #expect(watched == whole, "after editing \(edit.map(String.init) ?? "nothing")")
            seen.insert(whole)
        }
        #expect(seen.count == 5)
        // A file that moved to another place is hashed at its new place.
        files.swapAt(3, 4)
        let (watched, whole) = fingerprints()
        #expect(watched == whole && !seen.contains(whole))
    }

    @Test func theDigestIsTheSameEveryTime() {
        let parts: [[UInt8]] = [Array("config".utf8), Array(repeating: 7, count: 1000)]
        #expect(digest(parts) == digest(parts))
        #expect(digest(parts).count == 32 && digest(parts).allSatisfy(\.isHexDigit))
    }
}
