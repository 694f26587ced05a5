import RolodeckCore

/// vCard files in the store: their cards become contacts and groups.
///
/// - A contact's id is its UID (without `urn:uuid:`). A card without a UID gets an id made
///   from its name ("Ando Roid", then "Ando Roid 2" …), the same on every build.
/// - A UID seen on an earlier card is a warning and the later card is skipped: the same person
///   synced into two address books is one contact. A UID equal to a JSON contact's id is an
///   error, as any duplicate id in the JSON store is.
/// - Groups from the three dialects are merged by name (ignoring case), with the JSON store's
///   groups first: vCard 4 `KIND:group` cards and Apple's `X-ADDRESSBOOKSERVER-KIND:group`
///   cards (their UID is the group's id), then `CATEGORIES` (a category names a group, or
///   matches a group's id; otherwise it becomes a group of its own with the name as id).
/// - Members are found by UID (with or without `urn:uuid:`), by `mailto:` address, or are
///   groups, whose members are included; a member that is not in the store is a warning.
extension StoreDecoder {
    /// A vCard file at least this long is read in pieces on every core: a phone's export of
    /// every contact is one file, 66 MB at 100,000 cards.
    static let minimumCardPiecesLength = 256 * 1024

    /// Whether a vCard file is long enough to be read in pieces.
    static func readsInPieces(_ file: StoreFile) -> Bool {
        readsInPieces(file.source.bytes.count)
    }

    /// Whether a vCard file of `length` bytes is long enough to be read in pieces.
    static func readsInPieces(_ length: Int) -> Bool {
        length >= minimumCardPiecesLength && ParallelWork.workers > 1
    }

    /// What a vCard file yields on its own: its cards, and the problems found in them. A long
    /// file is read in pieces on every core when it can be. `pieceLength` is for tests.
    static func cards(of file: StoreFile, pieceLength: Int? = nil)
        -> (cards: [VCardRecord], diagnostics: [Diagnostic])
    {
        let lines = ContentLineFile(source: file.source)
        if pieceLength != nil || readsInPieces(file) {
            return cards(of: lines, startingAt: cardPieceStarts(of: lines, pieceLength: pieceLength))
        }
        return wholeCards(of: lines)
    }

    /// What a vCard file yields on its own, and, for a long file whose pieces read as they do
    /// in the file, where each card is and the problems each has (`CardSpans`), so that a watch
    /// can read again only the cards a save changed.
    static func cardsAndSpans(of file: StoreFile)
        -> (cards: [VCardRecord], diagnostics: [Diagnostic], spans: CardSpans?)
    {
        let lines = ContentLineFile(source: file.source)
        guard file.source.bytes.count >= minimumCardPiecesLength, !file.source.bytes.isUTF16,
            let piece = cardsInPieces(of: lines, startingAt: cardPieceStarts(of: lines, pieceLength: nil))
        else {
            let (cards, diagnostics) = wholeCards(of: lines)
            return (cards, diagnostics, nil)
        }
        let spans = CardSpans(
            piece.cards, in: lines, lineDiagnostics: piece.lineDiagnostics,
            fieldDiagnostics: piece.fieldDiagnostics)
        return (piece.cards, piece.lineDiagnostics + piece.fieldDiagnostics, spans)
    }

    /// The cards of a file's lines read in pieces that start at `starts`
    /// (`cardPieceStarts`), or as a whole when that is one piece or some piece does not read as
    /// it does in the file.
    static func cards(of lines: ContentLineFile, startingAt starts: [Int])
        -> (cards: [VCardRecord], diagnostics: [Diagnostic])
    {
        if starts.count > 1, let piece = cardsInPieces(of: lines, startingAt: starts) {
            return (piece.cards, piece.lineDiagnostics + piece.fieldDiagnostics)
        }
        return wholeCards(of: lines)
    }

