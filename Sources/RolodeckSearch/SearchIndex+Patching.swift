import ByteKernels
import RolodeckCore
import RolodeckPlan

// `rolodeck watch` saves one contact at a time. When the contacts keep their places (the
// directory was patched, not planned anew), the index of the last save is patched: only the
// changed contacts' terms are collected, the term table is edited in place of merged and
// sorted, and only the pieces whose entries changed are encoded again. When a few contacts
// moved, came or went (a name changed, a card added), the table's contacts are numbered anew
// first, and the entries whose numbers changed are encoded again. The result is byte for byte
// the index a whole build makes; the watch tests compare the two after every kind of edit.
extension SearchIndex {
    /// What an index is patched from: the last save's index, the directory it was built from,
    /// and where the entries that changed since stand.
    public struct Base: Sendable {
        /// The last save's index.
        let index: SearchIndex
        /// The directory `index` was built from.
        let directory: Directory
        /// The positions of the entries that changed in place, ascending: every other entry is
        /// the one at the same position in `directory`. Empty when `moves` says where they are.
        let changedEntries: [Int]
        /// Where the entries stand, when they did not all keep their places; nil when they did.
        let moves: Moves?
        /// Whether the entries can be told apart this way: the places given were in order.
        let isValid: Bool

        /// A base of `index`, built from `directory`, for a directory whose entries at
        /// `changedEntries` changed and whose others are the same.
        public init(index: SearchIndex, directory: Directory, changedEntries: [Int]) {
            self.index = index
            self.directory = directory
            self.changedEntries = changedEntries.sorted()
            moves = nil
            isValid = true
        }

        /// A base of `index`, built from `directory`, for a directory whose entry `i` is the
        /// entry at `places[i]` in `directory`, unchanged (the same contact, name, path and
        /// groups), or none of them when `places[i]` is nil. The places must ascend, as a
        /// directory planned anew keeps the order of the entries it did not change.
        public init(index: SearchIndex, directory: Directory, places: [Int?]) {
            self.index = index
            self.directory = directory
            let moves = Moves(places: places, oldCount: directory.entries.count)
            isValid = moves != nil
            if let moves, moves.keepsPlaces(newCount: places.count) {
                changedEntries = moves.added
                self.moves = nil
            } else {
                changedEntries = []
                self.moves = moves
            }
        }
    }

    /// Where the entries of a directory planned anew stand against those of the last save's.
    struct Moves: Sendable {
        /// Each new entry's old position, when it is an old entry unchanged.
        let places: [Int?]
        /// Each old entry's new position; for one that no new entry is, `-1 - ` its old
        /// position, a number of its own that no contact has.
        let newNumbers: [Int32]
        /// The new entries that are no old one (moved here, added, or changed), ascending.
        let added: [Int]
        /// The old entries that no new one is (moved away, removed, or changed), ascending.
        let gone: [Int]

        /// The moves of `places`, for `oldCount` old entries; nil when the places do not ascend
        /// or lie outside the old entries.
        init?(places: [Int?], oldCount: Int) {
            var newNumbers = [Int32](repeating: -1, count: oldCount)
            var added: [Int] = []
            var last = -1
            for (index, place) in places.enumerated() {
                guard let place else {
                    added.append(index)
                    continue
                }
                guard place > last, place < oldCount else { return nil }
                newNumbers[place] = Int32(index)
                last = place
            }
            var gone: [Int] = []
            for (place, number) in newNumbers.enumerated() where number < 0 {
                newNumbers[place] = Int32(-1 - place)
                gone.append(place)
            }
            self.places = places
            self.newNumbers = newNumbers
            self.added = added
            self.gone = gone
        }

        /// The ascending `list` of old numbers with each number made new, those gone left out:
        /// ascending still, as the entries kept keep their order.
        func renumbered(_ list: [Int32]) -> [Int32] {
            var result: [Int32] = []
            result.reserveCapacity(list.count)
            for contact in list {
                let number = newNumbers[Int(contact)]
                if number >= 0 { result.append(number) }
            }
            return result
        }

