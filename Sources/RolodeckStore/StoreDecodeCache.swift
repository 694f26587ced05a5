import Synchronization
import RolodeckCore

#if canImport(Glibc)
    import Glibc
#endif

/// What each store file yielded on its own at the last decode, kept between the rebuilds of a
/// watched site, so that a save decodes again only what it changed.
///
/// A file whose bytes are unchanged yields what it yielded before. In a JSON list that changed
/// (one contact edited in a `contacts.json` of 100,000), the records before and after the
/// changed stretch are kept when their bytes are the same, their offsets moved to where they
/// now are; only the stretch between is parsed. So are the cards of a long vCard file without
/// problems (a phone's export), moved to the lines they are now on (`StoreDecodeCache+Cards`).
/// A record that had problems is always decoded again, so its messages point at where it is
/// now. What relates records to each other (duplicate ids, references, vCard groups) is worked
/// out by the decoder, unless the decode changed only records and nothing that relates them:
/// then the last store is patched by record (`StoreDecodeCache+Patch`).
///
/// A decode first takes what the last one kept for its files (`kept(for:)`, under one lock: a
/// file at the place it had, with the very text it had, costs a comparison of two references),
/// looks each file up in that without locking, and hands back what every file yielded
/// (`remember`), which replaces what was kept.
public final class StoreDecodeCache: Sendable {
    private struct Key: Hashable {
        var path: String
        var layout: StoreFile.Layout
        var kind: RecordKind
        var collection: String

        init(_ file: StoreFile) {
            path = file.source.path
            layout = file.layout
            kind = file.kind
            collection = file.collection
        }
    }

    enum Yield: Sendable {
        case records([DecodedRecord], [Diagnostic], elements: [Range<Int>]?)
        case cards([VCardRecord], [Diagnostic], spans: CardSpans?)
        case todos([ICalendarTodo], [Diagnostic])
        case photo(StoreDecoder.PhotoYield)
    }

    /// What one file yielded, with the bytes it yielded it from.
    struct Entry: Sendable {
        var bytes: [UInt8]
        var yield: Yield

        /// The records of a JSON file's yield.
        var records: [DecodedRecord] {
            guard case .records(let records, _, _) = yield else { return [] }
            return records
        }

        /// The records of a JSON file's yield, taken out of it so that whoever takes them holds
        /// the only reference to them, and can change them without copying them.
        mutating func takeRecords() -> [DecodedRecord] {
            guard case .records(let records, let diagnostics, let elements) = yield else { return [] }
            yield = .records([], diagnostics, elements: elements)
            return records
        }
    }

    /// What the last decode kept for each of a decode's files, by the file's position; nil
    /// for a file it did not have (by path, layout, kind and collection).
    struct Kept: Sendable {
        fileprivate var entries: [Entry?]

        /// The entry for the file at `position`.
        subscript(position: Int) -> Entry? { entries[position] }
    }

    struct State {
        /// The last decode's files, in order, and what each yielded.
        var files: ChunkedArray<StoreFile> = []
        var entries: [Entry] = []
        /// The last decode's store when it found no problem, for `patched`.
        var related: Related?
        var decoded = 0
        var patched = 0
        /// What the last decode changed.
        var changes = StoreChanges(generation: 0, base: nil)
    }

    /// What a decode changed of the store of the decode before it, so that a caller that kept
    /// the directory planned from that store finds the contacts that changed without comparing
    /// every one (or keeping that store, whose contacts the next save would then copy whole to
    /// patch one).
    public struct StoreChanges: Sendable {
        /// The decode's number, counted by the cache from 1.
        public var generation: Int
        /// The number of the decode whose store it patched; nil when it related every record.
        public var base: Int?
        /// The contacts it replaced, each with its position in both stores and the contact
        /// that was there; empty when it related every record.
        public var contacts: [(position: Int, before: Contact)] = []
        /// Whether it replaced a group or a todo.
        public var replacedOthers = false
    }

