import Synchronization
import RolodeckCore

/// Turns store files into a validated `Store`, collecting every problem before giving up.
///
/// JSON records are decoded in two steps. Each record on its own (types, fields, dates) can be
/// decoded on any core, so a large array file is cut into pieces whose elements are parsed and
/// decoded in parallel, each element's JSON tree freed once it is read (`StoreDecoder+Pieces`).
/// What relates records to each other (duplicate ids, references) is checked in file order, on
/// one thread, as the pieces come in.
///
/// vCard and iCalendar records are collected as their files are decoded (a card's contact
/// taken under its UID as it comes, once no JSON file of contacts is to come after it) and merged
/// into the store once every file is known (`StoreDecoder+VCard`, `StoreDecoder+ICalendar`),
/// because their groups, members and subtasks refer to one another across files.
public struct StoreDecoder: Sendable {
    var store = Store()
    var diagnostics: [Diagnostic] = []
    var contactIDs: [String: Mark] = [:]
    var groupIDs: [String: Mark] = [:]
    var todoIDs: [String: Mark] = [:]
    var salutationIDs: [String: Mark] = [:]
    /// The text of each salutation record, by id.
    private var salutationTexts: [String: String] = [:]
    /// The salutation records contacts name, each with the position of its contact in the
    /// store's contacts, which are given their text once every file is read.
    private var salutationReferences: [(contact: Int, reference: Reference)] = []
    private var groupReferences: [Reference] = []
    private var contactReferences: [Reference] = []
    private var parentReferences: [Reference] = []
    /// The kinds of record some text of which could not be read (a syntax error): references
    /// to these kinds are not checked, since what they name may be in that text, and what it
    /// costs is told by the syntax error, not by made-up errors elsewhere.
    private var unreadKinds: Set<RecordKind> = []
    /// Ids of records left out for another reason than their id (a group without a name), by
    /// kind: a reference to one is not reported, the record's own error is.
    private var rejectedIDs: [RecordKind: Set<String>] = [:]
    /// The records of vCard files, in reading order.
    var cards: [VCardRecord] = []
    /// How many of `cards` have had their contacts taken (`claimCards`), the contacts taken,
    /// the UIDs they were taken under (with the position of the card that has each), and the
    /// positions of the group cards among them.
    var claimedCards = 0
    var cardContacts: [CardContact] = []
    var cardUIDs: [String: Int] = [:]
    var cardGroups: [Int] = []
    /// The contacts given ids made from their cards' names, in the order they took them; nil
    /// when a group card lists members (it may name one by such an id).
    var namedContacts: [NamedContact]? = []
    /// The todos of iCalendar files, in reading order, with their task list's name.
    var calendarTodos: [ICalendarTodo] = []
    /// The photo files of the store's `photos/` folder by path inside the store, read and
    /// checked, for the contacts that name them.
    var photoFiles: [String: PhotoYield] = [:]
    /// The photo files JSON contacts name, each with the position of its contact in the store's
    /// contacts, which are given their photos once every file is read.
    var photoReferences: [(contact: Int, path: String, mark: Mark)] = []

    /// A place in a file; turned into a line and column only when a message needs it.
    enum Mark: Sendable {
        /// A byte offset in a JSON file.
        case offset(SourceText, Int)
        /// A location already known (vCard and iCalendar records).
        case location(SourceLocation)

        init(source: SourceText, offset: Int) {
            self = .offset(source, offset)
        }

        var location: SourceLocation {
            switch self {
            case .offset(let source, let offset): return source.location(at: offset)
            case .location(let location): return location
            }
        }
    }

    /// A reference to a record by id, remembered until every file has been read.
    struct Reference: Sendable {
        var from: String
        var to: String
        var mark: Mark
    }

    /// Decodes the files in order; the store is complete only when no diagnostic is an error.
    /// With a `cache` (watch keeps one between rebuilds), what each file yields on its own is
    /// taken from the last decode when the file, or a record of a JSON list, is unchanged.
    public static func decode(_ files: [StoreFile], cache: StoreDecodeCache? = nil)
        -> (store: Store, diagnostics: [Diagnostic]) {
        decode(ChunkedArray(files), cache: cache)
    }

