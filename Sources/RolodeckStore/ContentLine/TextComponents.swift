/// A structured value's components (`N`, `ADR`, `ORG`), each a list of one value or more, kept
/// as one list of values, each with the number of its component.
///
/// As a list of lists, an address made eight arrays and a name six, a quarter of the
/// allocations of reading a card; most of their components are empty or one value.
struct TextComponents: Sendable, Equatable {
    /// A value and the component it belongs to, from 0.
    private struct Entry: Sendable, Equatable {
        var component: Int
        var value: String
    }

    /// Every value in order, the components' one after the other.
    private var entries: [Entry] = []
    /// How many components there are.
    private(set) var count = 0

    /// No components, with room for `capacity` values.
    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The components of a list of lists.
    init(_ lists: [[String]]) {
        entries.reserveCapacity(lists.reduce(0) { $0 + $1.count })
        for list in lists {
            for value in list { append(value) }
            endComponent()
        }
    }

    /// Adds a value to the component being read.
    mutating func append(_ value: String) {
        entries.append(Entry(component: count, value: value))
    }

    /// Ends the component being read; the next value begins the next one.
    mutating func endComponent() {
        count += 1
    }

    /// The values of a component, in order; none past the last component.
    func values(of component: Int) -> some Collection<String> {
        entries.lazy.filter { $0.component == component }.map(\.value)
    }

    /// The first value of a component; nil past the last component.
    func first(of component: Int) -> String? {
        entries.first { $0.component == component }?.value
    }

    /// The components as lists of values.
    var lists: [[String]] {
        var lists = [[String]](repeating: [], count: count)
        for entry in entries { lists[entry.component].append(entry.value) }
        return lists
    }
}