    /// What the last decode through this cache changed.
    public var lastChanges: StoreChanges {
        state.withLock { $0.changes }
    }

    let state = Mutex(State())

    /// Creates an empty cache.
    public init() {}

    /// How many records (JSON records, cards, todos) the decodes since the last call parsed
    /// afresh rather than took from the cache; resets the count.
    func takeDecodedCount() -> Int {
        state.withLock { state in
            defer { state.decoded = 0 }
            return state.decoded
        }
    }

    /// How many decodes since the last call patched the last store rather than related every
    /// record again; resets the count.
    func takePatchedCount() -> Int {
        state.withLock { state in
            defer { state.patched = 0 }
            return state.patched
        }
    }

    /// What the last decode kept for each of `files`: the entry of the file at the same place
    /// when it is the same file, else of the file with the same path, layout, kind and
    /// collection wherever it was.
    func kept(for files: ChunkedArray<StoreFile>) -> Kept {
        let (oldFiles, oldEntries) = state.withLock { ($0.files, $0.entries) }
        var byKey: [Key: Int]?
        return Kept(
            entries: files.indices.map { position -> Entry? in
                let file = files[position]
                if position < oldFiles.count {
                    let old = oldFiles[position]
                    if old.source === file.source || old.source.path == file.source.path,
                        old.layout == file.layout, old.kind == file.kind, old.collection == file.collection
                    {
                        return oldEntries[position]
                    }
                }
                // A file came or went before this one: the others are found by their key.
                if byKey == nil {
                    var keys: [Key: Int] = [:]
                    keys.reserveCapacity(oldFiles.count)
                    for (index, old) in oldFiles.enumerated() { keys[Key(old)] = index }
                    byKey = keys
                }
                return byKey![Key(file)].map { oldEntries[$0] }
            })
    }

    /// Keeps what each of `files` yielded (`entries`, in the same order) for the next decode,
    /// in place of what was kept, and the store they made when the decode found no problem.
    func remember(_ files: ChunkedArray<StoreFile>, _ entries: [Entry], related: Related?) {
        let (before, generation) = state.withLock { state in
            defer { state.related = nil }
            return (state.related?.store, state.changes.generation)
        }
        var changes = StoreChanges(generation: generation + 1, base: nil)
        if let before, let after = related?.store, let contacts = Self.replacedContacts(before, after) {
            changes.base = generation
            changes.contacts = contacts
            changes.replacedOthers = before.groups != after.groups || before.todos != after.todos
        }
        state.withLock { state in
            state.files = files
            state.entries = entries
            state.related = related
            state.changes = changes
        }
    }

    /// The contacts of `before` that `after` has others in place of, with their positions; nil
    /// when the two have not as many contacts, or more than `patchLimit` differ.
    private static func replacedContacts(_ before: Store, _ after: Store)
        -> [(position: Int, before: Contact)]?
    {
        guard before.contacts.count == after.contacts.count else { return nil }
        var replaced: [(position: Int, before: Contact)] = []
        for (position, contact) in before.contacts.enumerated() where contact != after.contacts[position] {
            guard replaced.count < patchLimit else { return nil }
            replaced.append((position, contact))
        }
        return replaced
    }

    /// A JSON file's records and file-wide problems, from `previous` when the file's bytes are
    /// the same; with the entry to remember, and the positions of the records decoded afresh
    /// (nil when the whole file was).
    func records(of file: StoreFile, previous: Entry?)
        -> (yield: (records: [DecodedRecord], diagnostics: [Diagnostic]), entry: Entry, fresh: [Int]?)
    {
        guard var entry = previous else {
            let (yield, entry) = wholeRecords(of: file)
            return (yield, entry, nil)
        }
        let (yield, fresh, _) = records(of: file, updating: &entry)
        return (yield, entry, fresh)
    }