    /// `decode` of files kept in chunks, as a read holds them.
    public static func decode(_ files: ChunkedArray<StoreFile>, cache: StoreDecodeCache? = nil)
        -> (store: Store, diagnostics: [Diagnostic]) {
        // A save that changed a few records and none of what relates them patches the last store.
        if let patched = cache?.patched(files) { return patched }
        var decoder = StoreDecoder()
        // Only a store kept for patching needs to know which ids were made from names.
        if cache == nil { decoder.namedContacts = nil }
        let kept = cache?.kept(for: files)
        // Room for the ids of the one-record files at once, rather than file by file, and for
        // those of the cards of vCard files (one each, at least), which are claimed as they come.
        for kind in [RecordKind.contact, .group, .todo, .salutation] {
            decoder.reserveIDs(for: files.count { $0.layout == .single && $0.kind == kind }, of: kind)
        }
        decoder.reserveCards(for: files.count { $0.layout == .vCard })
        var entries = [StoreDecodeCache.Entry?](repeating: nil, count: files.count)
        // Cards after the last JSON file of contacts have their UIDs claimed as they come.
        let lastContactRecordFile =
            files.lastIndex { $0.kind == .contact && ($0.layout == .single || $0.layout == .list) } ?? -1
        // What each small file yields on its own is worked out on every core (a store of one
        // file per card is 100,000 files of one record), and taken in here in file order as it
        // comes, so that relating the records, on one core, overlaps the decoding of the files
        // after them. Lists are decoded in parallel inside.
        ParallelWork.inOrder(files.count, batch: 16) { index -> (FileYield?, StoreDecodeCache.Entry?) in
            let file = files[index]
            guard let cache, let kept else {
                switch file.layout {
                case .list: return (nil, nil)
                case .single: return (.records(StoreDecoder.records(of: file)), nil)
                // A long vCard file is read in pieces, taken as they come.
                case .vCard where StoreDecoder.readsInPieces(file): return (nil, nil)
                case .vCard: return (.cards(StoreDecoder.cards(of: file)), nil)
                case .iCalendar: return (.todos(StoreDecoder.todos(of: file)), nil)
                case .photo: return (.photo(StoreDecoder.photo(of: file)), nil)
                }
            }
            let previous = kept[index]
            switch file.layout {
            case .list: return (nil, nil)
            case .single:
                let (yield, entry, _) = cache.records(of: file, previous: previous)
                return (.records(yield), entry)
            case .vCard:
                let (yield, entry) = cache.cards(of: file, previous: previous)
                return (.cards(yield), entry)
            case .iCalendar:
                let (yield, entry) = cache.todos(of: file, previous: previous)
                return (.todos(yield), entry)
            case .photo:
                let (yield, entry) = cache.photo(of: file, previous: previous)
                return (.photo(yield), entry)
            }
        } consume: { index, found in
            // Each yield is moved on, not copied (a retain of everything a record holds) and
            // then released.
            var (yield, entry) = found
            entries[index] = entry
            let file = files[index]
            switch yield.take() {
            case .none:
                // A list read afresh is decoded in pieces when it can be, else split; a long
                // vCard file in pieces when it can be, else as a whole.
                guard let cache, let kept else {
                    if file.layout == .vCard {
                        decoder.acceptCardsInPieces(file, claiming: index > lastContactRecordFile)
                        return
                    }
                    if decoder.acceptInPieces(file) { return }
                    decoder.accept(StoreDecoder.records(of: file), of: file)
                    return
                }
                let (yield, entry, _) = cache.records(of: file, previous: kept[index])
                entries[index] = entry
                decoder.accept(yield, of: file)
            case .records(let yield)?:
                decoder.accept(yield, of: file)
            case .cards(var yield)?:
                decoder.takeCards(&yield.cards)
                decoder.diagnostics += yield.diagnostics
                if index > lastContactRecordFile { decoder.claimCards() }
            case .todos(let yield)?:
                decoder.calendarTodos += yield.todos
                decoder.diagnostics += yield.diagnostics
            case .photo(let photo)?:
                decoder.photoFiles[file.storePath] = photo
            }
        }
        let hasCards = !decoder.cards.isEmpty
        decoder.mergeCards()
        decoder.mergeCalendarTodos()
        decoder.resolveReferences()
        let store = decoder.store
        let diagnostics = decoder.diagnostics.sortedByLocation()
        cache?.remember(
            files, entries.map { $0! },
            related: StoreDecodeCache.Related(
                store: store, hasCards: hasCards, diagnostics: diagnostics, named: decoder.namedContacts))
        // The store and its messages are moved out; the rest (the ids of every record, the
        // cards) is freed on another core while this one goes on.
        decoder.store = Store()
        decoder.diagnostics = []
        ParallelWork.release(&decoder, leaving: StoreDecoder())
        return (store, diagnostics)
    }