    /// A file's lines read in pieces that start at `starts` on every core, as one piece: its
    /// cards, then the problems of its lines and of its fields; nil when some piece does not
    /// read as it does in the file (`cardPiece`).
    static func cardsInPieces(of lines: ContentLineFile, startingAt starts: [Int]) -> CardPiece? {
        var pieces = ParallelWork.map(starts.count, batch: 1) { index in
            cardPiece(index, of: lines, starts: starts)
        }
        guard pieces.allSatisfy({ $0 != nil }) else { return nil }
        var read = CardPiece(cards: [], lineDiagnostics: [], fieldDiagnostics: [])
        read.cards.reserveCapacity(pieces.reduce(0) { $0 + $1!.cards.count })
        for index in pieces.indices {
            var piece = pieces[index].take()!
            moveCards(&piece.cards, to: &read.cards)
            read.lineDiagnostics += piece.lineDiagnostics
            read.fieldDiagnostics += piece.fieldDiagnostics
        }
        return read
    }

    /// The cards of a file read as a whole, and the problems found in them.
    static func wholeCards(of lines: ContentLineFile)
        -> (cards: [VCardRecord], diagnostics: [Diagnostic])
    {
        var (parsed, parseDiagnostics) = VCardParser.parse(lines)
        var fields = VCardFields()
        let cards = fields.records(taking: &parsed)
        return (cards, parseDiagnostics + fields.diagnostics)
    }

    /// Reads a long vCard file in pieces on every core, and takes each piece's cards as soon as
    /// it and those before it are read, claiming their UIDs when `claiming`, so that this core's
    /// work overlaps the reading of later pieces. A file of one piece, or with a piece that does
    /// not read as it does in the file (`cardPiece`), is read as a whole instead.
    mutating func acceptCardsInPieces(_ file: StoreFile, claiming: Bool) {
        let lines = ContentLineFile(source: file.source)
        let starts = Self.cardPieceStarts(of: lines, pieceLength: nil)
        guard starts.count > 1 else {
            acceptWholeCards(Self.wholeCards(of: lines), claiming: claiming)
            return
        }
        // Put back when a piece does not read as it does in the file.
        let before = self
        var failed = false
        var lineDiagnostics: [Diagnostic] = [], fieldDiagnostics: [Diagnostic] = []
        ParallelWork.inOrder(starts.count, batch: 1) { index in
            Self.cardPiece(index, of: lines, starts: starts)
        } consume: { index, piece in
            guard !failed, var piece else {
                failed = true
                return
            }
            // Pieces are about as long as each other: room for the cards of all at once, not
            // grown (and every UID hashed again) as they come.
            if index == 0 { reserveCards(for: cards.count + piece.cards.count * (starts.count + 1)) }
            takeCards(&piece.cards)
            lineDiagnostics += piece.lineDiagnostics
            fieldDiagnostics += piece.fieldDiagnostics
            if claiming { claimCards() }
        }
        if failed {
            self = before
            acceptWholeCards(Self.wholeCards(of: lines), claiming: claiming)
        } else {
            // Where the file read whole puts them: its lines' problems, then its fields'.
            diagnostics += lineDiagnostics + fieldDiagnostics
        }
    }

    /// Takes the cards of a file read as a whole, with their problems.
    private mutating func acceptWholeCards(
        _ yield: (cards: [VCardRecord], diagnostics: [Diagnostic]), claiming: Bool
    ) {
        var yield = yield
        takeCards(&yield.cards)
        diagnostics += yield.diagnostics
        if claiming { claimCards() }
    }

    /// Where the pieces of a file of about `pieceLength` bytes start (a sixteenth of the file
    /// on two cores, or 64 KB, by default), as physical lines: the first line, then the line of
    /// each card that begins after a piece's length (`ContentLineFile.componentStart`).
    static func cardPieceStarts(of file: ContentLineFile, pieceLength: Int?) -> [Int] {
        let length = pieceLength ?? max(minimumPieceLength, file.bytes.count / (8 * ParallelWork.workers))
        var starts = [0]
        var offset = length
        while offset < file.bytes.count, let start = file.componentStart(from: offset, component: "VCARD") {
            if start > starts[starts.count - 1] { starts.append(start) }
            offset = file.lines[start].start + length
        }
        return starts
    }