    /// A JSON file's records and file-wide problems, all decoded; with the entry to remember.
    private func wholeRecords(of file: StoreFile)
        -> (yield: (records: [DecodedRecord], diagnostics: [Diagnostic]), entry: Entry)
    {
        let elements = file.layout == .list ? JSONArraySplitter.elements(of: file.source.bytes) : nil
        let (records, diagnostics) = StoreDecoder.records(of: file, splitInto: elements)
        // What stands for text that does not parse is no record.
        state.withLock { $0.decoded += records.count { !$0.isUnread } }
        return (
            (records, diagnostics),
            Entry(bytes: file.source.bytes, yield: .records(records, diagnostics, elements: elements))
        )
    }

    /// A JSON file's records and file-wide problems, given `entry`, what it yielded before,
    /// which becomes what it yields now; with the positions of the records decoded afresh (nil
    /// when the whole file was), and the records they replaced, at the same positions (nil
    /// when the file has more or fewer records than it had).
    ///
    /// A list's records before and after the changed stretch are changed in place: when no one
    /// else holds them (a patched save takes the entry out of the cache), a contact edited in a
    /// `contacts.json` of 100,000 copies no other record.
    func records(of file: StoreFile, updating entry: inout Entry) -> (
        yield: (records: [DecodedRecord], diagnostics: [Diagnostic]), fresh: [Int]?,
        replaced: [DecodedRecord]?
    ) {
        let bytes = file.source.bytes
        // The old records are only taken out (`takeRecords`), never bound here: a second
        // reference to them would make changing them copy them all.
        guard case .records(_, let oldDiagnostics, let oldElements) = entry.yield else {
            let yield: (records: [DecodedRecord], diagnostics: [Diagnostic])
            (yield, entry) = wholeRecords(of: file)
            return (yield, nil, nil)
        }
        let ends = JSONArraySplitter.commonEnds(entry.bytes, bytes)
        if ends.prefix == bytes.count, bytes.count == entry.bytes.count {
            return ((entry.records, oldDiagnostics), [], [])
        }
        // A list that was split before is split again only where its bytes changed.
        guard file.layout == .list, let oldElements,
            let elements = JSONArraySplitter.elements(
                of: bytes, patching: entry.bytes, elements: oldElements, commonEnds: ends)
        else {
            let oldRecords = entry.takeRecords()
            let yield: (records: [DecodedRecord], diagnostics: [Diagnostic])
            (yield, entry) = wholeRecords(of: file)
            return (yield, nil, oldRecords.count == yield.records.count ? oldRecords : nil)
        }
        var records = entry.takeRecords()
        let change = ListChange(from: (entry.bytes, oldElements), to: (bytes, elements), commonEnds: ends)
        // A kept record that had problems is decoded again, so its messages point at its new place.
        let fresh = elements.indices.filter { index in
            change.isChanged(index) || !records[change.oldIndex(of: index)].diagnostics.isEmpty
        }
        let replaced = records.count == elements.count ? fresh.map { records[$0] } : nil
        let decoded = StoreDecoder.records(of: file, elements: fresh.map { elements[$0] }).records
        Self.patch(&records, change: change, fresh: fresh, decoded: decoded, moving: (oldElements, elements))
        // Only whitespace, commas and brackets lie between records, and the kept records were
        // valid UTF-8 when the file had no problems: only the decoded ones need checking.
        let diagnostics =
            oldDiagnostics.isEmpty
            ? Self.utf8Diagnostics(of: fresh.map { elements[$0] }, in: file.source)
            : StoreDecoder.utf8Diagnostics(file.source)
        state.withLock { $0.decoded += fresh.count }
        entry = Entry(bytes: bytes, yield: .records(records, diagnostics, elements: elements))
        return ((records, diagnostics), fresh, replaced)
    }

    /// An error for each byte of `ranges` that is not UTF-8, the first 20 of them, as
    /// `StoreDecoder.utf8Diagnostics` reports a whole file's.
    private static func utf8Diagnostics(of ranges: [Range<Int>], in source: SourceText) -> [Diagnostic] {
        let bytes = source.bytes
        return ranges.flatMap { range in
            UTF8Validator.invalidOffsets(in: Array(bytes[range])).map { offset in
                let issue = StoreIssue(.invalidUTF8(byte: bytes[range.lowerBound + offset]))
                return Diagnostic(.error, at: source.location(at: range.lowerBound + offset), issue.message)
            }
        }.prefix(20).map { $0 }
    }

