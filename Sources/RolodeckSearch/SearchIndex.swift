import RolodeckPlan
import RolodeckCore

/// The search index of a planned directory: the files under `search/` that `Public/search.js`
/// loads, a few at a time, with `<script>` elements. `docs/search.md` describes the format.
///
/// - `search/root.js`: the separators of the term and hot pieces, the row shard size, the
///   version that every piece's URL carries (`?v=`) so a browser never mixes two builds.
/// - `search/t<n>.js`: term pieces, the sorted keys with the contacts each finds, cut by size.
/// - `search/h<n>.js`: hot pieces, the merged results of every prefix whose keys span pieces.
/// - `search/r<n>.js`: row pieces, what a result shows of each contact, in directory order.
///
/// A one-word query loads the root, one term or hot piece, then the row pieces of the results
/// it shows; the first result needs at most three pieces whatever the directory's size.
public struct SearchIndex: Sendable {
    /// Target sizes of the pieces, in bytes of JSON text.
    public struct Limits: Sendable, Equatable {
        /// A term piece is closed once it holds this much.
        var termPieceBytes: Int
        /// A hot piece is closed once it holds this much.
        var hotPieceBytes: Int
        /// The rows of a row piece add up to about this much.
        var rowPieceBytes: Int

        /// Creates limits; the defaults keep a first query near 60 KB at 100,000 contacts.
        public init(termPieceBytes: Int = 32_768, hotPieceBytes: Int = 32_768, rowPieceBytes: Int = 8_192) {
            self.termPieceBytes = termPieceBytes
            self.hotPieceBytes = hotPieceBytes
            self.rowPieceBytes = rowPieceBytes
        }
    }

    /// One file of the index.
    public struct File: Sendable, Equatable {
        /// The path relative to the site's root, `search/t3.js`.
        public var path: String
        /// The file's bytes.
        public var bytes: [UInt8]
    }

    /// The folder the index is written to, relative to the site's root.
    static let folder = "search"
    /// The format's number, in the root as `format`; the client refuses any other.
    static let format = 1

    /// Every file, the root first. Waits for an index that is still `building`.
    public var files: [File] { build.files }
    /// A hash of the whole index; piece URLs carry it so caches never mix two builds. Waits for
    /// an index that is still `building`.
    public var version: String { build.version }

    /// The root's URL relative to the site's root. Pages name it without the version, so that
    /// a change of the index leaves them alone; the client asks for the root afresh on every
    /// page load and for each piece with the version the root names.
    public static let rootReference = "\(folder)/root.js"

    let build: Build

    /// Builds the index of every contact the directory shows.
    init(directory: Directory, limits: Limits = Limits()) {
        build = Build(Self.content(of: directory, limits: limits))
    }

    /// Starts building the index of every contact the directory shows on a thread of its own,
    /// and returns at once: pages that do not name the index render meanwhile, and whatever
    /// reads `files` or `version` waits until it is built.
    ///
    /// With a `cache`, contacts unchanged since the index the cache last saw are not collected
    /// or formatted again, and the cache keeps this index's contacts for the next. `listRows`,
    /// handed over once the site has made them, lets the result rows reuse what the directory's
    /// list rows worked out.
    ///
    /// With a `base`, the index is patched from the base's when it can be (see `Base`).
    public static func building(
        directory: Directory, limits: Limits = Limits(), cache: SearchIndexCache? = nil,
        listRows: SearchListRows? = nil, base: Base? = nil
    ) -> SearchIndex {
        SearchIndex(
            build: Build {
                base.flatMap { patched($0, directory: directory, listRows: listRows) }
                    ?? content(of: directory, limits: limits, cache: cache, listRows: listRows)
            })
    }

    init(build: Build) {
        self.build = build
    }

    /// Builds the index with the terms collected in `runs` runs of contacts, as tests need.
    init(directory: Directory, limits: Limits, cache: SearchIndexCache?, runs: Int) {
        build = Build(Self.content(of: directory, limits: limits, cache: cache, runs: runs))
    }

