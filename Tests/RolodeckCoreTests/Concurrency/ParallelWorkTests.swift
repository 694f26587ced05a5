import Dispatch
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif
@testable import RolodeckCore

@Suite struct ParallelWorkTests {
    struct Failure: Error, Equatable {}

    /// The two run at the same time (each waits for the other), and `alongside` returns only
    /// once the background work is done.
    @Test func alongsideRunsBothAtOnceAndWaitsForTheBackground() {
        let started = DispatchSemaphore(value: 0), answered = DispatchSemaphore(value: 0)
        let log = Mutex<[String]>([])
        ParallelWork.alongside {
            let heard = started.wait(timeout: .now() + 30) == .success
            log.withLock { $0.append(heard ? "background heard body" : "background alone") }
            answered.signal()
        } _: {
            started.signal()
            let heard = answered.wait(timeout: .now() + 30) == .success
            log.withLock { $0.append(heard ? "body heard background" : "body alone") }
        }
        #expect(log.withLock { $0 } == ["background heard body", "body heard background"])
    }

    @Test func alongsideRethrowsAfterTheBackgroundIsDone() {
        let done = Mutex(false)
        #expect(throws: Failure()) {
            try ParallelWork.alongside {
                done.withLock { $0 = true }
            } _: {
                throw Failure()
            }
        }
        #expect(done.withLock { $0 })
    }

    /// A background that throws: its error comes out once both are done, unless the body threw
    /// one of its own; one that does not throw lets the call return.
    @Test func aThrowingBackgroundsErrorComesOutAfterBoth() throws {
        struct Other: Error, Equatable {}
        let bodyDone = Mutex(false)
        #expect(throws: Failure()) {
            try ParallelWork.alongside(throwing: { throw Failure() }) {
                bodyDone.withLock { $0 = true }
            }
        }
        #expect(bodyDone.withLock { $0 })
        #expect(throws: Other()) {
            try ParallelWork.alongside(throwing: { throw Failure() }) { throw Other() }
        }
        let backgroundDone = Mutex(false)
        try ParallelWork.alongside(throwing: { backgroundDone.withLock { $0 = true } }) {}
        #expect(backgroundDone.withLock { $0 })
    }

    /// Every result reaches `consume` once, in index order, on the calling thread, for counts
    /// that fill their last batch and counts that do not, and for none at all.
    @Test(arguments: [(0, 4), (1, 4), (12, 4), (13, 4), (1000, 16)])
    func inOrderHandsEveryResultOverInOrderOnThisThread(count: Int, batch: Int) {
        let caller = pthread_self()
        var consumed: [String] = []
        var elsewhere = 0
        ParallelWork.inOrder(count, batch: batch) { index in
            "result \(index)"
        } consume: { index, result in
            if pthread_equal(pthread_self(), caller) == 0 { elsewhere += 1 }
            consumed.append("\(index): \(result)")
        }
        #expect(consumed == (0..<count).map { "\($0): result \($0)" })
        #expect(elsewhere == 0)
    }

    /// A consumer that keeps catching up with slow workers (and then waits for a batch further
    /// on, not only the next) still gets every result once, in order. Run on a thread of its
    /// own, so that a call that never returned fails the test instead of hanging it.
    @Test func inOrderCatchingUpWithSlowWorkersStillTakesEveryResult() {
        let consumed = Mutex<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            ParallelWork.inOrder(2000, batch: 1) { index -> Int in
                usleep(20)
                return index
            } consume: { _, result in
                consumed.withLock { $0.append(result) }
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(consumed.withLock { $0 } == Array(0..<2000))
    }

    /// The first batch is consumed while a later one is still being made: the last result waits
    /// for the first to be consumed (a call that consumed only once all were made would wait
    /// for nothing, and time out).
    @Test func inOrderConsumesWhileLaterResultsAreMade() {
        let firstConsumed = DispatchSemaphore(value: 0)
        var heard: [Bool] = []
        ParallelWork.inOrder(8, batch: 1) { index -> Bool in
            guard index == 7 else { return true }
            return firstConsumed.wait(timeout: .now() + 30) == .success
        } consume: { index, madeInTime in
            if index == 0 { firstConsumed.signal() }
            heard.append(madeInTime)
        }
        #expect(heard == Array(repeating: true, count: 8))
    }

    /// Results are moved to `consume`, not copied: nothing else holds one, so each is freed
    /// when its turn is over, before the next is handed over.
    @Test func inOrderMovesEachResultToConsume() {
        let freed = Mutex(0)
        var freedBefore: [Int] = []
        ParallelWork.inOrder(100, batch: 7) { _ in
            Witness { freed.withLock { $0 += 1 } }
        } consume: { _, witness in
            freedBefore.append(freed.withLock { $0 })
            _ = witness
        }
        #expect(freedBefore == Array(0..<100))
        #expect(freed.withLock { $0 } == 100)
    }

    /// Says which thread freed it.
    final class Witness: Sendable {
        let freed: @Sendable () -> Void
        init(_ freed: @escaping @Sendable () -> Void) { self.freed = freed }
        deinit { freed() }
    }

    /// `release` leaves the empty value in the caller's place and frees what it moved out on a
    /// thread of its own.
    @Test func releaseLeavesTheEmptyValueAndFreesTheRestOnAnotherThread() {
        let freed = DispatchSemaphore(value: 0)
        let freedOn = Mutex<pthread_t?>(nil)
        var value = [Witness {
            freedOn.withLock { $0 = pthread_self() }
            freed.signal()
        }]
        ParallelWork.release(&value, leaving: [])
        #expect(value.isEmpty)
        #expect(freed.wait(timeout: .now() + 30) == .success)
        let thread = freedOn.withLock { $0 }
        #expect(thread != nil && thread != pthread_self())
        // Turned off (as the fuzz targets do), it frees here, before it returns. In this test,
        // not one of its own, so that the check above never runs while it is off.
        ParallelWork.releasesAlongside.store(false, ordering: .relaxed)
        defer { ParallelWork.releasesAlongside.store(true, ordering: .relaxed) }
        let freedHere = Mutex<pthread_t?>(nil)
        var other = [Witness { freedHere.withLock { $0 = pthread_self() } }]
        ParallelWork.release(&other, leaving: [])
        #expect(other.isEmpty)
        #expect(freedHere.withLock { $0 } == pthread_self())
    }
}
