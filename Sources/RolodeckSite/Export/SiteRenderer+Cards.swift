import RolodeckCore

extension SiteRenderer {
    /// The writer of the site's vCards, `REV` the day the store last changed (the footer's "last
    /// updated": `SOURCE_DATE_EPOCH`'s day when it is set), else the build's date.
    var cardWriter: VCardWriter { VCardWriter(revisionDate: lastUpdated ?? today) }

    /// `contacts/<slug>.vcf`: the vCard of entry `index`, with its photo as the site writes it.
    func contactCard(_ index: Int) -> [UInt8] {
        cardWithPhoto(index) ?? cardWithoutPhoto(index)
    }

    /// The vCard of entry `index` as a file of several cards has it: without the photo, which
    /// only the contact's own card carries (a group's file and `contacts.vcf` would grow by
    /// every member's photo).
    func cardWithoutPhoto(_ index: Int) -> [UInt8] {
        cardWriter.card(directory.exportedCard(ofEntry: index))
    }

    /// The vCard of entry `index` with its photo; nil when the contact has no photo shown.
    func cardWithPhoto(_ index: Int) -> [UInt8]? {
        // Most contacts have no photo: asked before the card is made, not after.
        guard let photo = directory.entries[index].contact.photo, let files = views.photos.files[photo.digest]
        else { return nil }
        var card = directory.exportedCard(ofEntry: index)
        card.photo = (photo.format, files.bytes)
        return cardWriter.card(card)
    }

    /// `groups/<slug>.vcf`: the vCards of group `index`'s members, in the order its page lists them.
    func groupCard(_ index: Int) -> [UInt8] {
        Self.joined(groupCardParts(index))
    }

    /// The cards `groupCard` joins.
    func groupCardParts(_ index: Int) -> [[UInt8]] {
        let cards = entryCards()
        return directory.groups[index].sections.flatMap { $0.items.map { cards[$0] } }
    }

    /// `contacts.vcf`: every contact's vCard, in the order the index lists them.
    func directoryCard() -> [UInt8] {
        Self.joined(directoryCardParts())
    }

    /// The cards `directoryCard` joins.
    func directoryCardParts() -> [[UInt8]] {
        let cards = entryCards()
        // The entries are planned in the index's order, so its sections list them one after
        // the other: then the cards are already in order, and 100,000 of them are not gathered
        // into another array (a retain of each, a cache miss apiece).
        var next = 0
        let inOrder = directory.sections.allSatisfy { section in
            section.items.allSatisfy { item in
                defer { next += 1 }
                return item == next
            }
        }
        if inOrder, next == cards.count { return cards }
        return directory.sections.flatMap { $0.items.map { cards[$0] } }
    }

    /// Makes every entry's card now, and lets the card cache keep them, when nothing has made
    /// them yet: a watch whose first build found the output up to date rendered no card, and its
    /// first save would make all of them (a second at 100,000 contacts) to write `contacts.vcf`.
    public func makeCards() {
        _ = entryCards()
    }

    /// Every entry's card without its photo, in entry order, made on the first call: a file of
    /// several cards is the cards one after the other. With a `cardCache`, a card the last
    /// rebuild made from the same source is reused, and the cache keeps these for the next.
    func entryCards() -> [[UInt8]] {
        cards.all {
            let count = directory.entries.count
            guard let cache = cardCache else {
                return (ParallelWork.map(count) { cardWithoutPhoto($0) }, nil)
            }
            let writer = cardWriter
            var kept = cache.take(revision: writer.revision, config: directory.config, ticket: cardTicket)
            let groups = directory.groups.map(\.group)
            // Taken out of `kept`, so that the cards updated in place are not copied first.
            if var cards = kept.take() {
                if cards.sources.count == count, cards.groups == groups, let changed = updateInPlace(&cards) {
                    cache.keep(cards, ticket: cardTicket)
                    return (cards.bytes, changed)
                }
                if cards.groups == groups, let changed = updateMoved(&cards) {
                    cache.keep(cards, ticket: cardTicket)
                    return (cards.bytes, changed)
                }
                kept = cards
            }
            let last = kept
            let sources = ParallelWork.map(count) { cardSource(ofEntry: $0) }
            let positions = last.map { Self.positions(of: sources, in: $0.sources) } ?? []
            let bytes = ParallelWork.map(count) { index -> [UInt8] in
                if let last, let position = positions[index], last.sources[position] == sources[index] {
                    return last.bytes[position]
                }
                return cardWithoutPhoto(index)
            }
            cache.keep(
                VCardCache.Cards(
                    revision: writer.revision, config: directory.config, groups: groups, sources: sources,
                    bytes: bytes),
                ticket: cardTicket)
            return (bytes, nil)
        }
    }

    /// Brings `cards`, kept for as many entries among the same groups with the same config and
    /// `REV`, up to date in place, when few entries' contacts are not the very ones the kept
    /// cards were made from: a card's name and categories follow from its contact, the groups
    /// and the config, so only those entries' cards can differ (a save of one contact at
    /// 100,000 looks at one card, not at every one). Returns the entries whose card's bytes
    /// changed; nil, leaving `cards` as it was, when many entries differ.
    private func updateInPlace(_ cards: inout VCardCache.Cards) -> [Int]? {
        let limit = 64
        var differing: [Int] = []
        let entries = directory.entries
        let complete = cards.sources.withUnsafeBufferPointer { sources in
            for index in entries.indices
            where !entries[index].contact.isIdentical(to: sources[index].contact) {
                guard differing.count < limit else { return false }
                differing.append(index)
            }
            return true
        }
        guard complete else { return nil }
        var changed: [Int] = []
        for index in differing {
            let source = cardSource(ofEntry: index)
            if source != cards.sources[index] {
                let card = cardWithoutPhoto(index)
                if card != cards.bytes[index] { changed.append(index) }
                cards.bytes[index] = card
            }
            cards.sources[index] = source
        }
        return changed
    }

