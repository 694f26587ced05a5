/// Sorts directory entries into sections, in a total, deterministic order:
/// section rank, then primary sort string (collator), then secondary sort
/// string (collator), then id (Unicode scalar order), then input position.
///
/// Each distinct sort string is normalized, sectioned and ranked once, so
/// repeated family names cost one locale comparison set, not one per contact.
public struct DirectorySorter: Sendable {
    /// The labeler that assigns sections.
    public let labeler: SectionLabeler
    /// The collator that orders names inside a section.
    public let collator: NameCollator

    /// Creates a sorter for a site locale identifier.
    public init(localeIdentifier: String) {
        let profile = LocaleProfile(localeIdentifier: localeIdentifier)
        self.init(labeler: SectionLabeler(profile: profile), collator: NameCollator(profile: profile))
    }

    /// Creates a sorter from an existing labeler and collator.
    public init(labeler: SectionLabeler, collator: NameCollator) {
        self.labeler = labeler
        self.collator = collator
    }

    /// Groups items into sections in page order, each sorted by the keys the
    /// caller supplies: `primary` decides the section and the order, `secondary`
    /// breaks ties, `id` makes the order total.
    public func sorted<Item>(
        _ items: [Item],
        by keys: (Item) -> (primary: String, secondary: String, id: String)
    ) -> [SectionGroup<Item>] {
        var table = SortStringTable()
        var entries: [Entry] = []
        entries.reserveCapacity(items.count)
        // Ids are compared only when both names tie; kept apart, the entries the sort moves
        // around hold no reference to retain.
        var ids: [String] = []
        ids.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            let key = keys(item)
            let primary = table.primarySlot(for: key.primary)
            let secondary = table.secondarySlot(for: key.secondary)
            entries.append(Entry(primary: primary, secondary: secondary, index: index, sectionRank: 0))
            ids.append(key.id)
        }
        let prepared = table.prepare(labeler: labeler, collator: collator)
        for position in entries.indices {
            entries[position].sectionRank = prepared.sections[Int(entries[position].primary)].rank
        }
        entries.sort { lhs, rhs in
            if lhs.sectionRank != rhs.sectionRank { return lhs.sectionRank < rhs.sectionRank }
            let leftPrimary = prepared.primaryRanks[Int(lhs.primary)]
            let rightPrimary = prepared.primaryRanks[Int(rhs.primary)]
            if leftPrimary != rightPrimary { return leftPrimary < rightPrimary }
            let leftSecondary = prepared.secondaryRanks[Int(lhs.secondary)]
            let rightSecondary = prepared.secondaryRanks[Int(rhs.secondary)]
            if leftSecondary != rightSecondary { return leftSecondary < rightSecondary }
            let order = NameCollator.compareScalars(ids[lhs.index], ids[rhs.index])
            if order != .orderedSame { return order == .orderedAscending }
            return lhs.index < rhs.index
        }
        var groups: [SectionGroup<Item>] = []
        var current: [Item] = []
        var currentSection: DirectorySection?
        for entry in entries {
            let section = prepared.sections[Int(entry.primary)]
            if section != currentSection, let finished = currentSection {
                groups.append(SectionGroup(section: finished, items: current))
                current = []
            }
            currentSection = section
            current.append(items[entry.index])
        }
        if let finished = currentSection {
            groups.append(SectionGroup(section: finished, items: current))
        }
        return groups
    }

    /// Sorts plain strings into sections, using each string as its own key.
    public func sortedStrings(_ strings: [String]) -> [SectionGroup<String>] {
        sorted(strings) { (primary: $0, secondary: "", id: $0) }
    }

    private struct Entry {
        let primary: Int32
        let secondary: Int32
        /// The item's position in the input, which is also its id's in `ids`.
        let index: Int
        var sectionRank: Int
    }
}