    /// What one file yields on its own, before it is related to the others.
    private enum FileYield: Sendable {
        case records((records: [DecodedRecord], diagnostics: [Diagnostic]))
        case cards((cards: [VCardRecord], diagnostics: [Diagnostic]))
        case todos((todos: [ICalendarTodo], diagnostics: [Diagnostic]))
        case photo(PhotoYield)
    }

    /// What a JSON file yields on its own: its records, and the problems of the file as a whole
    /// (bytes that are not UTF-8, a syntax error outside any record, the wrong top level).
    static func records(of file: StoreFile) -> (records: [DecodedRecord], diagnostics: [Diagnostic]) {
        records(of: file, splitInto: file.layout == .list ? JSONArraySplitter.elements(of: file.source.bytes) : nil)
    }

    /// What a JSON file yields on its own, given the elements `JSONArraySplitter` found in it,
    /// or nil when it is not a list or did not split (then it is parsed as a whole).
    static func records(of file: StoreFile, splitInto elements: [Range<Int>]?)
        -> (records: [DecodedRecord], diagnostics: [Diagnostic]) {
        let source = file.source
        if let elements {
            // Between the elements there is only ASCII, so the parse has seen every other byte.
            let (records, isValidUTF8) = records(of: file, elements: elements)
            return (records, isValidUTF8 ? [] : utf8Diagnostics(source))
        }
        // What the top level holds, known only once the whole document has parsed.
        enum TopLevel {
            case records([DecodedRecord])
            case wrong(JSONValue)
        }
        let topLevel: TopLevel
        // Bytes that are not UTF-8 are looked for only in a file the parse found some in, or
        // could not finish: in one that parses, only strings hold bytes other than ASCII, and
        // each is checked as it is made. (A pass over every file of a store of a file per card
        // cost 4 % of reading it.)
        let diagnostics: [Diagnostic]
        do throws(JSONSyntaxError) {
            let (found, isValidUTF8) = try JSONParser.readCheckingUTF8(source.bytes, keys: knownKeys) {
                (parser) throws(JSONSyntaxError) -> TopLevel in
                switch (parser.nextByte, file.layout) {
                case (UInt8(ascii: "["), _):
                    var records: [DecodedRecord] = []
                    try parser.readArray(depth: 1) { (parser) throws(JSONSyntaxError) in
                        records.append(
                            try DecodedRecord(reading: &parser, depth: 1, kind: file.kind, source: source))
                    }
                    return .records(records)
                case (UInt8(ascii: "{"), .single):
                    return .records(
                        [try DecodedRecord(reading: &parser, depth: 0, kind: file.kind, source: source)])
                default:
                    return .wrong(try parser.parseValue(depth: 0))
                }
            }
            topLevel = found
            diagnostics = isValidUTF8 ? [] : utf8Diagnostics(source)
        } catch {
            let record = DecodedRecord(syntaxError: error, kind: file.kind, source: source)
            return ([record], utf8Diagnostics(source))
        }
        switch topLevel {
        case .records(let records):
            return (records, diagnostics)
        case .wrong(let root):
            let issue = StoreIssue(.wrongTopLevel(file.kind, found: root.typeDescription, expected: "an array"))
            let diagnostic = Diagnostic(issue.severity, at: source.location(at: root.offset), issue.message)
            return ([DecodedRecord(unread: file.kind, diagnostic)], diagnostics)
        }
    }

    /// The records of some elements of a JSON list, parsed and decoded on every core, and
    /// whether the elements' bytes are all well-formed UTF-8 (false also when one does not parse).
    static func records(of file: StoreFile, elements: [Range<Int>])
        -> (records: [DecodedRecord], isValidUTF8: Bool) {
        let source = file.source
        let isValidUTF8 = Atomic<Bool>(true)
        let records = ParallelWork.map(elements.count, batch: 512) { index in
            do throws(JSONSyntaxError) {
                let (record, isValid) = try JSONParser.readCheckingUTF8(
                    source.bytes, range: elements[index], keys: knownKeys
                ) { (parser) throws(JSONSyntaxError) in
                    try DecodedRecord(reading: &parser, depth: 0, kind: file.kind, source: source)
                }
                if !isValid { isValidUTF8.store(false, ordering: .relaxed) }
                return record
            } catch {
                isValidUTF8.store(false, ordering: .relaxed)
                return DecodedRecord(syntaxError: error, kind: file.kind, source: source)
            }
        }
        return (records, isValidUTF8.load(ordering: .relaxed))
    }

    /// Every member name of a record and of the objects in it, made into strings once for all
    /// the records the parser reads.
    static let knownKeys = JSONKeyTable(
        ContactFields.known + GroupFields.known + TodoFields.known + SalutationFields.known
            + RecordReader.LabeledValueField.allCases.map(\.rawValue)
            + ContactFields.AddressField.allCases.map(\.rawValue))