        /// Whether every entry keeps its place, those changed in place being no other's.
        func keepsPlaces(newCount: Int) -> Bool {
            newCount == newNumbers.count && added == gone
                && places.enumerated().allSatisfy { $0.element == nil || $0.element == $0.offset }
        }
    }

    /// The index of `directory` made by patching `base`'s; nil when that index kept nothing to
    /// be patched, or was built with other settings, or the base's entries cannot be told
    /// apart. What the base's index kept is taken from it and changed where it lies: a base is
    /// patched once.
    static func patched(_ base: Base, directory: Directory, listRows: SearchListRows?) -> Content? {
        guard base.isValid, var kept = base.index.build.takeKept() else { return nil }
        let old = base.index.build.content
        let oldCount = base.directory.entries.count
        guard base.directory.config == directory.config, !directory.entries.isEmpty,
            kept.table.contactCount == oldCount,
            base.moves.map({ $0.places.count == directory.entries.count })
                ?? (oldCount == directory.entries.count)
        else { return nil }
        let limits = kept.limits
        let oldKeyCount = kept.table.count
        var changes = SearchTermTable.Changes()
        let edits: [SearchTermTable.KeyEdit], changedTerms: [ChangedTerms]
        if let moves = base.moves {
            // Every contact gets its new number, then those gone lose their terms and those
            // added get theirs: the keys whose numbers changed are encoded again with them.
            let renumbered = kept.table.renumber(moves.newNumbers, contactCount: directory.entries.count)
            let made = moveEdits(base.directory, moves, directory: directory)
            // Every posting numbered as gone must go, or the table would list it.
            guard made.removedPostings == renumbered.negative else { return nil }
            (edits, changedTerms) = (made.edits, made.added)
            if !edits.isEmpty { changes = kept.table.patch(edits) }
            changes.changed = Self.union(changes.changed, renumbered.keys, less: changes.removed)
        } else {
            (edits, changedTerms) = keyEdits(base, directory: directory)
            // A save that changes no term (an address, a note) keeps the table as it is.
            if !edits.isEmpty { changes = kept.table.patch(edits) }
        }
        let table = kept.table
        var oldTerms = OldTermEntries(kept.terms, changes: changes, oldCount: oldKeyCount)

        var encoding = SearchEntryEncoding()
        var encoded = 0, merged = 0, copied = 0
        let (terms, termSources) = recut(
            kept.terms, count: table.count, limit: limits.termPieceBytes, atLeastOne: true, changes: changes,
            key: { Array(table.key($0)) }
        ) { index in
            // Entries that keep their postings and the key before them keep their bytes: as
            // many as the piece takes are copied at once.
            if encoding.byteCount > 0, let run = oldTerms.run(from: index) {
                let ends = oldTerms.ends, first = ends[run.entries.lowerBound]
                let room = limits.termPieceBytes - encoding.byteCount
                var end = run.entries.lowerBound + 1
                while end < run.entries.upperBound, ends[end] - first < room { end += 1 }
                let last = index + end - 1 - run.entries.lowerBound
                table.withKey(last) { key in
                    run.text[first..<ends[end]].withUnsafeBufferPointer {
                        encoding.append(encoded: $0, key: key)
                    }
                }
                copied += end - run.entries.lowerBound
                encoded += end - run.entries.lowerBound
                return (last, encoding.byteCount)
            }
            encoding.append(key: index, of: table)
            encoded += 1
            return (index, encoding.byteCount)
        } finish: {
            encoding.finishPiece(prefix: termPrefix, suffix: entrySuffix)
        }
        let hotPrefixes = SearchSeparators.hotPrefixes(of: terms.separators)
        var scratch = SearchTermTable.MergeScratch(contactCount: table.contactCount)
        // A hot prefix's lists change only where a changed contact's best tier under it does,
        // or, when contacts moved, where its contacts were numbered anew: every prefix's lists
        // are then taken as numbered anew.
        let editedKeys = edits.map(\.key)
        var hotMoves: [[UInt16]: [HotMove]] = [:]
        let hotEdits = hotChanges(kept.hotPrefixes, hotPrefixes) { prefix in
            guard editedKeys.contains(where: { $0.starts(with: prefix) }) else { return base.moves != nil }
            let found = Self.hotMoves(under: prefix, changedTerms)
            hotMoves[prefix] = found.isEmpty ? nil : found
            return !found.isEmpty || base.moves != nil
        }
        // Each prefix's lists start as the last save's: those of a piece kept are the same.
        let oldHotPositions = positions(of: hotPrefixes, among: kept.hotPrefixes)
        var hotLists = oldHotPositions.map { $0.map { kept.hotLists[$0] } ?? [] }
        kept.hotLists = []
        let (hot, hotSources) = recut(
            kept.hot, count: hotPrefixes.count, limit: limits.hotPieceBytes, atLeastOne: false,
            changes: hotEdits, key: { hotPrefixes[$0] }
        ) { index in
            let prefix = hotPrefixes[index]
            if oldHotPositions[index] != nil {
                var lists = hotLists[index]
                hotLists[index] = []
                if let moves = base.moves { lists = lists.map { moves.renumbered($0) } }
                for move in hotMoves[prefix] ?? [] { move.apply(to: &lists) }
                encoding.append(key: prefix[...], lists: lists)
                hotLists[index] = lists
            } else {
                // A prefix hot only since this save is merged from the table.
                hotLists[index] = appendHot(prefix, of: table, to: &encoding, scratch: &scratch)
                merged += 1
            }
            encoded += 1
            return (index, encoding.byteCount)
        } finish: {
            encoding.finishPiece(prefix: hotPrefix, suffix: entrySuffix)
        }

        let (rows, rowBytes, changedRows) = patchedRows(base, &kept, directory: directory, listRows: listRows)
        let rowsPerPiece = Self.rowsPerPiece(rows.count, rowBytes: rowBytes, limits: limits)
        let oldRowsPerPiece = Self.rowsPerPiece(oldCount, rowBytes: kept.rowBytes, limits: limits)

        // The old pieces, as `content` lists them after the root: terms, hot, rows.
        let oldPieces = zip(old.files.dropFirst(), kept.digests).map { Piece(file: $0, digest: $1) }
        let oldHotStart = kept.terms.texts.count, oldRowStart = oldHotStart + kept.hot.texts.count
        var pieces: [Piece] = []
        func add(
            _ id: String, _ number: Int, _ cut: Cut, from source: Int?, of sourceStart: Int, _ sourceCut: Cut
        ) {
            guard let source else {
                pieces.append(Piece(id: id, json: cut.texts[number]))
                return
            }
            let before = oldPieces[sourceStart + source]
            // A piece that moved keeps its JSON, under its new id.
            pieces.append(
                source == number
                    ? before
                    : Piece(
                        file: File(
                            path: path(of: id),
                            bytes: SearchPieceWriter.file(id: id, json: sourceCut.texts[source])),
                        digest: before.digest))
        }
        for number in terms.texts.indices {
            add("t\(number)", number, terms, from: termSources[number], of: 0, kept.terms)
        }
        for number in hot.texts.indices {
            add("h\(number)", number, hot, from: hotSources[number], of: oldHotStart, kept.hot)
        }
        var changed = changedRows[...]
        for (number, start) in stride(from: 0, to: rows.count, by: rowsPerPiece).enumerated() {
            let range = start..<min(rows.count, start + rowsPerPiece)
            // The old piece of this number held the same rows, unless one changed.
            var touched =
                rowsPerPiece != oldRowsPerPiece || range.upperBound != min(oldCount, start + rowsPerPiece)
            while let first = changed.first, first < range.upperBound {
                touched = true
                changed = changed.dropFirst()
            }
            pieces.append(
                touched
                    ? Piece(id: "r\(number)", json: rowPiece(rows[range])) : oldPieces[oldRowStart + number])
        }
        var content = Self.content(
            pieces, contactCount: directory.entries.count, rowsPerPiece: rowsPerPiece, terms: terms, hot: hot)
        content.kept = Kept(
            limits: limits, table: table, terms: terms, hotPrefixes: hotPrefixes, hot: hot,
            hotLists: hotLists, rows: rows, rowBytes: rowBytes, digests: pieces.map(\.digest),
            encodedEntries: encoded, mergedHotPrefixes: merged, copiedEntries: copied)
        return content
    }

