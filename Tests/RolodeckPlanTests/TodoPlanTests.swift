import Testing
@testable import RolodeckCore
@testable import RolodeckPlan

/// How todos are planned for the page: subtasks under their parents, due times in the site's
/// time zone, contacts linked.
@Suite struct TodoPlanTests {
    static func todo(_ id: String, parent: String? = nil, list: String = "", due: DueDate? = nil) -> Todo {
        var todo = Todo(id: id, title: id.uppercased())
        todo.parentID = parent
        todo.list = list
        todo.due = due
        return todo
    }

    @Test func subtasksFollowTheirParentDepthFirstInTheStoresOrder() {
        let store = Store(todos: [
            Self.todo("a"), Self.todo("d", parent: "b"), Self.todo("b", parent: "a"), Self.todo("c"),
            Self.todo("e", parent: "c"), Self.todo("f", parent: "a"),
        ])
        let directory = Directory(store: store, config: SiteConfig())
        #expect(directory.todos.map(\.todo.id) == ["a", "b", "d", "f", "c", "e"])
        #expect(directory.todos.map(\.parent) == [nil, 0, 1, 0, nil, 4])
        #expect(directory.todos.map(\.subtasks) == [[1, 3], [2], [], [], [5], []])
    }

    @Test func todosLinkTheirContactsEntryAfterSortingAndHidingAndGroupsListMembersBySection() {
        func contact(_ id: String, _ family: String, groups: [String] = []) -> Contact {
            var contact = Contact(id: id)
            contact.familyName = family
            contact.groupIDs = groups
            return contact
        }
        var todos = ["c", "a", "hidden", "missing", "b"].map { Self.todo("todo-" + $0) }
        for index in todos.indices { todos[index].contactID = String(todos[index].id.dropFirst(5)) }
        todos.append(Self.todo("free"))
        let store = Store(
            contacts: [
                contact("c", "Cole", groups: ["g"]), contact("a", "Adams", groups: ["g", "h"]),
                contact("hidden", "Baker", groups: ["g"]), contact("b", "Brown", groups: ["g", "nope"]),
            ],
            groups: [Group(id: "h", name: "Hikers"), Group(id: "g", name: "Golf")],
            todos: todos)
        var config = SiteConfig()
        config.hiddenContacts = ["hidden"]
        let directory = Directory(store: store, config: config)
        #expect(directory.entries.map(\.contact.id) == ["a", "b", "c"])
        let expectedTodos = ["todo-c", "todo-a", "todo-hidden", "todo-missing", "todo-b", "free"]
        #expect(directory.todos.map(\.todo.id) == expectedTodos)
        #expect(directory.todos.map(\.contact) == [2, 0, nil, nil, 1, nil])
        #expect(directory.groups.map(\.group.id) == ["g", "h"])
        #expect(directory.groups[0].sections.map(\.section.label) == ["A", "B", "C"])
        #expect(directory.groups[0].sections.map(\.items) == [[0], [1], [2]])
        #expect(directory.groups[0].memberCount == 3)
        #expect(directory.groups[1].sections.map(\.items) == [[0]])
        #expect(directory.sections.map(\.items) == [[0], [1], [2]])
        // Each entry's groups in the order its contact names them, ids of no group left out.
        let entryGroups = directory.entries.indices.map { entry in
            directory.groupPositions(ofEntry: entry).map { directory.entryGroups[$0] }
        }
        #expect(entryGroups == [[0, 1], [0], [0]])
    }

    @Test func eachEntryKeepsItsGroupsInTheOrderItsContactNamesThem() {
        // Two sections, a repeated id, an unknown one and contacts in no group.
        var contacts: [Contact] = []
        let names = ["Ames", "Berg", "Bell", "Ames", "Berg"]
        let groups = [["x", "y"], [], ["y", "nope", "y", "z"], ["z"], []]
        for (index, name) in names.enumerated() {
            var contact = Contact(id: "c\(index)")
            contact.familyName = name
            contact.groupIDs = groups[index]
            contacts.append(contact)
        }
        let store = Store(
            contacts: contacts,
            groups: [
                Group(id: "z", name: "Zeta"), Group(id: "x", name: "Xi"), Group(id: "y", name: "Ypsilon"),
            ])
        let directory = Directory(store: store, config: SiteConfig())
        #expect(directory.sections.count == 2)
        #expect(directory.entryGroupStarts.count == directory.entries.count + 1)
        for (entry, planned) in directory.entries.enumerated() {
            let expected = planned.contact.groupIDs.compactMap { directory.groupIndex[$0] }.map(Int32.init)
            let found = directory.groupPositions(ofEntry: entry).map { directory.entryGroups[$0] }
            #expect(found == expected, "\(planned.contact.id)")
        }
    }

    @Test func todosInALoopStillAppearOnce() {
        let store = Store(todos: [Self.todo("x", parent: "y"), Self.todo("y", parent: "x"), Self.todo("z")])
        let directory = Directory(store: store, config: SiteConfig())
        #expect(directory.todos.map(\.todo.id).sorted() == ["x", "y", "z"])
    }

    struct ZoneCase: CustomTestStringConvertible, Sendable {
        var name: String
        var zone: String?
        var due: DueDate
        var expected: DueDate
        var testDescription: String { name }
    }

    static let zoneCases: [ZoneCase] = [
        ZoneCase(name: "UTC to Seoul, across midnight", zone: "Asia/Seoul",
                 due: DueDate(date: PartialDate(year: 2026, month: 1, day: 15), hour: 20, minute: 0, utcOffset: 0),
                 expected: DueDate(date: PartialDate(year: 2026, month: 1, day: 16), hour: 5, minute: 0, utcOffset: 32_400)),
        ZoneCase(name: "Chicago daylight time to Berlin summer time", zone: "Europe/Berlin",
                 due: DueDate(date: PartialDate(year: 2018, month: 4, day: 17), hour: 14, minute: 0, utcOffset: -18_000),
                 expected: DueDate(date: PartialDate(year: 2018, month: 4, day: 17), hour: 21, minute: 0, utcOffset: 7200)),
        ZoneCase(name: "a floating time stays", zone: "Asia/Seoul",
                 due: DueDate(date: PartialDate(year: 2026, month: 1, day: 15), hour: 20, minute: 0),
                 expected: DueDate(date: PartialDate(year: 2026, month: 1, day: 15), hour: 20, minute: 0)),
        ZoneCase(name: "a date stays", zone: "Asia/Seoul",
                 due: DueDate(date: PartialDate(year: 2026, month: 1, day: 15)),
                 expected: DueDate(date: PartialDate(year: 2026, month: 1, day: 15))),
        ZoneCase(name: "without a configured zone, times stay as written", zone: nil,
                 due: DueDate(date: PartialDate(year: 2026, month: 1, day: 15), hour: 20, minute: 0, utcOffset: 0),
                 expected: DueDate(date: PartialDate(year: 2026, month: 1, day: 15), hour: 20, minute: 0, utcOffset: 0)),
    ]

    @Test(arguments: zoneCases)
    func dueTimesAreShownInTheSitesTimeZone(_ testCase: ZoneCase) {
        var config = SiteConfig()
        config.timeZone = testCase.zone
        let directory = Directory(store: Store(todos: [Self.todo("t", due: testCase.due)]), config: config)
        #expect(directory.todos[0].todo.due == testCase.expected)
    }
}
