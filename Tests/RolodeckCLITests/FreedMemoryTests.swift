import Testing
@testable import RolodeckCLI

/// What `watch` tells jemalloc: keep freed memory for the next rebuild, in the default of the
/// arenas to come and in every arena there is. The test process has no jemalloc, so the control
/// function is a recording stand-in.
@Suite struct FreedMemoryTests {
    @Test func everyArenaAndTheDefaultKeepWhatIsFreed() {
        var set: [String: Int] = [:]
        var reads: [String] = []
        FreedMemory.keep { name, read, readLength, write, writeLength in
            if let read, let readLength {
                reads.append(name)
                guard name == "arenas.narenas", readLength.pointee == MemoryLayout<UInt32>.size else {
                    return 2
                }
                read.storeBytes(of: 3, as: UInt32.self)
                return 0
            }
            guard let write, writeLength == MemoryLayout<Int>.size else { return 22 }
            set[name] = write.load(as: Int.self)
            return 0
        }
        #expect(reads == ["arenas.narenas"])
        #expect(
            set == [
                "arenas.dirty_decay_ms": -1, "arena.0.dirty_decay_ms": -1, "arena.1.dirty_decay_ms": -1,
                "arena.2.dirty_decay_ms": -1,
            ])
    }

    /// Without the count of arenas, only the default is set.
    @Test func anUnreadableCountSetsTheDefaultOnly() {
        var set: [String] = []
        FreedMemory.keep { name, read, _, _, _ in
            if read != nil { return 2 }
            set.append(name)
            return 0
        }
        #expect(set == ["arenas.dirty_decay_ms"])
    }

    /// Once idle, a watch purges the freed pages of every arena at once.
    @Test func givingBackPurgesEveryArena() {
        var calls: [String] = []
        FreedMemory.giveBack { name, read, readLength, write, writeLength in
            #expect(read == nil && readLength == nil && write == nil && writeLength == 0)
            calls.append(name)
            return 0
        }
        #expect(calls == ["arena.4096.purge"])
    }
}