    /// The result rows of `directory`, patched from those `kept` holds (which it gives up):
    /// with their bytes in all, and the positions of the rows that are not the old row at the
    /// same position, ascending.
    private static func patchedRows(
        _ base: Base, _ kept: inout Kept, directory: Directory, listRows: SearchListRows?
    ) -> (rows: [[UInt8]], bytes: Int, changed: [Int]) {
        // Taken from `kept`, so that changing a row copies no other.
        var rows = kept.rows, rowBytes = kept.rowBytes
        kept.rows = []
        var changedRows: [Int] = []
        guard let moves = base.moves else {
            let made = SearchRows.rows(of: base.changedEntries, in: directory, listRows: listRows?.all)
            for (index, row) in zip(base.changedEntries, made) where row != rows[index] {
                rowBytes += row.count - rows[index].count
                rows[index] = row
                changedRows.append(index)
            }
            return (rows, rowBytes, changedRows)
        }
        let old = rows
        rows = []
        rows.reserveCapacity(moves.places.count)
        var made = SearchRows.rows(of: moves.added, in: directory, listRows: listRows?.all)[...]
        rowBytes = 0
        for (index, place) in moves.places.enumerated() {
            let row = place.map { old[$0] } ?? made.popFirst()!
            if place != index, index >= old.count || row != old[index] { changedRows.append(index) }
            rows.append(row)
            rowBytes += row.count + 1
        }
        return (rows, rowBytes, changedRows)
    }

