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
        let writer = cardWriter
        let members = directory.groups[index].sections.lazy.flatMap(\.items)
        return writer.cards(members.map { directory.exportedCard(ofEntry: $0) })
    }

    /// `contacts.vcf`: every contact's vCard, in the order the index lists them.
    func directoryCard() -> [UInt8] {
        let entries = directory.sections.lazy.flatMap(\.items)
        return cardWriter.cards(entries.map { directory.exportedCard(ofEntry: $0) })
    }

    /// Renders every vCard file, in `pages` order, contacts' and groups' on every core.
    ///
    /// Each contact's card is written once and its bytes reused: it is its own file, and again
    /// part of `contacts.vcf` and of every group file it is in (a file of several cards is the
    /// cards one after the other, as `groupCard` and `directoryCard` write it for a rebuild).
    /// Writing each anew took a sixth of a 20,000-contact build's CPU.
    func renderCards(_ finish: @Sendable (String, [UInt8]) throws -> Void) throws {
        let cards = ParallelWork.map(directory.entries.count) { cardWithoutPhoto($0) }
        try ParallelWork.forEach(directory.entries.count) { index in
            // A contact with a photo has a card of its own with it; the others reuse theirs.
            try finish("contacts/\(directory.entries[index].slug).vcf", cardWithPhoto(index) ?? cards[index])
        }
        try ParallelWork.forEach(directory.groups.count, batch: 4) { index in
            try finish("groups/\(directory.groups[index].slug).vcf",
                       Self.joined(cards, directory.groups[index].sections.lazy.flatMap(\.items)))
        }
        try finish("contacts.vcf", Self.joined(cards, directory.sections.lazy.flatMap(\.items)))
    }

    /// The cards of `entries`, one after the other. A static function, not a closure over
    /// `cards`: a generic local function captured in a `@Sendable` closure captures its
    /// sequence's metatypes, which the compiler warns are not Sendable.
    private static func joined(_ cards: [[UInt8]], _ entries: some Sequence<Int>) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in entries { bytes += cards[index] }
        return bytes
    }
}
