import RolodeckCore

/// A store patched by record. When a save changed a few records (a contact's JSON file, a
/// card's `.vcf`, one element of a `contacts.json`, a card of a long `.vcf`) and nothing that
/// relates records to one another, the last decode's store is taken with those records
/// replaced, instead of every record being related again: at 100,000 contacts that is 100,000
/// kept yields looked up, ids hashed, references checked and cards merged, about 0.2 s, for
/// each save.
///
/// A record is replaced only when what it relates to and what relates to it cannot have
/// changed: the same id, the same references (groups, salutation, photo, contact, parent
/// task), the same email addresses and categories (a vCard group finds its members by them),
/// and no other record's message naming a place in its file. A JSON record must have no
/// problem before or after, nor its file a warning of the last decode. A vCard file's
/// warnings may come and go with the cards read again, as long as relating the store put none
/// in it: its warnings are then its cards' own, and are replaced by those it has now (a phone's
/// export with one birthday that is not a date is patched card by card too). The store's other
/// warnings, which cannot have changed, are reported again. Anything else (a file that came or
/// went, a photo, a salutation record, a calendar, a group card, a record added to or taken out
/// of a list) relates the store again, as a decode without a cache does.
extension StoreDecodeCache {
    /// A decoded store kept for patching, with its warnings and where its records are.
    struct Related: Sendable {
        /// The store, as the decode returned it.
        var store: Store
        /// Whether any vCard was in it: a group's name then decides what its categories join.
        var hasCards: Bool
        /// The warnings the decode reported, each in a file; a patch that changes none of those
        /// files reports them again as they are.
        var diagnostics: [Diagnostic]
        /// The files the warnings are in.
        private(set) var diagnosedPaths: Set<String>
        /// The files of the places warnings name besides their own (the first card with a
        /// UID): a change to one of those may change the message.
        private(set) var mentionedPaths: Set<String>
        /// Where each contact, group and todo is in `store`, by id; made at the first patch.
        fileprivate var positions: Positions?
        /// The contacts whose ids were made from their cards' names, as the decode noted them;
        /// nil when it could not (a group card lists members).
        private var named: [StoreDecoder.NamedContact]?
        /// Those contacts by the stems of their names; made at the first rename.
        fileprivate var names: NamedIDs?

        /// Where each record is, found at the first patch and kept.
        fileprivate mutating func positionsOfRecords() -> Positions {
            if let positions { return positions }
            let found = Positions(store)
            positions = found
            return found
        }

        /// A store kept for patching; nil when the decode found an error, or a problem that is
        /// not in a file.
        init?(store: Store, hasCards: Bool, diagnostics: [Diagnostic], named: [StoreDecoder.NamedContact]?) {
            guard !diagnostics.containsErrors, diagnostics.allSatisfy({ $0.location != nil }) else {
                return nil
            }
            self.store = store
            self.hasCards = hasCards
            self.named = named
            self.diagnostics = diagnostics
            diagnosedPaths = Set(diagnostics.compactMap { $0.location?.path })
            mentionedPaths = Set(diagnostics.compactMap { $0.mentioned?.path })
        }

        /// The contacts whose ids were made from names, by stem, made at the first call and
        /// kept; nil when the decode did not note them.
        fileprivate mutating func namedIDs() -> NamedIDs? {
            if let names { return names }
            guard let named else { return nil }
            let found = NamedIDs(named)
            names = found
            self.named = nil
            return found
        }

        /// Notes the ids a rename changed, where `positions` and `names` look them up.
        fileprivate mutating func renumber(_ renamed: Renumbering) {
            for change in renamed.changes { positions?.contacts[change.before] = nil }
            for change in renamed.changes { positions?.contacts[change.after] = change.position }
            names?.move(renamed.position, from: renamed.from, to: renamed.to)
        }

        /// The warnings in the file at `path`, in the order they are reported.
        func diagnostics(in path: String) -> [Diagnostic] {
            guard diagnosedPaths.contains(path) else { return [] }
            return diagnostics.filter { $0.location?.path == path }
        }