    /// A piece of a long vCard file, read: its cards, and the problems found in its lines and
    /// in its cards' fields, in the order the file read whole reports them.
    struct CardPiece: Sendable {
        var cards: [VCardRecord]
        var lineDiagnostics: [Diagnostic]
        var fieldDiagnostics: [Diagnostic]
    }

    /// Piece `index` of a file whose pieces start at `starts`, read; nil when it does not read
    /// as it does in the file (`VCardParser.parsePiece`), or a problem of a kind reported once
    /// a file was found in it, which a piece before it may have reported already. The file is
    /// then read as a whole, so that its messages are those of the whole file.
    static func cardPiece(_ index: Int, of file: ContentLineFile, starts: [Int]) -> CardPiece? {
        let end = index + 1 < starts.count ? starts[index + 1] : file.lines.count
        var (parsed, diagnostics, readsAsInTheFile) = VCardParser.parsePiece(file, lines: starts[index]..<end)
        guard readsAsInTheFile else { return nil }
        var fields = VCardFields()
        let cards = fields.records(taking: &parsed)
        guard !fields.lineText.reportedOnceAFile else { return nil }
        return CardPiece(cards: cards, lineDiagnostics: diagnostics, fieldDiagnostics: fields.diagnostics)
    }

    /// Moves every card of `source` to the end of `cards`, leaving `source` empty: a copy would
    /// retain all that every card holds.
    static func moveCards(_ source: inout [VCardRecord], to cards: inout [VCardRecord]) {
        // Reversed where they are, by moves: `Array.reverse` copies each card twice.
        source.withUnsafeMutableBufferPointer { $0.reverse() }
        while let card = source.popLast() { cards.append(card) }
    }

    /// Moves a file's cards to the end of `cards`, leaving `fileCards` empty: appending a copy
    /// would retain all that every card holds, and freeing the file's array release it again.
    mutating func takeCards(_ fileCards: inout [VCardRecord]) {
        guard fileCards.count > 1 else {
            if let card = fileCards.popLast() { cards.append(card) }
            return
        }
        Self.moveCards(&fileCards, to: &cards)
    }

    /// A contact card's contact, on its way into the store, the position in `cards` of the
    /// card it comes from (a copy of the card would retain all it holds), and whether the card
    /// has no UID, so the contact still needs an id (asking the contact or the card would touch
    /// memory long untouched, for every card).
    typealias CardContact = (contact: Contact, card: Int, needsID: Bool)
    /// A member a group card lists, as written, and the group it is a member of.
    typealias Membership = (groupID: String, groupName: String, member: Located<String>)

    /// Adds the vCard files' cards to the store: contacts under their UIDs, then under ids made
    /// from their names; group cards merged into the groups by name; each contact's categories;
    /// then the group cards' members.
    mutating func mergeCards() {
        guard !cards.isEmpty else { return }
        claimCards()
        var contacts: [CardContact] = []
        swap(&contacts, &cardContacts)
        giveIDsFromNames(to: &contacts, from: store.contacts.count)
        var groupsByName = groupIDsByName()
        let groupCards = cardGroups.map { cards[$0] }
        let (memberships, groupByUID) = mergeGroupCards(groupCards, groupsByName: &groupsByName)
        // A group card may list a member by what is an id made from a name.
        if !memberships.isEmpty { namedContacts = nil }
        addCategories(to: &contacts, groupsByName: &groupsByName)
        // Moved into the store one by one: mapped and appended, each contact was copied twice,
        // on one thread, after the cards are read.
        contacts.withUnsafeMutableBufferPointer { $0.reverse() }
        store.contacts.reserveCapacity(store.contacts.count + contacts.count)
        while let taken = contacts.popLast() { store.contacts.append(taken.contact) }
        addMembers(memberships, groupByUID: groupByUID)
    }

    /// Makes room for `count` cards at least, and their contacts, at once: a table grown as they
    /// come hashes every UID again each time it doubles, and a list moves every card.
    mutating func reserveCards(for count: Int) {
        guard count > cardUIDs.capacity else { return }
        reserveIDs(for: count, of: .contact)
        cards.reserveCapacity(count)
        cardUIDs.reserveCapacity(count)
        cardContacts.reserveCapacity(count)
    }