    /// An error for every byte of a JSON file that is not UTF-8.
    static func utf8Diagnostics(_ source: SourceText) -> [Diagnostic] {
        UTF8Validator.invalidOffsets(in: source.bytes).map { offset in
            let issue = StoreIssue(.invalidUTF8(byte: source.bytes[offset]))
            return Diagnostic(.error, at: source.location(at: offset), issue.message)
        }
    }

    /// Accepts what a JSON file yielded on its own: its problems, then its records in order.
    mutating func accept(_ yield: (records: [DecodedRecord], diagnostics: [Diagnostic]), of file: StoreFile) {
        diagnostics += yield.diagnostics
        reserveIDs(for: yield.records.count, of: file.kind)
        // Each record is read where it is: a copy of one retains every string and array in it,
        // to release them again after.
        yield.records.withUnsafeBufferPointer { records in
            guard let first = records.baseAddress else { return }
            for index in records.indices {
                accept(first + index, source: file.source)
            }
        }
    }

    /// Makes room for `count` more ids of a kind at once, instead of rehashing them all
    /// every time the table of that kind's ids grows.
    mutating func reserveIDs(for count: Int, of kind: RecordKind) {
        switch kind {
        case .contact: contactIDs.reserveCapacity(contactIDs.count + count)
        case .group: groupIDs.reserveCapacity(groupIDs.count + count)
        case .todo: todoIDs.reserveCapacity(todoIDs.count + count)
        case .salutation: salutationIDs.reserveCapacity(salutationIDs.count + count)
        }
    }

    /// Adds a decoded record to the store unless its id is missing or already taken, and
    /// remembers its references for the end. The record is read where it lies: a copy of it
    /// would retain every string and array it holds, to release them again right after.
    mutating func accept(_ record: UnsafePointer<DecodedRecord>, source: SourceText) {
        // Appending nothing to an array that shares its (empty) storage still allocates.
        if !record.pointee.diagnostics.isEmpty { diagnostics += record.pointee.diagnostics }
        if let kind = record.pointee.kind {
            if record.pointee.isUnread { unreadKinds.insert(kind) }
            if let rejected = record.pointee.rejectedID { rejectedIDs[kind, default: []].insert(rejected) }
        }
        let from = record.pointee.id ?? ""
        for (groupID, offset) in record.pointee.groupReferences {
            groupReferences.append(Reference(from: from, to: groupID, mark: .offset(source, offset)))
        }
        if let (contactID, offset) = record.pointee.contactReference {
            contactReferences.append(Reference(from: from, to: contactID, mark: .offset(source, offset)))
        }
        if let (parentID, offset) = record.pointee.parentReference {
            parentReferences.append(Reference(from: from, to: parentID, mark: .offset(source, offset)))
        }
        guard let id = record.pointee.id, let kind = record.pointee.kind else { return }
        let mark = Mark(source: source, offset: record.pointee.idOffset)
        // The id is hashed once: put in, and the first mark put back when it was there already.
        let known: Mark?
        switch kind {
        case .contact: known = contactIDs.updateValue(mark, forKey: id)
        case .group: known = groupIDs.updateValue(mark, forKey: id)
        case .todo: known = todoIDs.updateValue(mark, forKey: id)
        case .salutation: known = salutationIDs.updateValue(mark, forKey: id)
        }
        if let known {
            switch kind {
            case .contact: contactIDs[id] = known
            case .group: groupIDs[id] = known
            case .todo: todoIDs[id] = known
            case .salutation: salutationIDs[id] = known
            }
            let issue = StoreIssue(.duplicateID(kind, id: id, first: known.location))
            let diagnostic = Diagnostic(issue.severity, at: mark.location, issue.message)
            diagnostics.append(diagnostic.mentioning(known.location))
            return
        }
        // A record with an id has the payload of its kind.
        switch record.pointee.payload {
        case .contact(let contact):
            if let (salutationID, offset) = record.pointee.salutationReference {
                let reference = Reference(from: id, to: salutationID, mark: .offset(source, offset))
                salutationReferences.append((store.contacts.count, reference))
            }
            if let (path, offset) = record.pointee.photoReference {
                photoReferences.append((store.contacts.count, path, .offset(source, offset)))
            }
            store.contacts.append(contact)
        case .group(let group): store.groups.append(group)
        case .todo(let todo): store.todos.append(todo)
        case .salutation(let text): salutationTexts[id] = text
        case .none: break
        }
    }