    private static func content(
        of directory: Directory, limits: Limits, cache: SearchIndexCache? = nil, runs: Int? = nil,
        listRows: SearchListRows? = nil
    ) -> Content {
        let kept = cache?.take(for: directory.config)
        let (table, learnt) = collect(directory, runs: runs, kept: kept)
        var (terms, hotPrefixes, hot, hotLists) = entryPieces(
            of: table, limits: limits, keepingHotLists: cache != nil)
        let reusing = kept.map { kept in learnt.positions.map { $0.map { kept.rows[$0] } } }
        var rows = SearchRows(directory: directory, reusing: reusing, listRows: listRows?.all).rows
        if let cache {
            var positions: [String: Int] = [:]
            positions.reserveCapacity(learnt.contacts.count)
            for (position, contact) in learnt.contacts.enumerated() { positions[contact.slug] = position }
            cache.keep(
                SearchIndexCache.State(
                    config: directory.config, contacts: learnt.contacts, positions: positions,
                    runs: learnt.runs, rows: rows))
        }
        let rowBytes = rows.reduce(0) { $0 + $1.count + 1 }
        let rowsPerPiece = Self.rowsPerPiece(rows.count, rowBytes: rowBytes, limits: limits)

        // Each piece becomes its file at once, and what it was made from is let go, to keep the
        // peak down, unless a watched index keeps it to be patched.
        let keeps = cache != nil
        var pieces: [Piece] = []
        for number in terms.texts.indices {
            pieces.append(Piece(id: "t\(number)", json: terms.texts[number]))
            if !keeps { terms.texts[number] = [] }
        }
        for number in hot.texts.indices {
            pieces.append(Piece(id: "h\(number)", json: hot.texts[number]))
            if !keeps { hot.texts[number] = [] }
        }
        for (number, start) in stride(from: 0, to: rows.count, by: rowsPerPiece).enumerated() {
            let range = start..<min(rows.count, start + rowsPerPiece)
            pieces.append(Piece(id: "r\(number)", json: rowPiece(rows[range])))
        }
        if !keeps { rows = [] }
        var content = Self.content(
            pieces, contactCount: directory.entries.count, rowsPerPiece: rowsPerPiece, terms: terms, hot: hot)
        if keeps {
            content.kept = Kept(
                limits: limits, table: table, terms: terms, hotPrefixes: hotPrefixes, hot: hot,
                hotLists: hotLists, rows: rows, rowBytes: rowBytes, digests: pieces.map(\.digest),
                encodedEntries: table.count + hotPrefixes.count, mergedHotPrefixes: hotPrefixes.count)
        }
        return content
    }

    /// How many rows a row piece holds, for `count` rows of `rowBytes` bytes in all.
    static func rowsPerPiece(_ count: Int, rowBytes: Int, limits: Limits) -> Int {
        max(1, min(1024, (limits.rowPieceBytes * count) / max(1, rowBytes)))
    }

    /// The JSON of a row piece of `rows`.
    static func rowPiece(_ rows: ArraySlice<[UInt8]>) -> [UInt8] {
        var json = Array("{\"rows\":[".utf8)
        json.reserveCapacity(rows.reduce(12) { $0 + $1.count + 1 })
        for (offset, row) in rows.enumerated() {
            if offset > 0 { json.append(UInt8(ascii: ",")) }
            json += row
        }
        return json + Array("]}".utf8)
    }

    /// One piece of the index: its file, and the hash of its JSON that the version is made of.
    struct Piece: Sendable {
        /// The piece's file.
        var file: File
        /// `VersionHash` of the piece's JSON.
        var digest: UInt64

        /// The piece `id` of `json`.
        init(id: String, json: [UInt8]) {
            var hash = VersionHash()
            hash.add(json)
            let file = File(path: SearchIndex.path(of: id), bytes: SearchPieceWriter.file(id: id, json: json))
            self.init(file: file, digest: hash.value)
        }

        /// A piece of the given file and digest.
        init(file: File, digest: UInt64) {
            self.file = file
            self.digest = digest
        }
    }

    /// The path of the piece `id`.
    static func path(of id: String) -> String { "\(folder)/\(id).js" }

