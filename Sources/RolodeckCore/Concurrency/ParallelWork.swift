import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Runs independent pieces of work on every core: workers take the next batch of indices from
/// a shared counter, so a slow page never leaves a core idle. The first error stops the rest
/// and is rethrown.
public enum ParallelWork {
    /// How many workers run: one per available core.
    public static let workers = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

    /// Calls `body` once for every index in `0..<count`, in no particular order; throws the first
    /// error `body` throws, after the workers have stopped. A `body` that cannot throw makes a
    /// call that cannot either. Inlinable, like `map`, so that every stage's call is specialized
    /// for its closure.
    @inlinable
    public static func forEach<Failure: Error>(
        _ count: Int, batch: Int = 64, _ body: @Sendable (Int) throws(Failure) -> Void
    ) throws(Failure) {
        guard count > 0 else { return }
        let next = Atomic<Int>(0)
        let failure = Mutex<Failure?>(nil)
        let stop = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: min(workers, (count + batch - 1) / batch)) { _ in
            while !stop.load(ordering: .relaxed) {
                let start = next.wrappingAdd(batch, ordering: .relaxed).oldValue
                guard start < count else { return }
                for index in start..<min(start + batch, count) {
                    do throws(Failure) {
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

    /// Runs `background` on a thread of its own while `body` runs on this one, and returns once
    /// both are done. A thread, not a Dispatch worker, so that `body` can run `forEach` on
    /// every core (Dispatch gives a concurrentPerform inside another one fewer threads) and
    /// `background` may wait for work that needs a worker.
    public static func alongside(_ background: @Sendable () -> Void, _ body: () throws -> Void) rethrows {
        try withoutActuallyEscaping(background) { background in
            final class Work {
                let run: @Sendable () -> Void
                init(_ run: @escaping @Sendable () -> Void) { self.run = run }
            }
            let work = Unmanaged.passRetained(Work(background)).toOpaque()
            var thread = pthread_t()
            let created = pthread_create(
                &thread, nil,
                { pointer in
                    Unmanaged<Work>.fromOpaque(pointer!).takeRetainedValue().run()
                    return nil
                }, work)
            precondition(created == 0, "cannot start a thread: error \(created)")
            // The thread has let go of `background` when it ends, before this returns.
            defer { pthread_join(thread, nil) }
            try body()
        }
    }

    /// `alongside` for a `background` that may throw: once both are done, the error `body` threw,
    /// else the one `background` threw, is thrown.
    public static func alongside(
        throwing background: @Sendable () throws -> Void, _ body: () throws -> Void
    ) throws {
        let failure = Mutex<(any Error)?>(nil)
        try alongside(
            {
                do {
                    try background()
                } catch {
                    failure.withLock { $0 = error }
                }
            }, body)
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Whether `release` lets go of a value on a thread of its own (else on the caller's). The
    /// fuzz targets turn it off: LeakSanitizer, which libFuzzer runs after an input whose
    /// allocations and frees do not match, reports as leaked what a thread that has not yet
    /// run is about to free, now and then (a decoded vCard's categories, in 1 run of 20).
    public static let releasesAlongside = Atomic<Bool>(true)

    /// Moves `value` out, leaving `empty` in its place, and lets go of it on a thread of its own,
    /// which frees there whatever only it held while the caller goes on: a large structure freed
    /// object by object takes its time on one core, which need not be the core that has the next
    /// step to do. What `value` shared with anything the caller keeps stays alive, and is not
    /// unique until the thread is done: move such parts out of `value` first.
    public static func release<Value: Sendable>(_ value: inout Value, leaving empty: Value) {
        guard releasesAlongside.load(ordering: .relaxed) else {
            value = empty
            return
        }
        // The thread's reference is the box's only one once the thread starts (a local one
        // released after it would free the value here whenever the thread was done first).
        let box = Unmanaged.passRetained(Held(empty))
        // Swapped, not copied: this thread neither retains nor releases what `value` holds.
        swap(&box.takeUnretainedValue().value, &value)
        let held = box.toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { pointer in
                // Releasing the box frees the value, here.
                Unmanaged<AnyObject>.fromOpaque(pointer!).release()
                return nil
            }, held)
        if created == 0 {
            pthread_detach(thread)
        } else {
            // No thread: the value is freed here.
            Unmanaged<AnyObject>.fromOpaque(held).release()
        }
    }

    /// A value `release` hands to its thread.
    private final class Held<Value: Sendable>: @unchecked Sendable {
        /// What the thread frees; written only before the thread starts.
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    /// Makes `produce(index)` for every index in `0..<count` on every core and hands each result
    /// to `consume` on this thread, in index order, as soon as it and every one before it are
    /// made: the one-core work of taking results in order overlaps the making of later ones,
    /// where after a `map` it would start only once the last was made. Results are made and
    /// handed over a `batch` of indices at a time, and moved to `consume`, never copied.
    public static func inOrder<Result: Sendable>(
        _ count: Int, batch: Int = 64, _ produce: @Sendable (Int) -> Result,
        consume: (Int, consuming Result) -> Void
    ) {
        guard count > 0 else { return }
        let batches = (count + batch - 1) / batch
        let results = UnsafeMutablePointer<Result>.allocate(capacity: count)
        defer { results.deallocate() }
        // A batch's slots are written by the one worker that took it, before its semaphore is
        // signalled, and read here only after waiting on it.
        nonisolated(unsafe) let slots = results
        let made = (0..<batches).map { _ in DispatchSemaphore(value: 0) }
        alongside({
            forEach(batches, batch: 1) { part in
                for index in (part * batch)..<min(count, (part + 1) * batch) {
                    (slots + index).initialize(to: produce(index))
                }
                made[part].signal()
            }
        }) {
            // When this thread is ahead of the workers, it sleeps until a sixty-fourth of the
            // batches more are made, not only the next: once, not for each of thousands of
            // batches (a context switch each).
            let lead = batches / 64
            for part in 0..<batches {
                if made[part].wait(timeout: .now()) == .timedOut {
                    let later = min(part + lead, batches - 1)
                    if later > part {
                        made[later].wait()
                        made[later].signal()
                    }
                    made[part].wait()
                }
                for index in (part * batch)..<min(count, (part + 1) * batch) {
                    consume(index, (results + index).move())
                }
            }
        }
    }

    /// `transform` applied to every index in `0..<count` on every core; the results in order.
    @inlinable
    public static func map<Result: Sendable>(
        _ count: Int, batch: Int = 256, _ transform: @Sendable (Int) -> Result
    ) -> [Result] {
        // The results go straight into their places, not into optionals unwrapped afterwards,
        // which would copy every result once more on this core.
        [Result](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            // Each index is written by exactly one worker, so the slots never race; `transform`
            // cannot throw, so every slot is written.
            nonisolated(unsafe) let slots = buffer
            forEach(count, batch: batch) { index in
                (slots.baseAddress! + index).initialize(to: transform(index))
            }
            initializedCount = count
        }
    }
}