        /// Replaces the warnings of each file of `byPath` with the ones given for it, which are
        /// its cards' own.
        mutating func replaceDiagnostics(_ byPath: [String: [Diagnostic]]) {
            guard !byPath.isEmpty else { return }
            let kept = diagnostics.filter { byPath[$0.location?.path ?? ""] == nil }
            diagnostics = (kept + byPath.keys.sorted().flatMap { byPath[$0]! }).sortedByLocation()
            diagnosedPaths = Set(diagnostics.compactMap { $0.location?.path })
        }
    }

    /// Where each record of a store is, by id.
    fileprivate struct Positions: Sendable {
        var contacts: [String: Int] = [:]
        var groups: [String: Int] = [:]
        var todos: [String: Int] = [:]

        init(_ store: Store) {
            contacts.reserveCapacity(store.contacts.count)
            for (position, contact) in store.contacts.enumerated() { contacts[contact.id] = position }
            for (position, group) in store.groups.enumerated() { groups[group.id] = position }
            for (position, todo) in store.todos.enumerated() { todos[todo.id] = position }
        }
    }

    /// The contacts of a store whose ids were made from their cards' names (cards without a
    /// UID), by the stems of those names, in the order they took their ids: renaming one of them
    /// renumbers the cards of its old and its new name only, unless another name's ids can be
    /// among theirs.
    fileprivate struct NamedIDs: Sendable {
        /// The positions in the store of the contacts of each stem, ascending. Stems alike but
        /// for their Unicode normal form are one key, as they are one numbering (`takeID`).
        var positions: [String: [Int]] = [:]
        /// Each contact's own stem, by position: the bytes its ids are written with.
        var stems: [Int: String] = [:]
        /// For each stem that is another's numbered candidate ("Anna 3"), that other ("Anna"):
        /// how many such stems it has.
        var numbered: [String: Int] = [:]

        init(_ named: [StoreDecoder.NamedContact]) {
            stems.reserveCapacity(named.count)
            for contact in named {
                positions[contact.stem, default: []].append(contact.position)
                stems[contact.position] = contact.stem
            }
            for stem in positions.keys { note(stem, by: 1) }
        }

        /// Counts `stem` in `numbered` by `change` if it is a numbered candidate.
        private mutating func note(_ stem: String, by change: Int) {
            guard let parent = StoreDecoder.IDCandidates.numberedStem(of: stem) else { return }
            let count = numbered[String(parent), default: 0] + change
            numbered[String(parent)] = count == 0 ? nil : count
        }

        /// Whether the ids of some other stem's contacts may be candidates of `stem`'s, or the
        /// other way round: another stem is one of its numbered candidates, or it one of another's.
        func shares(_ stem: String) -> Bool {
            if numbered[stem] != nil { return true }
            guard let parent = StoreDecoder.IDCandidates.numberedStem(of: stem) else { return false }
            return positions[String(parent)] != nil
        }

        /// Moves the contact at `position` from one stem to another.
        mutating func move(_ position: Int, from old: String, to new: String) {
            positions[old]?.removeAll { $0 == position }
            if positions[old]?.isEmpty == true {
                positions[old] = nil
                note(old, by: -1)
            }
            if positions[new] == nil { note(new, by: 1) }
            var list = positions[new, default: []]
            list.insert(position, at: list.firstIndex { $0 > position } ?? list.endIndex)
            positions[new] = list
            stems[position] = new
        }
    }

    /// More changed files than this are decoded and related as a whole, on every core.
    static let patchLimit = 64

    /// Finds where each record of the last decode's store is, and which contacts took their ids
    /// from their names, if not known yet: what the first patch of that store would otherwise
    /// find (about 40 ms at 100,000 contacts). For when nothing waits.
    public func prepareForPatches() {
        state.withLock { state in
            _ = state.related?.positionsOfRecords()
            _ = state.related?.namedIDs()
        }
    }