    /// Takes the contacts of the cards not taken yet, those with a UID under it (`VCardFields`
    /// gave them it as their id), and notes the group cards. A contact whose UID is taken is
    /// reported and left out. Called as files come in once no JSON contact is to come after
    /// them (a UID a JSON contact has is that card's error), and for the rest by `mergeCards`.
    mutating func claimCards() {
        guard claimedCards < cards.count else { return }
        if claimedCards == 0 { reserveCards(for: cards.count) }
        // Out of `self` while `claim` writes to both.
        var claimed: [String: Int] = [:]
        swap(&claimed, &cardUIDs)
        defer { swap(&claimed, &cardUIDs) }
        for index in claimedCards..<cards.count {
            // The card lets go of its contact, so the contact's storage is the store's alone and
            // adding its groups does not copy it.
            guard let contact = cards[index].takeContact() else {
                cardGroups.append(index)
                continue
            }
            guard let uid = cards[index].uid else {
                cardContacts.append((contact, index, true))
                continue
            }
            // The first card is noted by its position, and its location looked up only when
            // another card has its UID: noting it copied its location, a path, for every card.
            switch claim(uid, of: .contact, as: index, claimed: &claimed) {
            case .taken: cardContacts.append((contact, index, false))
            case .repeated(let first):
                let firstLocation = cards[first].location
                let reason = VCardIssue.Reason.duplicateUID(uid.value, first: firstLocation)
                diagnostics.append(VCardIssue.warning(reason, at: uid.location).mentioning(firstLocation))
            case .json: continue
            }
        }
        claimedCards = cards.count
    }

    /// Gives each contact without a UID an id made from its name, and notes it in
    /// `namedContacts` (the contacts go into the store from position `start` on). Every UID is
    /// known by then, so such an id never takes a UID's place.
    private mutating func giveIDsFromNames(to contacts: inout [CardContact], from start: Int) {
        var untried: [String: Int] = [:]
        for index in contacts.indices where contacts[index].needsID {
            let card = contacts[index].card
            let (id, stem) = Self.takeID(
                cards[card].formattedName, fallback: StoreDecoder.cardIDFallback,
                for: .location(cards[card].location), in: &contactIDs, untried: &untried)
            contacts[index].contact.id = id
            namedContacts?.append(NamedContact(position: start + index, stem: stem))
        }
    }

    /// A contact whose id was made from its card's name: its position in the store, and the
    /// stem of the ids its name makes (`IDCandidates.stem`).
    struct NamedContact: Sendable {
        var position: Int
        var stem: String
    }

    /// The id of a contact card without a UID or a name, numbered when taken.
    static let cardIDFallback = "contact"

    /// The JSON store's groups' ids by `groupKey` of their names; the first of a name counts.
    private func groupIDsByName() -> [String: String] {
        var groupsByName: [String: String] = [:]
        for group in store.groups where groupsByName[StoreDecoder.groupKey(group.name)] == nil {
            groupsByName[StoreDecoder.groupKey(group.name)] = group.id
        }
        return groupsByName
    }

    /// Merges each group card into the group of its name, or adds it as a group, and returns the
    /// members the cards list and which group each card's UID stands for. A card without a name,
    /// with a UID an earlier group card has, or with a JSON group's id as its UID is reported and
    /// left out.
    private mutating func mergeGroupCards(_ groupCards: [VCardRecord], groupsByName: inout [String: String])
        -> (memberships: [Membership], groupByUID: [String: String])
    {
        var memberships: [Membership] = []
        var groupByUID: [String: String] = [:]
        var groupCardUIDs: [String: SourceLocation] = [:]
        for record in groupCards {
            guard case .group(let name, let notes, let classification, let members) = record.content else {
                continue
            }
            guard !name.isBlank else {
                warn(.groupWithoutName, at: record.location)
                continue
            }
            if let uid = record.uid, let first = groupCardUIDs[uid.value] {
                let reason = VCardIssue.Reason.duplicateGroupUID(uid.value, first: first)
                diagnostics.append(VCardIssue.warning(reason, at: uid.location).mentioning(first))
                continue
            }
            guard
                let id = groupID(
                    of: record, named: name, notes: notes, classification: classification,
                    groupsByName: &groupsByName)
            else { continue }
            if let uid = record.uid {
                groupCardUIDs[uid.value] = record.location
                groupByUID[uid.value] = id
            }
            memberships += members.map { (id, name, $0) }
        }
        return (memberships, groupByUID)
    }

