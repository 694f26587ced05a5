import RolodeckLocale

/// How a sectioned list of contacts (the index, a group) is laid out on pages, so that no page
/// grows with the store.
///
/// A list of at most `pageSize` contacts is one page, as it always was. A longer one gets a page
/// per section, named after the section's anchor (`a`, `giyeok`, `other`), and a section longer
/// than `pageSize` goes on to numbered pages (`a-2`, `a-3`). Names come from anchors, not from
/// positions, so a section's first page keeps its address while the store grows; only the
/// numbered pages after it move, as they must. Sections without contacts get no page.
public struct ListPaging: Sendable, Equatable {
    /// One page of a paged list.
    public struct Page: Sendable, Equatable {
        /// The section it shows, by position in the list's sections.
        public let section: Int
        /// Which of the section's pages it is, from 1.
        public let part: Int
        /// How many pages the section has.
        public let parts: Int
        /// The section's contacts it shows, as positions in the section's items.
        public let items: Range<Int>
        /// Its file name without `.html`: the section's anchor, then `-2`, `-3` for later parts.
        public let name: String
    }

    /// The pages, in order; empty when the whole list fits on one page.
    public let pages: [Page]
    /// The position in `pages` of each section's first page; nil for a section without contacts.
    public let firstPage: [Int?]

    /// Lays out `sections` on pages of at most `pageSize` contacts.
    public init(sections: [SectionGroup<Int>], pageSize: Int) {
        let size = max(1, pageSize)
        let total = sections.reduce(0) { $0 + $1.items.count }
        var pages: [Page] = []
        var firstPage: [Int?] = Array(repeating: nil, count: sections.count)
        if total > size {
            for (position, section) in sections.enumerated() where !section.items.isEmpty {
                firstPage[position] = pages.count
                let count = section.items.count
                let parts = (count + size - 1) / size
                for part in 1...parts {
                    let start = (part - 1) * size
                    let anchor = section.section.anchor
                    pages.append(
                        Page(
                            section: position, part: part, parts: parts,
                            items: start..<min(count, start + size),
                            name: part == 1 ? anchor : "\(anchor)-\(part)"))
                }
            }
        }
        self.pages = pages
        self.firstPage = firstPage
    }

    /// Whether the list is split into pages.
    public var isPaged: Bool { !pages.isEmpty }
}

/// How the todo list is laid out on pages: `todos.html`, then `todos-2.html` and on, each with
/// at most `pageSize` todos where it can.
///
/// A todo stays on one page with its subtasks, so that a page never starts in the middle of a
/// tree; a single tree larger than `pageSize` gets a page of its own.
public struct TodoPaging: Sendable, Equatable {
    /// The todos of each page, as a range of positions in the directory's todos (which keeps
    /// each subtask right after its parent); one page for a list that fits on one.
    public let pages: [Range<Int>]

    /// Lays out `todos` (in the directory's order) on pages of at most `pageSize` todos.
    public init(todos: [Directory.TodoEntry], pageSize: Int) {
        let size = max(1, pageSize)
        guard todos.count > size else {
            pages = [0..<todos.count]
            return
        }
        var pages: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < todos.count {
            // The end of the tree that starts at `index`: every todo up to the next top-level one.
            var end = index + 1
            while end < todos.count, todos[end].parent != nil { end += 1 }
            if end - start > size, index > start {
                pages.append(start..<index)
                start = index
            }
            index = end
        }
        pages.append(start..<todos.count)
        self.pages = pages
    }

    /// Whether the todos are split into pages.
    public var isPaged: Bool { pages.count > 1 }

    /// The file name of page `number` (from 0): `todos.html`, `todos-2.html`, …
    public static func path(ofPage number: Int) -> String {
        number == 0 ? "todos.html" : "todos-\(number + 1).html"
    }
}