    /// A vCard file's cards and problems, from `previous` when the file's bytes are the same,
    /// else as `cards(of:updating:)` reads them; with the entry to remember.
    func cards(of file: StoreFile, previous: Entry?)
        -> (yield: (cards: [VCardRecord], diagnostics: [Diagnostic]), entry: Entry)
    {
        if let previous, case .cards(let cards, let diagnostics, _) = previous.yield,
            previous.bytes.hasSameBytes(as: file.source.bytes)
        {
            return ((cards, diagnostics), previous)
        }
        var entry = previous ?? Entry(bytes: [], yield: .cards([], [], spans: nil))
        let (yield, _) = cards(of: file, updating: &entry)
        return (yield, entry)
    }

    /// An iCalendar file's todos and problems, from `previous` when the file's bytes are the
    /// same; with the entry to remember.
    func todos(of file: StoreFile, previous: Entry?)
        -> (yield: (todos: [ICalendarTodo], diagnostics: [Diagnostic]), entry: Entry)
    {
        wholeFile(file, previous: previous, decode: StoreDecoder.todos, keep: Yield.todos) { yield in
            guard case .todos(let todos, let diagnostics) = yield else { return nil }
            return (todos, diagnostics)
        }
    }

    /// A photo file's photo, or why it cannot be shown, from `previous` when the file's bytes
    /// are the same (a store of 10,000 photos is checked and hashed again only for the files
    /// that changed); with the entry to remember.
    func photo(of file: StoreFile, previous: Entry?) -> (yield: StoreDecoder.PhotoYield, entry: Entry) {
        let ((yields, _), entry) = wholeFile(
            file, previous: previous, decode: { ([StoreDecoder.photo(of: $0)], []) },
            keep: { yields, _ in Yield.photo(yields[0]) }
        ) { yield in
            guard case .photo(let photo) = yield else { return nil }
            return ([photo], [])
        }
        return (yields[0], entry)
    }

    /// What a file that is decoded as a whole yields: `previous`'s `kept` yield when the
    /// file's bytes are the same, else `decode`'s; with the entry to remember.
    private func wholeFile<Record>(
        _ file: StoreFile, previous: Entry?, decode: (StoreFile) -> ([Record], [Diagnostic]),
        keep: ([Record], [Diagnostic]) -> Yield, kept: (Yield) -> ([Record], [Diagnostic])?
    ) -> (yield: ([Record], [Diagnostic]), entry: Entry) {
        if let previous, let yielded = kept(previous.yield),
            previous.bytes.hasSameBytes(as: file.source.bytes)
        {
            return (yielded, previous)
        }
        let (records, diagnostics) = decode(file)
        state.withLock { $0.decoded += records.count }
        return ((records, diagnostics), Entry(bytes: file.source.bytes, yield: keep(records, diagnostics)))
    }

    /// Turns the records of a JSON list as it was into those of the list as it is, in place:
    /// the changed stretch is replaced by the records decoded afresh (`decoded`, those at the
    /// positions `fresh`), the unchanged records after it are moved to where their text now
    /// starts, and the kept records that had problems are replaced by their fresh decode.
    private static func patch(
        _ records: inout [DecodedRecord], change: ListChange, fresh: [Int], decoded: [DecodedRecord],
        moving elements: (old: [Range<Int>], new: [Range<Int>])
    ) {
        let oldStretch = change.unchangedPrefix..<(change.oldCount - change.unchangedSuffix)
        let newStretch = change.unchangedPrefix..<(change.newCount - change.unchangedSuffix)
        // Every record of the changed stretch was decoded: they are a run of `fresh`.
        let first = fresh.firstIndex { $0 >= newStretch.lowerBound } ?? fresh.count
        records.replaceSubrange(oldStretch, with: decoded[first..<(first + newStretch.count)])
        for index in newStretch.upperBound..<change.newCount {
            let before = change.oldIndex(of: index)
            records[index].move(by: elements.new[index].lowerBound - elements.old[before].lowerBound)
        }
        for (position, index) in fresh.enumerated() where !newStretch.contains(index) {
            records[index] = decoded[position]
        }
    }