    /// The id of the group a group card stands for: the group of its name, whose notes it gives
    /// when that group has none, and which it makes private when it is (a group any of its cards
    /// marks private is private), or a new group under its UID or an id made from its name; nil
    /// after reporting that its UID is a JSON group's id.
    private mutating func groupID(
        of record: VCardRecord, named name: String, notes: String, classification: String?,
        groupsByName: inout [String: String]
    ) -> String? {
        let key = StoreDecoder.groupKey(name)
        if let existing = groupsByName[key] {
            if let index = store.groups.firstIndex(where: { $0.id == existing }) {
                if store.groups[index].notes.isBlank { store.groups[index].notes = notes }
                let group = store.groups[index].classification
                if group == nil || (AccessClass.isPrivate(classification) && !AccessClass.isPrivate(group)) {
                    store.groups[index].classification = classification
                }
            }
            return existing
        }
        if let uid = record.uid, let json = groupIDs[uid.value] {
            let issue = StoreIssue(.duplicateID(.group, id: uid.value, first: json.location))
            diagnostics.append(Diagnostic(.error, at: uid.location, issue.message).mentioning(json.location))
            return nil
        }
        let id = record.uid?.value ?? StoreDecoder.uniqueID(name, fallback: "group") { groupIDs[$0] != nil }
        var group = Group(id: id, name: name, notes: notes)
        group.classification = classification
        store.groups.append(group)
        groupIDs[id] = .location(record.uid?.location ?? record.location)
        groupsByName[key] = id
        return id
    }

    /// Puts each contact in the groups its `CATEGORIES` name, once each.
    private mutating func addCategories(
        to contacts: inout [CardContact], groupsByName: inout [String: String]
    ) {
        // The group each category found by its name, which a category of that name finds every
        // time: a name is given a group once and keeps it. (A category found as a group's id
        // is looked up again: a later category of the same name may make a group of it.)
        var groupByName: [WrittenName: String] = [:]
        // Out of `self`, to be read in place while `groupID` adds groups.
        var cards: [VCardRecord] = []
        swap(&cards, &self.cards)
        defer { swap(&cards, &self.cards) }
        cards.withUnsafeBufferPointer { cards in
            for index in contacts.indices {
                cards[contacts[index].card].categories.withUnsafeBufferPointer { categories in
                    for category in categories.indices {
                        let id: String
                        let name = WrittenName(categories[category].value)
                        if let known = groupByName[name] {
                            id = known
                        } else {
                            id = groupID(ofCategory: categories[category], groupsByName: &groupsByName)
                            if groupsByName[StoreDecoder.groupKey(name.text)] == id {
                                groupByName[name] = id
                            }
                        }
                        if !contacts[index].contact.groupIDs.contains(id) {
                            contacts[index].contact.groupIDs.append(id)
                        }
                    }
                }
            }
        }
    }

    /// A name as written, equal to another only byte for byte, and hashed by its bytes. As a
    /// key it finds a category's group without the Unicode normalization a `String` key takes
    /// for every name that is not ASCII: 55 ms of 100,000 cards' categories, on one thread,
    /// after the cards are read. A name written in other bytes that Unicode takes as the same
    /// misses, and `groupID(ofCategory:)` finds it the same group.
    private struct WrittenName: Hashable {
        let text: String

        init(_ text: String) { self.text = text }