    /// The last decode's store with the records of `files` that changed replaced, when only
    /// such records changed; nil when the store must be related again. What each file yields is
    /// kept for the next decode, as `decode` keeps it.
    func patched(_ files: ChunkedArray<StoreFile>) -> (store: Store, diagnostics: [Diagnostic])? {
        // What was kept is taken out while it is patched, so that changing it copies nothing
        // the last site does not share; what is not patched is put back.
        var (lastFiles, entries, kept) = state.withLock { state in
            defer {
                state.files = []
                state.entries = []
                state.related = nil
            }
            return (state.files, state.entries, state.related)
        }
        func putBack(_ related: Related?) {
            state.withLock { state in
                state.files = lastFiles
                state.entries = entries
                state.related = related
            }
        }
        guard var related = kept, files.count == lastFiles.count,
            let changed = Self.changedPositions(files, lastFiles)
        else {
            putBack(kept)
            return nil
        }
        // Held only by `related` from here on, which the patch changes in place.
        kept = nil
        var replacements: [Replacement] = []
        // The warnings of the vCard files whose cards' warnings are replaced.
        var rediagnosed: [String: [Diagnostic]] = [:]
        // A card without a UID renamed, and the ids that changed with it.
        var renamed: Renumbering?
        for position in changed {
            let file = files[position]
            let path = file.source.path
            guard !entries[position].bytes.hasSameBytes(as: file.source.bytes) else { continue }
            // A warning may name a place in this file, which the change may have moved.
            guard !related.mentionedPaths.contains(path) else {
                putBack(related)
                return nil
            }
            // A warning in a changed file may have moved or gone: a JSON file is decoded whole,
            // and so is a vCard file in which relating the store put a warning.
            if related.diagnosedPaths.contains(path) {
                guard case .cards(_, let own, _) = entries[position].yield,
                    related.diagnostics(in: path) == own.sortedByLocation()
                else {
                    putBack(related)
                    return nil
                }
            }
            let found: [Replacement]?
            switch file.layout {
            case .single, .list:
                guard case .records(_, let oldDiagnostics, _) = entries[position].yield else {
                    putBack(related)
                    return nil
                }
                // The entry is changed where it lies, so that a list's records, held by nothing
                // else now, are patched in place.
                let (yield, fresh, replaced) = records(of: file, updating: &entries[position])
                found =
                    oldDiagnostics.isEmpty
                    ? replacingRecords(replaced, yield, fresh: fresh, in: &related) : nil
            case .vCard:
                // The entry is changed where it lies, so that a long file's cards, held by
                // nothing else now, are patched in place.
                let (yield, change) = cards(of: file, updating: &entries[position])
                found = replacingCards(change, yield, in: &related, renamed: &renamed)
                if found != nil, related.diagnosedPaths.contains(path) || !yield.diagnostics.isEmpty {
                    rediagnosed[path] = yield.diagnostics
                }
            case .iCalendar, .photo:
                found = nil
            }
            guard let found, replacements.count + found.count <= Self.patchLimit else {
                putBack(related)
                return nil
            }
            replacements += found
        }
        // A rename is patched alone: another card replaced might be one it renumbers.
        if let renamed, replacements.count != renamed.changes.count {
            putBack(related)
            return nil
        }
        // Changed in place: nothing else holds the store's records now (the last site let go
        // of them), so no contact is copied but the changed ones.
        var replacedContacts: [(position: Int, before: Contact)] = []
        var replacedOthers = false
        for replacement in replacements {
            switch replacement {
            case .contact(let position, let contact):
                replacedContacts.append((position, related.store.contacts[position]))
                related.store.contacts[position] = contact
            case .group(let position, let group):
                related.store.groups[position] = group
                replacedOthers = true
            case .todo(let position, let todo):
                related.store.todos[position] = todo
                replacedOthers = true
            }
        }
        related.replaceDiagnostics(rediagnosed)
        if let renamed { related.renumber(renamed) }
        let store = related.store
        state.withLock { state in
            state.files = files
            state.entries = entries
            state.related = related
            state.patched += 1
            state.changes = StoreChanges(
                generation: state.changes.generation + 1, base: state.changes.generation,
                contacts: replacedContacts, replacedOthers: replacedOthers)
        }
        return (store, related.diagnostics)
    }