    /// Where a JSON list changed: the elements at its start and at its end whose bytes are the
    /// same as before, and the changed stretch between them.
    struct ListChange {
        /// How many elements at the start are the same.
        let unchangedPrefix: Int
        /// How many elements at the end are the same, not counting those of the prefix.
        let unchangedSuffix: Int
        /// How many elements the list had, and has.
        let oldCount: Int, newCount: Int

        /// Compares the elements of the list as it was with those of the list as it is, given
        /// how many bytes the two share at their start and end (`JSONArraySplitter.commonEnds`):
        /// an element at the same place in both that lies within those is the same without
        /// looking at its bytes again.
        init(
            from old: (bytes: [UInt8], elements: [Range<Int>]),
            to new: (bytes: [UInt8], elements: [Range<Int>]), commonEnds ends: (prefix: Int, suffix: Int)
        ) {
            oldCount = old.elements.count
            newCount = new.elements.count
            (unchangedPrefix, unchangedSuffix) = old.bytes.withUnsafeBytes { oldBuffer in
                new.bytes.withUnsafeBytes { newBuffer -> (Int, Int) in
                    let delta = new.bytes.count - old.bytes.count
                    func same(_ oldIndex: Int, _ newIndex: Int) -> Bool {
                        let left = Self.trimmed(old.elements[oldIndex], oldBuffer)
                        let right = Self.trimmed(new.elements[newIndex], newBuffer)
                        if left == right, right.upperBound <= ends.prefix { return true }
                        if left.lowerBound + delta == right.lowerBound, left.count == right.count,
                            right.lowerBound >= new.bytes.count - ends.suffix
                        {
                            return true
                        }
                        return left.count == right.count
                            && memcmp(
                                oldBuffer.baseAddress! + left.lowerBound,
                                newBuffer.baseAddress! + right.lowerBound,
                                left.count) == 0
                    }
                    let common = min(old.elements.count, new.elements.count)
                    var prefix = 0
                    while prefix < common, same(prefix, prefix) { prefix += 1 }
                    var suffix = 0
                    while suffix < common - prefix,
                        same(old.elements.count - 1 - suffix, new.elements.count - 1 - suffix)
                    {
                        suffix += 1
                    }
                    return (prefix, suffix)
                }
            }
        }

        /// Whether the element at `index` of the list as it is lies in the changed stretch.
        func isChanged(_ index: Int) -> Bool {
            index >= unchangedPrefix && index < newCount - unchangedSuffix
        }

        /// Where an unchanged element of the list as it is was in the list as it was.
        func oldIndex(of index: Int) -> Int {
            index < unchangedPrefix ? index : oldCount - (newCount - index)
        }

        /// An element's range without its trailing whitespace: the last element's range runs on
        /// to the closing bracket, and the element that becomes the last one is still the same.
        private static func trimmed(_ range: Range<Int>, _ bytes: UnsafeRawBufferPointer) -> Range<Int> {
            var end = range.upperBound
            while end > range.lowerBound {
                switch bytes[end - 1] {
                case 0x20, 0x0A, 0x0D, 0x09: end -= 1
                default: return range.lowerBound..<end
                }
            }
            return range.lowerBound..<end
        }
    }
}

extension DecodedRecord {
    /// Moves every offset of the record by `delta` bytes, for a record whose text moved.
    mutating func move(by delta: Int) {
        guard delta != 0 else { return }
        idOffset += delta
        for index in groupReferences.indices { groupReferences[index].1 += delta }
        contactReference?.1 += delta
        parentReference?.1 += delta
        salutationReference?.1 += delta
        photoReference?.1 += delta
    }
}
