/// The items of one directory section, in display order.
public struct SectionGroup<Item> {
    /// The section heading.
    public let section: DirectorySection
    /// The section's items, sorted.
    public let items: [Item]

    /// Creates a group.
    public init(section: DirectorySection, items: [Item]) {
        self.section = section
        self.items = items
    }
}

extension SectionGroup: Sendable where Item: Sendable {}
extension SectionGroup: Equatable where Item: Equatable {}