    /// Brings `cards`, kept for the same groups with the same config and `REV`, up to date in
    /// place for a directory in which a few contacts moved, came or went (a name changed, a
    /// contact was added): every entry between a moved contact's old place and its new one is
    /// one place off, so `updateInPlace` finds them all differing. The entries are matched to
    /// the kept cards in order, by the very contact each was made from, and only those left
    /// without a match (at most `OrderedMatch.mostlyTheSame`) are looked up by id, and made
    /// again unless their card is the same. Returns the entries left without a match,
    /// ascending, as changed (their cards or their places differ); nil, leaving `cards` as it
    /// was, when more than that are.
    private func updateMoved(_ cards: inout VCardCache.Cards) -> [Int]? {
        let entries = directory.entries
        let match = cards.sources.withUnsafeBufferPointer { old in
            OrderedMatch(count: entries.count, earlierCount: old.count) { index, place in
                entries[index].contact.isIdentical(to: old[place].contact)
            }
        }
        guard let match else { return nil }
        var goneByID: [String: Int] = [:]
        for position in match.gone { goneByID[cards.sources[position].contact.id] = position }
        let made = match.unmatched.map { index -> (source: VCardCache.Source, bytes: [UInt8]) in
            let source = cardSource(ofEntry: index)
            if let position = goneByID[source.contact.id], cards.sources[position] == source {
                return (source, cards.bytes[position])
            }
            return (source, cardWithoutPhoto(index))
        }
        // The cards matched keep their order: with those gone taken out and those made put in
        // at their places, each kept card slides along, not copied one by one (a copy of
        // 100,000 retained each card's contact, name and bytes, and let go of the old ones).
        for position in match.gone.reversed() {
            cards.sources.remove(at: position)
            cards.bytes.remove(at: position)
        }
        for (index, card) in zip(match.unmatched, made) {
            cards.sources.insert(card.source, at: index)
            cards.bytes.insert(card.bytes, at: index)
        }
        return match.unmatched
    }

    /// Whether the parts of `page` (`parts(of:)`) are known to differ from those the rebuild
    /// before this one made them of, because a card among them changed; false when that is not
    /// known. A writer need not compare such a file with the one on disk (66 MB read back for
    /// `contacts.vcf` at 100,000 contacts) to know it must write it.
    public func partsDiffer(_ page: SitePage) -> Bool {
        if page == .birthdaysCalendar { return birthdaysCalendarDiffers }
        _ = entryCards()
        guard let changed = cards.changed, !changed.isEmpty else { return false }
        switch page {
        case .directoryCard:
            // Every entry's card is in it.
            return true
        case .groupCard(let index):
            let members = directory.groups[index].sections
            return changed.contains { entry in members.contains { $0.items.contains(entry) } }
        default:
            return false
        }
    }

    /// What entry `index`'s card is made from.
    private func cardSource(ofEntry index: Int) -> VCardCache.Source {
        let entry = directory.entries[index]
        return VCardCache.Source(
            contact: entry.contact, formattedName: entry.displayName,
            categories: directory.cardCategories(ofEntry: index))
    }

    /// Where each of `sources` stood in `kept`, by contact id; nil for a contact that is new.
    /// Contacts mostly keep their place, so ids are looked up only when one has moved.
    private static func positions(of sources: [VCardCache.Source], in kept: [VCardCache.Source]) -> [Int?] {
        let aligned =
            sources.count == kept.count
            && zip(sources, kept).allSatisfy { $0.contact.id == $1.contact.id }
        if aligned { return Array(sources.indices) }
        var byID: [String: Int] = [:]
        byID.reserveCapacity(kept.count)
        for (position, source) in kept.enumerated() { byID[source.contact.id] = position }
        return sources.map { byID[$0.contact.id] }
    }

    /// Renders every vCard file, in `pages` order, contacts' and groups' on every core.
    ///
    /// Each contact's card is written once and its bytes reused: it is its own file, and again
    /// part of `contacts.vcf` and of every group file it is in. Writing each anew took a sixth
    /// of a 20,000-contact build's CPU.
    func renderCards(
        _ finish: @Sendable (String, [UInt8]) throws -> Void,
        _ finishParts: @Sendable (String, [[UInt8]]) throws -> Void
    ) throws {
        let cards = entryCards()
        // A whole build needs them no more; a rebuild's cache keeps its own.
        defer { self.cards.release() }
        try ParallelWork.forEach(directory.entries.count) { index in
            // A contact with a photo has a card of its own with it; the others reuse theirs.
            try finish("contacts/\(directory.entries[index].slug).vcf", cardWithPhoto(index) ?? cards[index])
        }
        try ParallelWork.forEach(directory.groups.count, batch: 4) { index in
            try finish(
                "groups/\(directory.groups[index].slug).vcf",
                Self.joined(cards, directory.groups[index].sections.lazy.flatMap(\.items)))
        }
        // Every card: handed over as parts, not joined (66 MB beside the cards at 100,000).
        try finishParts("contacts.vcf", directory.sections.flatMap { $0.items.map { cards[$0] } })
    }

    /// The cards of `entries`, one after the other. A static function, not a closure over
    /// `cards`: a generic local function captured in a `@Sendable` closure captures its
    /// sequence's metatypes, which the compiler warns are not Sendable.
    private static func joined(_ cards: [[UInt8]], _ entries: some Sequence<Int>) -> [UInt8] {
        joined(entries.map { cards[$0] })
    }

    /// `parts`, one after the other.
    static func joined(_ parts: [[UInt8]]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { bytes += part }
        return bytes
    }
}