    /// The ascending `a` and `b` merged, each position once, less those in the ascending `less`.
    static func union(_ a: [Int], _ b: [Int], less: [Int]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(a.count + b.count)
        var (i, j, k) = (0, 0, 0)
        while i < a.count || j < b.count {
            let next = j == b.count || (i < a.count && a[i] <= b[j]) ? a[i] : b[j]
            while i < a.count, a[i] == next { i += 1 }
            while j < b.count, b[j] == next { j += 1 }
            while k < less.count, less[k] < next { k += 1 }
            if k == less.count || less[k] != next { result.append(next) }
        }
        return result
    }

    /// A changed contact's terms before and after the save.
    struct ChangedTerms {
        var contact: Int32
        var before: [(key: [UInt16], tier: SearchTier)]
        var after: [(key: [UInt16], tier: SearchTier)]
    }

    /// The keys whose postings the changed entries change, in key order: every term of each
    /// entry as it was and as it is, less those it has still, in the same tier. And each changed
    /// entry's terms, before and after.
    private static func keyEdits(_ base: Base, directory: Directory)
        -> (edits: [SearchTermTable.KeyEdit], changed: [ChangedTerms])
    {
        var edits: [[UInt16]: SearchTermTable.KeyEdit] = [:]
        var changed: [ChangedTerms] = []
        for index in base.changedEntries {
            let before = terms(of: index, in: base.directory), after = terms(of: index, in: directory)
            let contact = Int32(index)
            changed.append(ChangedTerms(contact: contact, before: before, after: after))
            var stays: [[UInt16]: SearchTier] = [:]
            for (key, tier) in before { stays[key] = tier }
            for (key, tier) in after {
                if stays[key] == tier {
                    stays[key] = nil
                    continue
                }
                edits[key, default: SearchTermTable.KeyEdit(key: key)].added.append((contact, tier))
                if stays[key] != nil {
                    stays[key] = nil
                    edits[key]!.removed.insert(contact)
                }
            }
            // What is left of the old terms went.
            for key in stays.keys {
                edits[key, default: SearchTermTable.KeyEdit(key: key)].removed.insert(contact)
            }
        }
        return (edits.values.sorted { $0.key.lexicographicallyPrecedes($1.key) }, changed)
    }

