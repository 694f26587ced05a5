import Dispatch
import Foundation
import Synchronization

extension SearchIndex {
    /// What a built index is made of.
    struct Content: Sendable {
        /// Every file, the root first.
        var files: [File]
        /// The hash piece URLs carry.
        var version: String
    }

    /// An index that is built, or being built on a thread of its own.
    public final class Build: Sendable {
        private let result: Mutex<Content?>
        private let finished = DispatchGroup()

        /// An index built already.
        init(_ content: Content) {
            result = Mutex(content)
        }

        /// Starts `make` on a new thread. A thread of its own, not a Dispatch worker: `make`
        /// runs on every core itself, and whoever waits for it may hold a worker.
        init(_ make: @escaping @Sendable () -> Content) {
            result = Mutex(nil)
            finished.enter()
            let thread = Thread { [self] in
                let content = make()
                result.withLock { $0 = content }
                finished.leave()
            }
            thread.name = "search index"
            thread.start()
        }

        /// The built index; waits for it.
        var content: Content {
            finished.wait()
            return result.withLock { $0! }
        }
    }
}
