import Testing
import Mustache
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite

/// The keys each todo gives the todo page's template.
@Suite struct TodoViewTests {
    static func todo(_ id: String, parent: String? = nil, list: String = "", due: DueDate? = nil) -> Todo {
        var todo = Todo(id: id, title: id.uppercased())
        todo.parentID = parent
        todo.list = list
        todo.due = due
        return todo
    }

    @Test func eachTodoSetsEveryKeySoASubtaskNeverShowsItsParentsValues() throws {
        var parent = Self.todo("p", list: "Home", due: DueDate(date: PartialDate(year: 2026, month: 1, day: 2)))
        parent.priority = .high
        parent.categories = ["Errands"]
        let store = Store(todos: [parent, Self.todo("s", parent: "p", list: "Home"), Self.todo("w", list: "Work")])
        let views = ViewBuilder(directory: Directory(store: store, config: SiteConfig()),
                                today: PartialDate(year: 2026, month: 1, day: 1))
        let todos = try #require(views.todosPage()["todos"] as? [MustacheTable])
        #expect(todos.map { $0["id"] as? String } == ["p", "w"])
        #expect(todos[0]["categories"] as? [String] == ["Errands"])
        #expect(todos[0]["hasSubtasks"] as? Bool == true)
        #expect(todos[0]["list"] as? String == "Home")
        let subtask = try #require((todos[0]["subtasks"] as? [MustacheTable])?.first)
        #expect(subtask["id"] as? String == "s")
        #expect(subtask["number"] as? Int == 2)
        for key in ["due", "priority", "contact", "hasCategories", "hasSubtasks"] {
            #expect(subtask[key] as? Bool == false, "\(key) of the subtask")
        }
        // With one list there is nothing to tell apart.
        let single = ViewBuilder(directory: Directory(store: Store(todos: [Self.todo("a", list: "Home")]),
                                                      config: SiteConfig()),
                                 today: PartialDate(year: 2026, month: 1, day: 1))
        let only = try #require((single.todosPage()["todos"] as? [MustacheTable])?.first)
        #expect(only["list"] as? String == "")
    }

    @Test func aTodoGivesItsDueTimePriorityAndContactAsTables() throws {
        var contact = Contact(id: "kim")
        contact.familyName = "김"
        contact.givenName = "철수"
        let due = DueDate(date: PartialDate(year: 2025, month: 3, day: 7), hour: 9, minute: 5)
        var todo = Self.todo("t", due: due)
        todo.priority = .low
        todo.contactID = "kim"
        var yearless = Self.todo("y", due: DueDate(date: PartialDate(year: nil, month: 12, day: 24)))
        yearless.done = true
        let store = Store(contacts: [contact], todos: [todo, yearless])
        let views = ViewBuilder(directory: Directory(store: store, config: SiteConfig()),
                                today: PartialDate(year: 2026, month: 1, day: 1))
        let todos = try #require(views.todosPage()["todos"] as? [MustacheTable])
        let dueTable = try #require(todos[0]["due"] as? MustacheTable)
        #expect(dueTable["iso"] as? String == "2025-03-07T09:05")
        #expect(dueTable["overdue"] as? Bool == true)
        let priority = try #require(todos[0]["priority"] as? MustacheTable)
        #expect(priority["level"] as? String == "low")
        let linked = try #require(todos[0]["contact"] as? MustacheTable)
        #expect(linked["name"] as? String == "김철수")
        #expect(linked["lang"] as? String == "ko")
        #expect(linked["href"] as? String == "contacts/kim.html")
        let yearlessDue = try #require(todos[1]["due"] as? MustacheTable)
        #expect(yearlessDue["iso"] as? String == "--12-24")
        #expect(yearlessDue["overdue"] as? Bool == false)
        #expect(todos[1]["contact"] as? Bool == false)
    }
}
