import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs independent pieces of work on every core: workers take the next batch of indices from
/// a shared counter, so a slow page never leaves a core idle. The first error stops the rest
/// and is rethrown.
enum ParallelWork {
    /// How many workers run: one per available core.
    static let workers = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Calls `body` once for every index in `0..<count`, in no particular order.
    static func forEach(_ count: Int, batch: Int = 64, _ body: @Sendable (Int) throws -> Void) throws {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        let failure = Mutex<(any Error)?>(nil)
        let stop = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: min(workers, (count + batch - 1) / batch)) { _ in
            while !stop.load(ordering: .relaxed) {
                let start = next.wrappingAdd(batch, ordering: .relaxed).oldValue
                guard start < count else { return }
                for index in start..<min(start + batch, count) {
                    do {
                        try body(index)
                    } catch {
                        failure.withLock { if $0 == nil { $0 = error } }
                        stop.store(true, ordering: .relaxed)
                        return
                    }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// `transform` applied to every index in `0..<count` on every core; the results in order.
    static func map<Result: Sendable>(_ count: Int, batch: Int = 256,
                                      _ transform: @Sendable (Int) -> Result) -> [Result] {
        var results = [Result?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { buffer in
            // Each index is written by exactly one worker, so the slots never race.
            nonisolated(unsafe) let slots = buffer
            try? forEach(count, batch: batch) { index in slots[index] = transform(index) }
        }
        return results.map { $0! }
    }
}
