import Dispatch
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
    }
}