    /// The keys whose postings change when the entries `moves` names as gone lose theirs (by
    /// their own negative numbers, `Moves.newNumbers`) and those it names as added get theirs:
    /// in key order, with the added entries' terms, and how many postings go.
    private static func moveEdits(_ oldDirectory: Directory, _ moves: Moves, directory: Directory)
        -> (edits: [SearchTermTable.KeyEdit], added: [ChangedTerms], removedPostings: Int)
    {
        var edits: [[UInt16]: SearchTermTable.KeyEdit] = [:]
        var removedPostings = 0
        for place in moves.gone {
            let number = moves.newNumbers[place]
            for (key, _) in terms(of: place, in: oldDirectory) {
                edits[key, default: SearchTermTable.KeyEdit(key: key)].removed.insert(number)
                removedPostings += 1
            }
        }
        var added: [ChangedTerms] = []
        for index in moves.added {
            let after = terms(of: index, in: directory)
            added.append(ChangedTerms(contact: Int32(index), before: [], after: after))
            for (key, tier) in after {
                edits[key, default: SearchTermTable.KeyEdit(key: key)].added.append((Int32(index), tier))
            }
        }
        return (edits.values.sorted { $0.key.lexicographicallyPrecedes($1.key) }, added, removedPostings)
    }

    /// How a changed contact moves in a hot prefix's merged lists: the tier it was listed under
    /// and the one it is listed under now (nil for none).
    struct HotMove {
        var contact: Int32
        var before: SearchTier?
        var after: SearchTier?

        /// Moves the contact in `lists`, one ascending list per tier.
        func apply(to lists: inout [[Int32]]) {
            if let before {
                let list = Int(before.rawValue)
                let place = Self.place(of: contact, in: lists[list])
                if place < lists[list].count, lists[list][place] == contact { lists[list].remove(at: place) }
            }
            if let after {
                let list = Int(after.rawValue)
                lists[list].insert(contact, at: Self.place(of: contact, in: lists[list]))
            }
        }