    /// The index of `pieces` (term, hot and row pieces in that order) with their root.
    ///
    /// The version is `VersionHash` over each piece's id and its JSON's hash: the same input
    /// always gives the same version, and a patched index hashes only the pieces it made anew.
    static func content(
        _ pieces: [Piece], contactCount: Int, rowsPerPiece: Int, terms: Cut, hot: Cut
    ) -> Content {
        var hash = VersionHash()
        for piece in pieces {
            var id = piece.file.path.dropFirst(folder.utf8.count + 1).dropLast(3)
            id.withUTF8 { hash.add(UnsafeRawBufferPointer($0)) }
            withUnsafeBytes(of: piece.digest.littleEndian) { hash.add($0) }
        }
        let version = String(hash.value, radix: 36)
        var root = Array(
            "{\"format\":\(Self.format),\"version\":\"\(version)\",\"contacts\":\(contactCount),".utf8)
        root += "\"rowsPerPiece\":\(rowsPerPiece),\"terms\":".utf8
        SearchPieceWriter.append(
            strings: terms.separators.map { String(decoding: $0, as: UTF16.self) }, to: &root)
        root += ",\"hot\":".utf8
        SearchPieceWriter.append(
            strings: hot.separators.map { String(decoding: $0, as: UTF16.self) }, to: &root)
        root += "}".utf8
        let files = [File(path: path(of: "root"), bytes: SearchPieceWriter.file(id: "root", json: root))]
            + pieces.map(\.file)
        return Content(files: files, version: version)
    }

    /// A hash of every piece's id and JSON, each followed by a zero byte: FNV-1a's offset basis
    /// and prime, eight bytes a step. Each little-endian word is xored in and multiplied, and the
    /// product's high half folded onto its low half, so that every bit of the word reaches the
    /// bits the next multiply spreads; the last few bytes go in one at a time, as FNV-1a takes
    /// them. (Byte by byte, the pieces a save writes took 3 % of the save's CPU.)
    struct VersionHash {
        /// The hash so far.
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325
        static let prime: UInt64 = 0x100_0000_01b3

        /// Adds `bytes`, then a zero byte.
        mutating func add(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { add($0) }
        }

