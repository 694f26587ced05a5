import RolodeckCore

extension SiteRenderer {
    /// The writer of the site's vCards, `REV` the day the store last changed (the footer's "last
    /// updated": `SOURCE_DATE_EPOCH`'s day when it is set), else the build's date.
    var cardWriter: VCardWriter { VCardWriter(revisionDate: lastUpdated ?? today) }

    /// `contacts/<slug>.vcf`: the vCard of entry `index`.
    func contactCard(_ index: Int) -> [UInt8] {
        cardWriter.card(directory.exportedCard(ofEntry: index))
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
    func renderCards(_ finish: @Sendable (String, [UInt8]) throws -> Void) throws {
        try ParallelWork.forEach(directory.entries.count) { index in
            try finish("contacts/\(directory.entries[index].slug).vcf", contactCard(index))
        }
        try ParallelWork.forEach(directory.groups.count, batch: 4) { index in
            try finish("groups/\(directory.groups[index].slug).vcf", groupCard(index))
        }
        try finish("contacts.vcf", directoryCard())
    }
}
