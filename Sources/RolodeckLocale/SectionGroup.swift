/// The items of one directory section, in display order.
package struct SectionGroup<Item> {
    /// The section heading.
    package let section: DirectorySection
    /// The section's items, sorted.
    package let items: [Item]

    /// Creates a group.
    package init(section: DirectorySection, items: [Item]) {
        self.section = section
        self.items = items
    }
}

extension SectionGroup: Sendable where Item: Sendable {}
extension SectionGroup: Equatable where Item: Equatable {}
