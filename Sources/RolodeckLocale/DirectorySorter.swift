import RolodeckCore
#if canImport(Glibc)
import Glibc
#endif

/// Sorts directory entries into sections, in a total, deterministic order:
/// section rank, then primary sort string (collator), then secondary sort
/// string (collator), then id (Unicode scalar order), then input position.
///
/// Each distinct sort string is normalized, sectioned and ranked once, so
/// repeated family names cost one locale comparison set, not one per contact.
public struct DirectorySorter: Sendable {
    /// The labeler that assigns sections.
    let labeler: SectionLabeler
    /// The collator that orders names inside a section.
    let collator: NameCollator

    /// Creates a sorter for a site locale identifier.
    public init(localeIdentifier: String) {
        let profile = LocaleProfile(localeIdentifier: localeIdentifier)
        self.init(labeler: SectionLabeler(profile: profile), collator: NameCollator(profile: profile))
    }

    /// Creates a sorter from an existing labeler and collator.
    init(labeler: SectionLabeler, collator: NameCollator) {
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
        sortedPositions(items.map(keys)).map { group in
            SectionGroup(section: group.section, items: group.items.map { items[$0] })
        }
    }

    /// Like `sorted(_:by:)` for items whose keys are already worked out: the positions in
    /// `keys`, grouped into sections in page order.
    public func sortedPositions(_ keys: [(primary: String, secondary: String, id: String)]) -> [SectionGroup<Int>] {
        var table = SortStringTable()
        var primaries: [Int32] = []
        var secondaries: [Int32] = []
        primaries.reserveCapacity(keys.count)
        secondaries.reserveCapacity(keys.count)
        for key in keys {
            primaries.append(table.primarySlot(for: key.primary))
            secondaries.append(table.secondarySlot(for: key.secondary))
        }
        let prepared = table.prepare(labeler: labeler, collator: collator)
        // The sort moves and compares plain integers; ids are compared only inside runs of
        // equal names, afterwards.
        let sectionRanks = prepared.sections.map { Int32($0.rank) }
        var entries: [Entry] = []
        entries.reserveCapacity(keys.count)
        for index in keys.indices {
            let primary = Int(primaries[index])
            entries.append(Entry(
                sectionRank: sectionRanks[primary], primaryRank: prepared.primaryRanks[primary],
                secondaryRank: prepared.secondaryRanks[Int(secondaries[index])], index: Int32(index)))
        }
        entries.sort { lhs, rhs in
            if lhs.sectionRank != rhs.sectionRank { return lhs.sectionRank < rhs.sectionRank }
            if lhs.primaryRank != rhs.primaryRank { return lhs.primaryRank < rhs.primaryRank }
            if lhs.secondaryRank != rhs.secondaryRank { return lhs.secondaryRank < rhs.secondaryRank }
            return lhs.index < rhs.index
        }
        Self.sortTiesByID(&entries, keys: keys)

        var groups: [SectionGroup<Int>] = []
        var current: [Int] = []
        var currentSection: DirectorySection?
        var currentPrimary: Int32 = -1
        for entry in entries {
            let primary = primaries[Int(entry.index)]
            // Entries of one name share its section; sections are compared only where names change.
            if primary != currentPrimary {
                currentPrimary = primary
                let section = prepared.sections[Int(primary)]
                if section != currentSection, let finished = currentSection {
                    groups.append(SectionGroup(section: finished, items: current))
                    current = []
                }
                currentSection = section
            }
            current.append(Int(entry.index))
        }
        if let finished = currentSection {
            groups.append(SectionGroup(section: finished, items: current))
        }
        return groups
    }

    /// Orders each run of entries with equal ranks by id (Unicode scalar order, which is UTF-8
    /// byte order), then input position; the runs are sorted on every core.
    private static func sortTiesByID(
        _ entries: inout [Entry], keys: [(primary: String, secondary: String, id: String)]
    ) {
        let runs = tieRuns(entries)
        guard !runs.isEmpty else { return }
        // The ids' bytes in one buffer, so comparing two reads memory and retains nothing.
        var bytes: [UInt8] = []
        var starts = [Int](repeating: 0, count: keys.count)
        var ends = starts
        for run in runs {
            for position in run {
                let index = Int(entries[position].index)
                starts[index] = bytes.count
                bytes.append(contentsOf: keys[index].id.utf8)
                ends[index] = bytes.count
            }
        }
        entries.withUnsafeMutableBufferPointer { entries in
            bytes.withUnsafeBufferPointer { bytes in
                // Each run is a range of its own, so the workers never write the same entries.
                nonisolated(unsafe) let entries = entries
                nonisolated(unsafe) let bytes = bytes
                let starts = starts, ends = ends
                ParallelWork.forEach(runs.count, batch: 16) { run in
                    var slice = UnsafeMutableBufferPointer(rebasing: entries[runs[run]])
                    slice.sort { lhs, rhs in
                        let left = Int(lhs.index), right = Int(rhs.index)
                        let order = compareBytes(
                            UnsafeBufferPointer(rebasing: bytes[starts[left]..<ends[left]]),
                            UnsafeBufferPointer(rebasing: bytes[starts[right]..<ends[right]]))
                        return order != 0 ? order < 0 : left < right
                    }
                }
            }
        }
    }

    /// The ranges of two or more entries in a row with equal ranks.
    private static func tieRuns(_ entries: [Entry]) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = 0
        for index in entries.indices.dropFirst() where !entries[index].ranksEqual(entries[index - 1]) {
            if index - start > 1 { runs.append(start..<index) }
            start = index
        }
        if entries.count - start > 1 { runs.append(start..<entries.count) }
        return runs
    }

    /// Negative, zero or positive as `left` orders before, with or after `right` byte by byte.
    private static func compareBytes(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    ) -> Int {
        let common = min(left.count, right.count)
        if common > 0, let leftBase = left.baseAddress, let rightBase = right.baseAddress {
            let order = memcmp(leftBase, rightBase, common)
            if order != 0 { return Int(order) }
        }
        return left.count - right.count
    }

    /// Sorts plain strings into sections, using each string as its own key.
    func sortedStrings(_ strings: [String]) -> [SectionGroup<String>] {
        sorted(strings) { (primary: $0, secondary: "", id: $0) }
    }

    /// One item as the sort sees it: its ranks and its position.
    private struct Entry {
        /// Rank of the item's section.
        let sectionRank: Int32
        /// Rank of the primary string among those of its section.
        let primaryRank: Int32
        /// Rank of the secondary string among all secondary strings.
        let secondaryRank: Int32
        /// The item's position in the input, which is also its key's.
        let index: Int32

        /// Whether both items have the same names, so only their ids order them.
        func ranksEqual(_ other: Entry) -> Bool {
            sectionRank == other.sectionRank && primaryRank == other.primaryRank
                && secondaryRank == other.secondaryRank
        }
    }
}