    private mutating func resolveReferences() {
        dropUnknownGroups()
        resolveSalutations()
        resolvePhotos()
        for position in unknown(contactReferences, of: .contact, in: contactIDs) {
            let reference = contactReferences[position]
            let issue = StoreIssue(.unknownContact(todoID: reference.from, contactID: reference.to))
            diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
        }
        var parents: [String: String] = [:]
        for todo in store.todos {
            if let parent = todo.parentID { parents[todo.id] = parent }
        }
        let parentsUnread = unreadKinds.contains(.todo)
        for reference in parentReferences {
            guard todoIDs[reference.to] != nil else {
                guard !parentsUnread, rejectedIDs[.todo]?.contains(reference.to) != true else { continue }
                let issue = StoreIssue(.unknownParent(todoID: reference.from, parentID: reference.to))
                diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
                continue
            }
            // Following the parents from here must not come back here.
            var seen: Set<String> = []
            var next: String? = reference.to
            while let id = next, seen.insert(id).inserted {
                if id == reference.from {
                    let issue = StoreIssue(.subtaskCycle(todoID: reference.from))
                    diagnostics.append(Diagnostic(.error, at: reference.mark.location, issue.message))
                    break
                }
                next = parents[id]
            }
        }
    }

    /// Reports each group a contact names that does not exist, suggesting a group whose id is
    /// close, and leaves it out of the contact's groups.
    private mutating func dropUnknownGroups() {
        let unknown = unknown(groupReferences, of: .group, in: groupIDs)
        guard !unknown.isEmpty else { return }
        let known = Array(groupIDs.keys).sorted()
        var suggestions: [String: String?] = [:]
        var members: Set<String> = []
        for position in unknown {
            let reference = groupReferences[position]
            members.insert(reference.from)
            // Looked up once per group: many contacts may name the one that was deleted.
            let suggestion: String?
            if let found = suggestions[reference.to] {
                suggestion = found
            } else {
                suggestion = Suggestion.closest(to: reference.to, in: known)
                suggestions[reference.to] = .some(suggestion)
            }
            let issue = StoreIssue(
                .unknownGroup(contactID: reference.from, groupID: reference.to, suggestion: suggestion))
            diagnostics.append(Diagnostic(issue.severity, at: reference.mark.location, issue.message))
        }
        for index in store.contacts.indices where members.contains(store.contacts[index].id) {
            store.contacts[index].groupIDs.removeAll { groupIDs[$0] == nil }
        }
    }

    /// Gives each contact that names a salutation record that record's text; a record that does
    /// not exist is an error, with the id probably meant when one is close.
    private mutating func resolveSalutations() {
        guard !salutationReferences.isEmpty, !unreadKinds.contains(.salutation) else { return }
        let rejected = rejectedIDs[.salutation] ?? []
        var known: [String]?
        for (contact, reference) in salutationReferences {
            if let text = salutationTexts[reference.to] {
                store.contacts[contact].salutation = text
                continue
            }
            guard !rejected.contains(reference.to) else { continue }
            if known == nil { known = salutationIDs.keys.sorted() }
            let suggestion = Suggestion.closest(to: reference.to, in: known ?? [])
            let issue = StoreIssue(
                .unknownSalutation(contactID: reference.from, salutationID: reference.to, suggestion: suggestion))
            diagnostics.append(Diagnostic(issue.severity, at: reference.mark.location, issue.message))
        }
    }

    /// The positions of the references to records of `kind` whose target is not among `ids`
    /// and may be reported: none when some text of that kind could not be read, and none that
    /// names a record left out for a reason of its own.
    private func unknown(_ references: [Reference], of kind: RecordKind, in ids: [String: Mark]) -> [Int] {
        guard !unreadKinds.contains(kind) else { return [] }
        let found = Self.unknown(references, in: ids)
        guard let rejected = rejectedIDs[kind] else { return found }
        return found.filter { !rejected.contains(references[$0].to) }
    }

    /// The positions of the references whose target is not among `ids`, in order. Looked up on
    /// every core, a block of references each, and read in place: the contacts' references to
    /// their groups alone outnumber the contacts, and all are checked after every record is
    /// decoded, when nothing else can run.
    private static func unknown(_ references: [Reference], in ids: [String: Mark]) -> [Int] {
        let block = 4096
        let found = ParallelWork.map((references.count + block - 1) / block, batch: 1) { index in
            references.withUnsafeBufferPointer { references in
                (index * block..<min(references.count, (index + 1) * block)).filter { position in
                    ids[references[position].to] == nil
                }
            }
        }
        return Array(found.joined())
    }
}
