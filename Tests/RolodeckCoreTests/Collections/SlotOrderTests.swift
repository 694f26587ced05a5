import RolodeckTestSupport
import Testing
@testable import RolodeckCore

/// Ordering by slots is a stable sort by slot.
@Suite struct SlotOrderTests {
    @Test(arguments: [0, 1, 7, 1_000, 20_000])
    func itIsAStableSortBySlot(_ count: Int) {
        var random = SeededGenerator(seed: UInt64(count))
        let slots = 37
        let items = (0..<count).map { (slot: Int.random(in: 0..<slots, using: &random), order: $0) }
        let ordered = items.ordered(inSlots: slots) { $0.slot }
        let sorted = items.sorted { ($0.slot, $0.order) < ($1.slot, $1.order) }
        #expect(ordered.elementsEqual(sorted) { $0.slot == $1.slot && $0.order == $1.order })
    }

    @Test func elementsThatAreNotTrivialAreKeptWhole() {
        let words = ["pear", "fig", "apple", "kiwi", "plum", "date"]
        // By length: 3, 4, 5; within a length, in the order given.
        #expect(words.ordered(inSlots: 6) { $0.count } == ["fig", "pear", "kiwi", "plum", "date", "apple"])
    }
}
