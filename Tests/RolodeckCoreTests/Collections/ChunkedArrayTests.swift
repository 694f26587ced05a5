import Testing
@testable import RolodeckCore

/// A chunked array reads and writes as an array does, across its chunks' ends, and a copy
/// changed is another array.
@Suite struct ChunkedArrayTests {
    /// Sizes at and around the ends of chunks of 4,096.
    static let sizes = [0, 1, 4_095, 4_096, 4_097, 8_192, 10_000]

    @Test(arguments: sizes)
    func itHoldsWhatAnArrayHolds(_ size: Int) {
        let array = (0..<size).map { "item \($0)" }
        let chunked = ChunkedArray(array)
        #expect(chunked.count == size)
        #expect(chunked.isEmpty == array.isEmpty)
        #expect(Array(chunked) == array)
        #expect(chunked.indices == array.indices)
        for index in [0, size / 2, size - 1] where array.indices.contains(index) {
            #expect(chunked[index] == array[index])
        }
    }

    @Test(arguments: sizes.filter { $0 > 0 })
    func aChangedCopyLeavesTheOriginalAsItWas(_ size: Int) {
        let original = ChunkedArray((0..<size).map { "item \($0)" })
        var copy = original
        for index in Set([0, size / 2, size - 1]) {
            copy[index] += " changed"
        }
        for index in Set([0, size / 2, size - 1]) {
            #expect(original[index] == "item \(index)")
            #expect(copy[index] == "item \(index) changed")
        }
        let unchanged = (0..<size).filter { ![0, size / 2, size - 1].contains($0) }
        #expect(unchanged.allSatisfy { copy[$0] == original[$0] })
    }

    @Test func elementsAreChangedInPlaceAndAppendedAfterAFullChunk() {
        var chunked = ChunkedArray<Int>()
        for value in 0..<4_096 { chunked.append(value) }
        chunked.append(4_096)
        chunked[4_096] *= 2
        chunked[4_095] = -1
        #expect(chunked.count == 4_097)
        #expect(chunked[4_096] == 8_192)
        #expect(chunked[4_095] == -1)
        let expected: Int = (0..<4_095).reduce(0, +) - 1 + 8_192
        #expect(chunked.reduce(0, +) == expected)
    }

    /// A copy changed here and there shares the chunks it did not change, and names the others;
    /// what it gained at its end, and a list made afresh, share nothing.
    @Test func theChunksACopyDidNotChangeAreShared() {
        let original = ChunkedArray((0..<10_000).map { "item \($0)" })
        #expect(original.rangesNotShared(with: original).isEmpty)
        var copy = original
        #expect(copy.rangesNotShared(with: original).isEmpty)
        copy[5_000] += " changed"
        #expect(copy.rangesNotShared(with: original) == [4_096..<8_192])
        copy[8_191] += " changed"
        copy[8_192] += " changed"
        // Neighbouring chunks make one range; the last chunk ends where the array does.
        #expect(copy.rangesNotShared(with: original) == [4_096..<10_000])
        var longer = original
        longer[0] += " changed"
        for value in 0..<3_000 { longer.append("more \(value)") }
        #expect(longer.rangesNotShared(with: original) == [0..<4_096, 8_192..<13_000])
        #expect(original.rangesNotShared(with: longer) == [0..<4_096, 8_192..<10_000])
        let afresh = ChunkedArray((0..<10_000).map { "item \($0)" })
        #expect(afresh.rangesNotShared(with: original) == [0..<10_000])
        #expect(original.rangesNotShared(with: []) == [0..<10_000])
        let literal: ChunkedArray = ["a", "b"]
        #expect(Array(literal) == ["a", "b"])
    }
}