    /// The positions of the files that are not the last decode's at the same place; nil when a
    /// file is another one than was there, or too many changed. Only the chunks the two lists
    /// do not share are looked at.
    private static func changedPositions(
        _ files: ChunkedArray<StoreFile>, _ lastFiles: ChunkedArray<StoreFile>
    ) -> [Int]? {
        var changed: [Int] = []
        for range in files.rangesNotShared(with: lastFiles) {
            for position in range where files[position].source !== lastFiles[position].source {
                let file = files[position]
                let last = lastFiles[position]
                guard changed.count < patchLimit, file.source.path == last.source.path,
                    file.layout == last.layout,
                    file.kind == last.kind, file.collection == last.collection
                else { return nil }
                changed.append(position)
            }
        }
        return changed
    }

    /// A record of the store replaced.
    private enum Replacement {
        case contact(Int, Contact)
        case group(Int, Group)
        case todo(Int, Todo)
    }

    /// The replacements for what a JSON file yields now, given the records that those decoded
    /// afresh replaced (`replaced`, for the positions `fresh`; nil: all); nil when its records
    /// cannot simply be replaced.
    private func replacingRecords(
        _ replaced: [DecodedRecord]?, _ yield: (records: [DecodedRecord], diagnostics: [Diagnostic]),
        fresh: [Int]?, in related: inout Related
    ) -> [Replacement]? {
        guard let replaced, yield.diagnostics.isEmpty else { return nil }
        let positions = fresh ?? Array(yield.records.indices)
        guard positions.count <= Self.patchLimit, positions.count == replaced.count else { return nil }
        var found: [Replacement] = []
        for (position, old) in zip(positions, replaced) {
            guard let replacement = replacement(old, yield.records[position], in: &related) else {
                return nil
            }
            found.append(replacement)
        }
        return found
    }

    /// The replacement for a JSON record as it is now, given the record it was.
    private func replacement(_ old: DecodedRecord, _ new: DecodedRecord, in related: inout Related)
        -> Replacement?
    {
        guard old.isPlain, new.isPlain, old.kind == new.kind, let id = new.id, old.id == id,
            old.groupReferences.map(\.0) == new.groupReferences.map(\.0),
            old.salutationReference?.0 == new.salutationReference?.0,
            old.photoReference?.0 == new.photoReference?.0,
            old.contactReference?.0 == new.contactReference?.0,
            old.parentReference?.0 == new.parentReference?.0
        else { return nil }
        let positions = related.positionsOfRecords()
        switch (old.payload, new.payload) {
        case (.contact(let oldContact), .contact(var contact)):
            guard let position = positions.contacts[id], Self.sameRelations(oldContact, contact) else {
                return nil
            }
            // What relating gave the contact: its groups (a vCard group may list it), its
            // salutation record's text and its photo file's photo.
            let related = related.store.contacts[position]
            contact.groupIDs = related.groupIDs
            if new.salutationReference != nil { contact.salutation = related.salutation }
            if new.photoReference != nil { contact.photo = related.photo }
            return .contact(position, contact)
        case (.group(let oldGroup), .group(let group)):
            // A group's name decides which categories of cards join it, and a group card of
            // its name may have given it notes.
            guard let position = positions.groups[id], !related.hasCards,
                related.store.groups[position] == oldGroup
            else { return nil }
            return .group(position, group)
        case (.todo, .todo(let todo)):
            guard let position = positions.todos[id] else { return nil }
            return .todo(position, todo)
        default:
            return nil
        }
    }