        /// Adds `bytes`, then a zero byte.
        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var hash = value
            var index = 0
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                hash = (hash ^ word) &* Self.prime
                hash ^= hash >> 32
                index += 8
            }
            while index < bytes.count {
                hash = (hash ^ UInt64(bytes[index])) &* Self.prime
                index += 1
            }
            value = hash &* Self.prime
        }
    }

    /// The term pieces, the hot prefixes and the hot pieces, and each hot prefix's lists when
    /// `keepingHotLists` (for a watch to patch; none otherwise).
    private static func entryPieces(of table: SearchTermTable, limits: Limits, keepingHotLists: Bool)
        -> (terms: Cut, hotPrefixes: [[UInt16]], hot: Cut, hotLists: [[[Int32]]])
    {
        var encoding = SearchEntryEncoding()
        let terms = Self.pieces(
            count: table.count, limit: limits.termPieceBytes, atLeastOne: true,
            key: { Array(table.key($0)) }
        ) {
            encoding.append(key: $0, of: table)
            return encoding.byteCount
        } finish: {
            encoding.finishPiece(prefix: termPrefix, suffix: entrySuffix)
        }
        let hotKeys = SearchSeparators.hotPrefixes(of: terms.separators)
        var scratch = SearchTermTable.MergeScratch(contactCount: table.contactCount)
        var hotLists: [[[Int32]]] = []
        if keepingHotLists { hotLists.reserveCapacity(hotKeys.count) }
        let hot = Self.pieces(
            count: hotKeys.count, limit: limits.hotPieceBytes, atLeastOne: false, key: { hotKeys[$0] }
        ) { index in
            let lists = appendHot(hotKeys[index], of: table, to: &encoding, scratch: &scratch)
            if keepingHotLists { hotLists.append(lists) }
            return encoding.byteCount
        } finish: {
            encoding.finishPiece(prefix: hotPrefix, suffix: entrySuffix)
        }
        return (terms, hotKeys, hot, hotLists)
    }

    /// What a term piece's and a hot piece's JSON start with, and what both end with.
    static let termPrefix: StaticString = "{\"terms\":\"", hotPrefix: StaticString = "{\"prefixes\":\"",
        entrySuffix: StaticString = "\"}"

    /// Appends the merged results of the hot prefix `prefix`, and returns them.
    static func appendHot(
        _ prefix: [UInt16], of table: SearchTermTable, to encoding: inout SearchEntryEncoding,
        scratch: inout SearchTermTable.MergeScratch
    ) -> [[Int32]] {
        let inside = prefix.count >= SearchTerms.minimumInsideLength(of: prefix)
        let lists = table.mergedLists(ofPrefix: prefix, includeInside: inside, scratch: &scratch)
        encoding.append(key: prefix[...], lists: lists)
        return lists
    }

    /// The terms of every contact, collected for runs of contacts on every core; the table is
    /// the same however many `runs`. More runs than cores keep the cores busy; fewer keep down
    /// the work done once per run (folding the names a run shares, and the keys every run has).
    static func terms(of directory: Directory, runs: Int? = nil) -> SearchTermTable {
        collect(directory, runs: runs, kept: nil).table
    }

    /// What `collect` learnt for a cache: each contact's terms in directory order, where each
    /// stood in the kept state (if it is unchanged there), and the finished run builders.
    private struct Learnt {
        /// Each contact's terms, in directory order.
        var contacts: [SearchIndexCache.Contact] = []
        /// Where each contact stood in the kept state, if it is unchanged there.
        var positions: [Int?] = []
        /// The finished builder of each run of contacts.
        var runs: [SearchTermTable.Builder] = []

        /// Nothing learnt.
        init() {}

        /// What a run learns whose contacts `kept` holds unchanged where they stood: all of it,
        /// as it was kept.
        init(reusing run: Int, _ contacts: Range<Int>, of kept: SearchIndexCache.State) {
            self.contacts = Array(kept.contacts[contacts])
            positions = contacts.map { $0 }
            runs = [kept.runs[run]]
        }

        /// What the runs learnt, one after another.
        init(joining parts: some Sequence<Learnt>) {
            for part in parts {
                contacts += part.contacts
                positions += part.positions
                runs += part.runs
            }
        }
    }

    /// The table of `terms(of:runs:)`, and with `kept` what a cache keeps. A contact `kept`
    /// holds unchanged has its terms added again as they were, not collected anew; a run whose
    /// contacts are all unchanged where they stood reuses its builder.
    private static func collect(_ directory: Directory, runs: Int?, kept: SearchIndexCache.State?)
        -> (table: SearchTermTable, learnt: Learnt)
    {
        let count = directory.entries.count
        let runs = max(1, runs ?? min(ParallelWork.workers * 4, count / 2_048))
        let sameRuns = kept.map { $0.runs.count == runs && $0.contacts.count == count } ?? false
        let namesOfGroups = directory.groups.map(\.group.name)
        let results = withUnsafeBuffers(
            directory.entryGroups, directory.entryGroupStarts, namesOfGroups
        ) { entryGroups, entryGroupStarts, namesOfGroups in
            nonisolated(unsafe) let reader = RunReader(
                entries: directory.entries, entryGroups: entryGroups, entryGroupStarts: entryGroupStarts,
                namesOfGroups: namesOfGroups, config: directory.config,
                phoneRegion: directory.config.effectivePhoneRegion)
            return ParallelWork.map(runs, batch: 1) { run in
                let contacts = run * count / runs..<(run + 1) * count / runs
                guard let kept else { return (reader.terms(of: contacts), Learnt()) }
                if sameRuns, reader.holdsUnchanged(contacts, kept) {
                    return (kept.runs[run], Learnt(reusing: run, contacts, of: kept))
                }
                return reader.terms(of: contacts, run: run, reusing: kept)
            }
        }
        let learnt = kept == nil ? Learnt() : Learnt(joining: results.lazy.map(\.1))
        return (SearchTermTable(merging: results.map(\.0), contactCount: count), learnt)
    }

    /// What the runs of contacts read of the directory. Entries are read where the directory
    /// holds them, only the fields needed: a copy of a whole entry retains each of its strings
    /// and its contact, and releases them after. Each entry's groups are read as the directory
    /// keeps them, by position: no id is looked up.
    private struct RunReader {
        /// The directory's entries.
        let entries: ChunkedArray<Directory.Entry>
        /// `Directory.entryGroups` and `Directory.entryGroupStarts`.
        let entryGroups: UnsafeBufferPointer<Int32>, entryGroupStarts: UnsafeBufferPointer<Int32>
        /// The name of each group, by position.
        let namesOfGroups: UnsafeBufferPointer<String>
        /// The settings, which say what is indexed.
        let config: SiteConfig
        /// The config's `effectivePhoneRegion`, worked out once.
        let phoneRegion: String?

        /// Entry `index`'s groups, as positions in `namesOfGroups`.
        func groupPositions(_ index: Int) -> UnsafeBufferPointer<Int32> {
            let start = Int(entryGroupStarts[index]), end = Int(entryGroupStarts[index + 1])
            return UnsafeBufferPointer(rebasing: entryGroups[start..<end])
        }

        /// The names of entry `index`'s groups.
        func groupNames(_ index: Int) -> [String] {
            groupPositions(index).map { namesOfGroups[Int($0)] }
        }

        /// Whether `kept` holds every one of `contacts` unchanged where it stands.
        func holdsUnchanged(_ contacts: Range<Int>, _ kept: SearchIndexCache.State) -> Bool {
            contacts.allSatisfy { kept.matches($0, entries[$0], groupNames: groupNames($0)) }
        }

        /// The terms of a run of contacts, each collected anew.
        func terms(of contacts: Range<Int>) -> SearchTermTable.Builder {
            var builder = SearchTermTable.Builder(
                firstContact: contacts.lowerBound, contactCount: contacts.count)
            for index in contacts {
                builder.nextContact()
                // Without a cache the names are not kept, so no array of them is made.
                let names = GroupNames(positions: groupPositions(index), names: namesOfGroups)
                SearchTerms.add(
                    contact: entries[index].contact, displayName: entries[index].displayName,
                    groupNames: names, config: config, phoneRegion: phoneRegion, to: &builder)
            }
            builder.finish()
            return builder
        }

        /// The terms of a run of contacts, those `kept` holds unchanged added again as they were,
        /// and what a cache keeps of them.
        func terms(of contacts: Range<Int>, run: Int, reusing kept: SearchIndexCache.State)
            -> (SearchTermTable.Builder, Learnt)
        {
            var builder = SearchTermTable.Builder(
                firstContact: contacts.lowerBound, contactCount: contacts.count)
            var learnt = Learnt()
            for index in contacts {
                builder.nextContact()
                let entry = entries[index]
                let names = groupNames(index)
                let position = kept.reusable(entry, groupNames: names)
                if let position {
                    kept.terms(at: position, to: &builder)
                } else {
                    SearchTerms.add(
                        entry: entry, groupNames: names, config: config, phoneRegion: phoneRegion,
                        to: &builder)
                }
                learnt.positions.append(position)
                // The postings are filled in once the builder is finished.
                learnt.contacts.append(
                    SearchIndexCache.Contact(
                        slug: entry.slug, contact: entry.contact, displayName: entry.displayName,
                        groupNames: names, run: run, postings: []))
            }
            builder.finish()
            for offset in learnt.contacts.indices {
                let start = Int(builder.contactStart[offset]), end = Int(builder.contactStart[offset + 1])
                learnt.contacts[offset].postings = builder.postings[start..<end]
            }
            learnt.runs = [builder]
            return (builder, learnt)
        }
    }

    /// The names of the groups at `positions`, in order, read from buffers: a contact's group
    /// names are iterated without allocating a closure context or retaining an array for it.
    private struct GroupNames: Sequence, IteratorProtocol {
        /// The groups' positions in `names`.
        let positions: UnsafeBufferPointer<Int32>
        /// Every group's name, by position.
        let names: UnsafeBufferPointer<String>
        private var position = 0

        /// The names of the groups at `positions` among `names`.
        init(positions: UnsafeBufferPointer<Int32>, names: UnsafeBufferPointer<String>) {
            self.positions = positions
            self.names = names
        }

        /// The next group's name.
        mutating func next() -> String? {
            guard position < positions.count else { return nil }
            position += 1
            return names[Int(positions[position - 1])]
        }
    }

    /// Calls `body` with the memory of three arrays.
    private static func withUnsafeBuffers<A, B, C, Result>(
        _ a: [A], _ b: [B], _ c: [C],
        _ body: (UnsafeBufferPointer<A>, UnsafeBufferPointer<B>, UnsafeBufferPointer<C>) -> Result
    ) -> Result {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in c.withUnsafeBufferPointer { c in body(a, b, c) } }
        }
    }

    /// Cuts sorted entries into pieces of about `limit` bytes: `append` encodes entry `index`
    /// and returns the piece's size so far, `finish` hands over the piece's JSON. Without
    /// entries there is one empty piece if `atLeastOne`, else none.
    static func pieces(
        count: Int, limit: Int, atLeastOne: Bool, key: (Int) -> [UInt16],
        append: (Int) -> Int, finish: () -> [UInt8]
    ) -> Cut {
        var cut = Cut()
        var start = 0
        for index in 0..<count where append(index) >= limit || index == count - 1 {
            cut.texts.append(finish())
            cut.ranges.append(start..<index + 1)
            start = index + 1
        }
        if cut.texts.isEmpty {
            return atLeastOne ? Cut(texts: [finish()], ranges: [0..<0], separators: [[]]) : cut
        }
        cut.separators = Cut.separators(of: cut.ranges, key: key)
        return cut
    }
}
