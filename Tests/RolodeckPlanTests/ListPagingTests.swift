import Testing
@testable import RolodeckCore
@testable import RolodeckLocale
@testable import RolodeckPlan

/// Which pages a long list is split into, at the boundaries: exactly `pageSize`, one more, a
/// single huge section, empty sections.
@Suite struct ListPagingTests {
    /// A case: how many contacts each section (a, b, c, …) has, the page size, and the pages
    /// expected, each written `name:section:items`.
    struct Case: Sendable, CustomTestStringConvertible {
        var sizes: [Int]
        var pageSize: Int
        var pages: [String]
        var testDescription: String { "\(sizes) by \(pageSize)" }
    }

    static let cases: [Case] = [
        Case(sizes: [], pageSize: 3, pages: []),
        Case(sizes: [3], pageSize: 3, pages: []),
        Case(sizes: [1, 1, 1], pageSize: 3, pages: []),
        Case(sizes: [2, 2], pageSize: 3, pages: ["a:0:0..<2", "b:1:0..<2"]),
        Case(sizes: [4], pageSize: 3, pages: ["a:0:0..<3", "a-2:0:3..<4"]),
        Case(sizes: [3, 1], pageSize: 3, pages: ["a:0:0..<3", "b:1:0..<1"]),
        Case(sizes: [10], pageSize: 3, pages: ["a:0:0..<3", "a-2:0:3..<6", "a-3:0:6..<9", "a-4:0:9..<10"]),
        Case(
            sizes: [0, 5, 0, 1], pageSize: 2, pages: ["b:1:0..<2", "b-2:1:2..<4", "b-3:1:4..<5", "d:3:0..<1"]),
        Case(sizes: [1, 1], pageSize: 1, pages: ["a:0:0..<1", "b:1:0..<1"]),
        // A page size below 1 (which the config refuses) is taken as 1, not a division by zero.
        Case(sizes: [1, 1], pageSize: 0, pages: ["a:0:0..<1", "b:1:0..<1"]),
    ]

    /// Sections `a`, `b`, … with `sizes` contacts, numbered on from 0 across sections.
    static func sections(_ sizes: [Int]) -> [SectionGroup<Int>] {
        var next = 0
        return sizes.enumerated().map { position, size in
            let letter = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(position)))
            let section = DirectorySection(
                label: letter.uppercased(), anchor: letter, rank: position, script: .latin)
            defer { next += size }
            return SectionGroup(section: section, items: Array(next..<(next + size)))
        }
    }

    @Test(arguments: cases)
    func pages(_ testCase: Case) {
        let paging = ListPaging(sections: Self.sections(testCase.sizes), pageSize: testCase.pageSize)
        #expect(paging.pages.map { "\($0.name):\($0.section):\($0.items)" } == testCase.pages)
        #expect(paging.isPaged == !testCase.pages.isEmpty)
        // Every contact is on exactly one page, in order, when the list is paged.
        if paging.isPaged {
            let sections = Self.sections(testCase.sizes)
            let shown = paging.pages.flatMap { sections[$0.section].items[$0.items] }
            #expect(shown == Array(0..<testCase.sizes.reduce(0, +)))
        }
    }

    @Test func eachSectionsFirstPageAndPartsAreNamed() {
        let paging = ListPaging(sections: Self.sections([0, 5, 0, 1]), pageSize: 2)
        #expect(paging.firstPage == [nil, 0, nil, 3])
        #expect(paging.pages.map(\.part) == [1, 2, 3, 1])
        #expect(paging.pages.map(\.parts) == [3, 3, 3, 1])
    }

    /// A section's first page keeps its name as the store grows, whatever comes before it.
    @Test func aSectionsFirstPageKeepsItsNameAsTheStoreGrows() {
        let before = ListPaging(sections: Self.sections([2, 2]), pageSize: 3)
        let after = ListPaging(sections: Self.sections([9, 2]), pageSize: 3)
        #expect(before.pages[before.firstPage[1]!].name == "b")
        #expect(after.pages[after.firstPage[1]!].name == "b")
    }

    /// A todo case: each todo as its id and its parent's id, and the pages expected.
    struct TodoCase: Sendable, CustomTestStringConvertible {
        var todos: [(String, String?)]
        var pageSize: Int
        var pages: [Range<Int>]
        var testDescription: String { "\(todos.map(\.0)) by \(pageSize)" }
    }

    static let todoCases: [TodoCase] = [
        TodoCase(todos: [], pageSize: 3, pages: [0..<0]),
        TodoCase(todos: [("a", nil), ("b", nil), ("c", nil)], pageSize: 3, pages: [0..<3]),
        TodoCase(
            todos: [("a", nil), ("b", nil), ("c", nil), ("d", nil)], pageSize: 3, pages: [0..<3, 3..<4]),
        // A tree stays on one page: b does not fit beside a's tree, c's tree fits beside b.
        TodoCase(
            todos: [("a", nil), ("a1", "a"), ("a2", "a"), ("b", nil), ("c", nil), ("c1", "c")], pageSize: 3,
            pages: [0..<3, 3..<6]),
        // A tree larger than a page gets a page of its own, subtasks of subtasks included.
        TodoCase(
            todos: [("a", nil), ("a1", "a"), ("a11", "a1"), ("a2", "a"), ("b", nil)], pageSize: 2,
            pages: [0..<4, 4..<5]),
        TodoCase(
            todos: [("z", nil), ("a", nil), ("a1", "a"), ("a11", "a1"), ("a2", "a")], pageSize: 2,
            pages: [0..<1, 1..<5]),
    ]

    @Test(arguments: todoCases)
    func todoPages(_ testCase: TodoCase) {
        let ids = testCase.todos.map(\.0)
        let todos = testCase.todos.map { id, parent in
            Directory.TodoEntry(
                todo: Todo(id: id, title: id), contact: nil, parent: parent.flatMap { ids.firstIndex(of: $0) }
            )
        }
        let paging = TodoPaging(todos: todos, pageSize: testCase.pageSize)
        #expect(paging.pages == testCase.pages)
        #expect(paging.isPaged == (testCase.pages.count > 1))
    }

    @Test func todoPagesAreNamedByNumber() {
        #expect((0..<3).map(TodoPaging.path(ofPage:)) == ["todos.html", "todos-2.html", "todos-3.html"])
    }
}