    /// The replacements for the contact cards a save changed in a vCard file, each the card
    /// that was at its place; nil when some card came, went, is a group card, or relates to
    /// others differently (its UID, its categories, its emails). A card without a UID renamed
    /// is the one card replaced, with the cards `renumbering` gives other ids (`renamed` says
    /// which). The file's warnings are its cards' own (a birthday that is not a date):
    /// `patched` relates the store again for a file in which relating put one.
    private func replacingCards(
        _ change: CardChange, _ yield: (cards: [VCardRecord], diagnostics: [Diagnostic]),
        in related: inout Related, renamed: inout Renumbering?
    ) -> [Replacement]? {
        guard change.replaced.count == change.fresh.count else { return nil }
        var replacements: [Replacement] = []
        for (old, index) in zip(change.replaced, change.fresh) {
            let new = yield.cards[index]
            guard case .contact(let oldContact) = old.content, case .contact(var contact) = new.content,
                old.uid?.value == new.uid?.value, oldContact.id == contact.id,
                old.categories.map(\.value) == new.categories.map(\.value),
                Self.sameRelations(oldContact, contact)
            else { return nil }
            let positions = related.positionsOfRecords()
            let found: Int?
            if old.uid != nil {
                found = positions.contacts[contact.id]
            } else {
                // Exports from Google Contacts and Android phones give cards no UID: the id is
                // made from the name.
                found = Self.position(ofCardWithoutUID: old, oldContact, in: related.store, positions)
                let stems = (old: Self.stem(of: old), new: Self.stem(of: new))
                // Compared byte for byte: a name saved in another normal form makes other ids.
                if let position = found, !stems.old.hasSameBytes(as: stems.new) {
                    guard change.replaced.count == 1, renamed == nil,
                        let renumbered = Self.renumbering(
                            position, from: stems.old, to: stems.new, in: &related),
                        let own = renumbered.changes.first(where: { $0.position == position })
                    else { return nil }
                    renamed = renumbered
                    for moved in renumbered.changes where moved.position != position {
                        var other = related.store.contacts[moved.position]
                        other.id = moved.after
                        replacements.append(.contact(moved.position, other))
                    }
                    contact.id = own.after
                    contact.groupIDs = related.store.contacts[position].groupIDs
                    replacements.append(.contact(position, contact))
                    continue
                }
            }
            guard let position = found else { return nil }
            contact.id = related.store.contacts[position].id
            // Its groups come from its categories and the group cards that list it.
            contact.groupIDs = related.store.contacts[position].groupIDs
            replacements.append(.contact(position, contact))
        }
        return replacements
    }

    /// The stem of the ids a card without a UID takes (`StoreDecoder.IDCandidates`).
    private static func stem(of card: VCardRecord) -> String {
        StoreDecoder.IDCandidates(card.formattedName, fallback: StoreDecoder.cardIDFallback).stem
    }

