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
        /// What the index was made of, kept by a watched index to be patched; nil otherwise.
        var kept: Kept?
    }

    /// Sorted entries (keys or hot prefixes) cut into pieces.
    struct Cut: Sendable {
        /// Each piece's JSON; emptied once made into a file, unless kept.
        var texts: [[UInt8]] = []
        /// The entries of each piece, by position.
        var ranges: [Range<Int>] = []
        /// The separators of the pieces (see `SearchSeparators`).
        var separators: [[UInt16]] = []

        /// The separators of pieces of the given `ranges` of entries, whose keys `key` gives.
        static func separators(of ranges: [Range<Int>], key: (Int) -> [UInt16]) -> [[UInt16]] {
            SearchSeparators.separators(
                firstKeys: ranges.map { key($0.lowerBound) }, lastKeys: ranges.map { key($0.upperBound - 1) })
        }
    }

    /// What a watched index keeps to be patched by the next save (`SearchIndex.patching`).
    struct Kept: Sendable {
        /// The sizes the pieces were cut to.
        var limits: Limits
        /// Every term.
        var table: SearchTermTable
        /// The term pieces.
        var terms: Cut
        /// The hot prefixes, sorted.
        var hotPrefixes: [[UInt16]]
        /// The hot pieces.
        var hot: Cut
        /// Each hot prefix's lists, one per tier, as the hot pieces encode them: a save that
        /// numbers contacts anew takes them from here, not decoding 4 MB of hot pieces again.
        var hotLists: [[[Int32]]]
        /// Every contact's result row, in directory order.
        var rows: [[UInt8]]
        /// The rows' bytes with a separator each, as `rowsPerPiece` counts them.
        var rowBytes: Int
        /// The hash of each piece's JSON, in `files` order after the root.
        var digests: [UInt64]
        /// How many term and hot entries were encoded to make the pieces: all of them in a whole
        /// build, those of the pieces it made anew in a patch.
        var encodedEntries: Int
        /// How many hot prefixes had their lists merged from the table: all of them in a whole
        /// build; in a patch, those hot only since the save.
        var mergedHotPrefixes: Int
        /// How many of the term entries encoded were copied from the old pieces (in a patch).
        var copiedEntries = 0
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

        /// The built index's files, and its version; waits for it. Asked once for each of the
        /// index's pages, they are taken alone, not with a copy of all it holds.
        var files: [File] {
            finished.wait()
            return result.withLock { $0!.files }
        }
        var version: String {
            finished.wait()
            return result.withLock { $0!.version }
        }

        /// Takes what the built index keeps to be patched, leaving it none (waits for it): the
        /// patch of the next save then changes it where it lies, as nothing else holds it. The
        /// index's files stay as they are.
        func takeKept() -> Kept? {
            finished.wait()
            return result.withLock { content in
                let kept = content?.kept
                content?.kept = nil
                return kept
            }
        }
    }
}