        static func == (left: WrittenName, right: WrittenName) -> Bool {
            var left = left.text, right = right.text
            return left.withUTF8 { left in right.withUTF8 { left.elementsEqual($0) } }
        }

        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The id of the group a category names: the group of that name, else the group with that
    /// id, else a new group of that name.
    private mutating func groupID(ofCategory category: Located<String>, groupsByName: inout [String: String])
        -> String
    {
        let key = StoreDecoder.groupKey(category.value)
        if let id = groupsByName[key] ?? (groupIDs[category.value] != nil ? category.value : nil) {
            return id
        }
        let id = StoreDecoder.uniqueID(category.value, fallback: "group") { groupIDs[$0] != nil }
        store.groups.append(Group(id: id, name: category.value))
        groupIDs[id] = .location(category.location)
        groupsByName[key] = id
        return id
    }

    /// Adds the members of group cards to their groups, including the members of member groups.
    private mutating func addMembers(_ memberships: [Membership], groupByUID: [String: String]) {
        guard !memberships.isEmpty else { return }
        let members = findMembers(memberships, groupByUID: groupByUID)
        for groupID in members.groups {
            for index in members.contacts(inGroupAndItsSubgroups: groupID)
            where !store.contacts[index].groupIDs.contains(groupID) {
                store.contacts[index].groupIDs.append(groupID)
            }
        }
    }

    /// The members group cards list, found among the store's contacts and groups.
    struct GroupCardMembers {
        /// The groups in the order their cards list members.
        var groups: [String] = []
        /// Each group's members that are contacts, as positions in the store's contacts.
        var contacts: [String: [Int]] = [:]
        /// Each group's members that are groups.
        var subgroups: [String: [String]] = [:]

        /// The contacts of a group and of its member groups, theirs and so on, depth first.
        func contacts(inGroupAndItsSubgroups groupID: String) -> [Int] {
            // `visited` stops a group that contains itself.
            var visited: Set<String> = [groupID]
            var pending = subgroups[groupID] ?? []
            var members = contacts[groupID] ?? []
            while let next = pending.popLast() {
                guard visited.insert(next).inserted else { continue }
                members += contacts[next] ?? []
                pending += subgroups[next] ?? []
            }
            return members
        }
    }

    /// Finds what each member is: the contact with its `mailto:` address, else the contact or
    /// group with its UID (or the group with it as id). A member that is none of these is
    /// reported.
    private mutating func findMembers(_ memberships: [Membership], groupByUID: [String: String])
        -> GroupCardMembers
    {
        var contactByID: [String: Int] = [:]
        var contactByEmail: [String: Int] = [:]
        for (index, contact) in store.contacts.enumerated() {
            contactByID[contact.id] = contactByID[contact.id] ?? index
            for email in contact.emails {
                let key = email.value.trimmingWhitespace.lowercased()
                if contactByEmail[key] == nil { contactByEmail[key] = index }
            }
        }
        var found = GroupCardMembers()
        for (groupID, groupName, member) in memberships {
            if found.contacts[groupID] == nil, found.subgroups[groupID] == nil {
                found.groups.append(groupID)
            }
            let written = member.value
            let uid = VCardFields.normalizedUID(written) ?? ""
            let email =
                written.lowercased().hasPrefix("mailto:")
                ? String(written.dropFirst("mailto:".count)).trimmingWhitespace.lowercased() : nil
            if let email, let index = contactByEmail[email] {
                found.contacts[groupID, default: []].append(index)
            } else if let index = contactByID[uid] {
                found.contacts[groupID, default: []].append(index)
            } else if let group = groupByUID[uid] ?? (groupIDs[uid] != nil ? uid : nil) {
                found.subgroups[groupID, default: []].append(group)
            } else {
                warn(.unknownMember(group: groupName, member: written), at: member.location)
            }
        }
        return found
    }

    private mutating func warn(_ reason: VCardIssue.Reason, at location: SourceLocation) {
        diagnostics.append(VCardIssue.warning(reason, at: location))
    }

    /// Group names that differ only in case or surrounding space are one group.
    static func groupKey(_ name: String) -> String {
        name.trimmingWhitespace.lowercased()
    }
}