    /// The ids that change when the contact at `position`, whose id was made from a name of
    /// stem `from`, is renamed to one of stem `to`: its own, and those of the contacts of
    /// either stem after it, each of which took the first of its stem's ids that no record
    /// before it had (`StoreDecoder.takeID`). Nil when another stem's ids may be among theirs
    /// ("Anna" and "Anna 3"), when the store's ids are not the ones that gives (checked, so
    /// that what this assumes holds), or when a todo names an id that changes.
    private static func renumbering(_ position: Int, from: String, to: String, in related: inout Related)
        -> Renumbering?
    {
        // Stems alike but for their normal form share their ids' numbers: such a rename is
        // related whole.
        guard from != to, let names = related.namedIDs(), !names.shares(from), !names.shares(to),
            StoreDecoder.IDCandidates.numberedStem(of: to) != Substring(from),
            StoreDecoder.IDCandidates.numberedStem(of: from) != Substring(to),
            let before = names.positions[from], before.contains(position)
        else { return nil }
        let beforeTo = names.positions[to] ?? []
        let store = related.store
        let ids = related.positionsOfRecords().contacts
        // The ids of a stem's contacts, in order: each the next candidate no other record has.
        // (A JSON contact or a card's UID may have one; another stem's contact cannot.) Each is
        // written with its own card's stem, which may be in another normal form than the
        // others'; the renamed contact's is the new one.
        let own = Set((before + beforeTo).map { store.contacts[$0].id })
        func taken(by contacts: [Int], renamedAs renamedStem: String) -> [String]? {
            var number = 1
            var taken: [String] = []
            for contact in contacts {
                guard let stem = contact == position ? renamedStem : names.stems[contact] else { return nil }
                var candidates = StoreDecoder.IDCandidates(stem: stem)
                candidates.number = number
                var id = candidates.next()
                while ids[id] != nil, !own.contains(id) { id = candidates.next() }
                number = candidates.number
                taken.append(id)
            }
            return taken
        }
        func stored(_ contacts: [Int]) -> [String] { contacts.map { store.contacts[$0].id } }
        guard let fromIDs = taken(by: before, renamedAs: from), fromIDs.hasSameBytes(as: stored(before)),
            let toIDs = taken(by: beforeTo, renamedAs: to), toIDs.hasSameBytes(as: stored(beforeTo))
        else { return nil }
        let afterFrom = before.filter { $0 != position }
        var afterTo = beforeTo
        afterTo.insert(position, at: afterTo.firstIndex { $0 > position } ?? afterTo.endIndex)
        var changes: [Renumbering.Change] = []
        for contacts in [afterFrom, afterTo] {
            guard let made = taken(by: contacts, renamedAs: to) else { return nil }
            for (contact, id) in zip(contacts, made) where !id.hasSameBytes(as: store.contacts[contact].id) {
                changes.append(
                    Renumbering.Change(position: contact, before: store.contacts[contact].id, after: id))
            }
        }
        let moved = Set(changes.map(\.before))
        guard changes.count <= patchLimit,
            !store.todos.contains(where: { $0.contactID.map(moved.contains) ?? false })
        else { return nil }
        return Renumbering(position: position, from: from, to: to, changes: changes)
    }

    /// A contact whose id was made from its name renamed, and the ids that changed with it.
    fileprivate struct Renumbering {
        /// An id that changed.
        struct Change {
            var position: Int
            var before: String
            var after: String
        }
        /// The renamed contact's position in the store.
        var position: Int
        /// The stems of its old and its new name.
        var from: String
        var to: String
        /// Every id that changed, the renamed contact's among them.
        var changes: [Change]
    }

    /// Where the contact of a card without a UID is in the store. Relating gave it the first id
    /// its name makes (`StoreDecoder.uniqueID`) that no record had before it, so it is one of
    /// the ids the name makes up to the first the store does not have: the one whose contact is
    /// the card's, but for the id and the groups relating gave it. Nil when none is, or more
    /// than one (two cards alike but for their place): a card that keeps its name keeps its id
    /// only as long as the cards before it keep theirs, which `patched` sees to.
    private static func position(
        ofCardWithoutUID card: VCardRecord, _ contact: Contact, in store: Store, _ positions: Positions
    ) -> Int? {
        var candidates = StoreDecoder.IDCandidates(card.formattedName, fallback: StoreDecoder.cardIDFallback)
        var found: Int?
        while let position = positions.contacts[candidates.next()] {
            var stored = store.contacts[position]
            stored.id = contact.id
            stored.groupIDs = contact.groupIDs
            guard stored == contact else { continue }
            guard found == nil else { return nil }
            found = position
        }
        return found
    }

    /// Whether what relates a contact to others is the same in both: its id, its groups as
    /// written, and its email addresses (a vCard group may name a member by one).
    private static func sameRelations(_ old: Contact, _ new: Contact) -> Bool {
        old.id == new.id && old.groupIDs == new.groupIDs && old.emails.map(\.value) == new.emails.map(\.value)
    }
}

extension DecodedRecord {
    /// Whether the record has an id, a payload and no problem, and stands for no unread text.
    fileprivate var isPlain: Bool {
        id != nil && diagnostics.isEmpty && !isUnread && rejectedID == nil
    }
}