        /// Where `contact` stands, or would, in the ascending `list`.
        static func place(of contact: Int32, in list: [Int32]) -> Int {
            var low = 0, high = list.count
            while low < high {
                let middle = (low + high) / 2
                if list[middle] < contact { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    /// The changed contacts whose best tier under the hot `prefix` changed, as
    /// `SearchTermTable.mergedLists` finds it: the lowest tier of any term starting with the
    /// prefix, inside terms only for a prefix long enough for them.
    static func hotMoves(under prefix: [UInt16], _ changed: [ChangedTerms]) -> [HotMove] {
        let inside = prefix.count >= SearchTerms.minimumInsideLength(of: prefix)
        func best(_ terms: [(key: [UInt16], tier: SearchTier)]) -> SearchTier? {
            var best: SearchTier?
            for term in terms where (inside || term.tier != .inside) && term.key.starts(with: prefix) {
                best = min(best ?? term.tier, term.tier)
            }
            return best
        }
        return changed.compactMap { terms in
            let before = best(terms.before), after = best(terms.after)
            return before == after ? nil : HotMove(contact: terms.contact, before: before, after: after)
        }
    }

    /// The term entries the last save wrote, found by the keys' new positions: an entry whose
    /// key keeps its postings and follows the key it followed there is written again as it was,
    /// its bytes copied from the old piece, not encoded from the table. Positions are asked in
    /// ascending order.
    struct OldTermEntries {
        /// A run of keys that stand together before and after the save, none inserted or removed
        /// between them.
        private struct Run {
            var new: Int, old: Int, count: Int
        }

        private let cut: Cut
        private let changed: [Int]
        private var runs: [Run] = []
        private var run = 0, piece = 0, nextChanged = 0
        /// Where each entry of the piece last run from starts in its text, and where its last
        /// ends; empty when the piece could not be read.
        private(set) var ends: [Int] = []
        private var endsOfPiece = -1

        /// The old entries cut as `cut`, of a table of `oldCount` keys that `changes` made.
        init(_ cut: Cut, changes: SearchTermTable.Changes, oldCount: Int) {
            self.cut = cut
            changed = changes.changed
            var old = 0, new = 0, inserted = 0, removed = 0
            while true {
                let nextInserted = inserted < changes.inserted.count ? changes.inserted[inserted] : Int.max
                let nextRemoved = removed < changes.removed.count ? changes.removed[removed] : Int.max
                let next = min(nextInserted, nextRemoved, oldCount)
                if next > old {
                    runs.append(Run(new: new, old: old, count: next - old))
                    new += next - old
                    old = next
                }
                if nextInserted == next {
                    // A key inserted before the old key `next` stands before it.
                    new += 1
                    inserted += 1
                } else if nextRemoved == next {
                    old += 1
                    removed += 1
                } else {
                    break
                }
            }
        }

        /// The entries from new position `index` on whose old bytes are their bytes now, as
        /// positions in `ends` of the old piece `text`: each key was there, its postings are the
        /// same, and the key before it in the same piece is the one before it now. Nil when the
        /// entry at `index` is not one of them.
        mutating func run(from index: Int) -> (text: [UInt8], entries: Range<Int>)? {
            while run < runs.count, runs[run].new + runs[run].count <= index { run += 1 }
            // The first key of a run follows an inserted or removed one.
            guard run < runs.count, index > runs[run].new else { return nil }
            let old = runs[run].old + index - runs[run].new
            while nextChanged < changed.count, changed[nextChanged] < old { nextChanged += 1 }
            let nextChange = nextChanged < changed.count ? changed[nextChanged] : Int.max
            guard nextChange != old else { return nil }
            while piece < cut.ranges.count, cut.ranges[piece].upperBound <= old { piece += 1 }
            // The first key of an old piece was written without a shared prefix.
            guard piece < cut.ranges.count, old > cut.ranges[piece].lowerBound else { return nil }
            if endsOfPiece != piece { readEnds() }
            let range = cut.ranges[piece]
            guard ends.count == range.count + 1 else { return nil }
            let end = min(range.upperBound, nextChange, runs[run].old + runs[run].count)
            return (cut.texts[piece], old - range.lowerBound..<end - range.lowerBound)
        }

        /// Finds where each entry of `piece` ends: entries end with the text's only semicolons.
        private mutating func readEnds() {
            endsOfPiece = piece
            ends = []
            let text = cut.texts[piece]
            text.withUnsafeBufferPointer { text in
                var index = SearchIndex.termPrefix.utf8CodeUnitCount
                ends.append(index)
                while true {
                    index = ByteWord.firstIndex(in: text, from: index) {
                        ByteWord.bytes(equalTo: UInt8(ascii: ";"), in: $0)
                    }
                    guard index < text.count else { break }
                    index += 1
                    ends.append(index)
                }
            }
            // `ends` starts with where the first entry starts.
            if ends.count != cut.ranges[piece].count + 1 { ends = [] }
        }
    }

    /// Each prefix of `new`'s position among those of `old`, if it is one of them (both sorted).
    static func positions(of new: [[UInt16]], among old: [[UInt16]]) -> [Int?] {
        var positions: [Int?] = []
        positions.reserveCapacity(new.count)
        var before = 0
        for prefix in new {
            while before < old.count, old[before].lexicographicallyPrecedes(prefix) { before += 1 }
            positions.append(before < old.count && old[before] == prefix ? before : nil)
        }
        return positions
    }

    /// Every term of entry `index` of `directory`, once each with its tier, as a build collects
    /// them.
    private static func terms(of index: Int, in directory: Directory) -> [(key: [UInt16], tier: SearchTier)] {
        var builder = SearchTermTable.Builder(firstContact: index, contactCount: 1)
        builder.nextContact()
        let groups = Int(directory.entryGroupStarts[index])..<Int(directory.entryGroupStarts[index + 1])
        let names = directory.entryGroups[groups].map { directory.groups[Int($0)].group.name }
        SearchTerms.add(
            entry: directory.entries[index], groupNames: names, config: directory.config, to: &builder)
        builder.finish()
        return builder.postings.map { posting in
            let number = Int(posting >> 2)
            let key = Array(builder.units[Int(builder.keyStart[number])..<Int(builder.keyStart[number + 1])])
            return (key, SearchTier(rawValue: UInt8(posting & 3))!)
        }
    }

    /// Where the hot prefixes `new` stand against `old` (both sorted): those in both whose
    /// results `changes` says changed, those that went, those that came.
    static func hotChanges(_ old: [[UInt16]], _ new: [[UInt16]], changes changed: ([UInt16]) -> Bool)
        -> SearchTermTable.Changes
    {
        var changes = SearchTermTable.Changes()
        var before = 0, after = 0
        while before < old.count || after < new.count {
            if before < old.count, after < new.count, old[before] == new[after] {
                if changed(old[before]) { changes.changed.append(before) }
                before += 1
                after += 1
            } else if after < new.count,
                before == old.count || new[after].lexicographicallyPrecedes(old[before])
            {
                changes.inserted.append(before)
                after += 1
            } else {
                changes.removed.append(before)
                before += 1
            }
        }
        return changes
    }

    /// Cuts `count` sorted entries into pieces as `pieces` does, given the cut `old` of the
    /// entries before `changes`: a piece of `old` that starts where a new piece would and holds
    /// the same entries is the same piece, and is taken as it is, not encoded again. Returns the
    /// cut and, for each piece, the old piece it was taken from.
    ///
    /// `append` adds entry `index` to the piece, and may add the entries after it as well, as
    /// long as the piece's size stays below `limit` before each: it returns the last entry it
    /// added and the piece's size so far.
    static func recut(
        _ old: Cut, count: Int, limit: Int, atLeastOne: Bool, changes: SearchTermTable.Changes,
        key: (Int) -> [UInt16], append: (Int) -> (last: Int, byteCount: Int), finish: () -> [UInt8]
    ) -> (cut: Cut, sources: [Int?]) {
        guard count > 0, let lastOld = old.ranges.indices.last, !old.ranges[0].isEmpty else {
            // Without old pieces, no entry is copied: each is appended alone.
            let cut = pieces(
                count: count, limit: limit, atLeastOne: atLeastOne, key: key,
                append: { append($0).byteCount },
                finish: finish)
            return (cut, [Int?](repeating: nil, count: cut.texts.count))
        }
        var cut = Cut()
        var sources: [Int?] = []
        var start = 0, candidate = 0
        while start < count {
            while candidate <= lastOld, changes.newPosition(of: old.ranges[candidate].lowerBound) < start {
                candidate += 1
            }
            if candidate <= lastOld {
                let range = old.ranges[candidate]
                let last = changes.newPosition(of: range.upperBound - 1)
                // The old last piece may have closed because its entries ended, not at the limit.
                if changes.newPosition(of: range.lowerBound) == start, !changes.touches(range),
                    candidate < lastOld || last == count - 1
                {
                    cut.texts.append(old.texts[candidate])
                    cut.ranges.append(start..<last + 1)
                    sources.append(candidate)
                    start = last + 1
                    candidate += 1
                    continue
                }
            }
            var index = start
            while true {
                let (last, byteCount) = append(index)
                index = last
                guard byteCount < limit, index < count - 1 else { break }
                index += 1
            }
            cut.texts.append(finish())
            cut.ranges.append(start..<index + 1)
            sources.append(nil)
            start = index + 1
        }
        cut.separators = Cut.separators(of: cut.ranges, key: key)
        return (cut, sources)
    }
}
