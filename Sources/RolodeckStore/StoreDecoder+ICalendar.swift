import RolodeckCore

/// iCalendar files in the store: their `VTODO`s become todos.
///
/// - A todo's id is its UID; one without gets an id made from its summary. A UID seen on an
///   earlier todo is a warning and the later todo is skipped; one equal to a JSON todo's id is
///   an error.
/// - Order: the JSON store's todos first, as written; then each task list (vdir collection) in
///   turn, its todos by `X-APPLE-SORT-ORDER` (the order the user gave them), those without it
///   by `CREATED`, the rest in file order.
/// - `RELATED-TO` makes a todo a subtask of another (the parent, or with `RELTYPE=CHILD` the
///   child); a parent that is not in the store, or a loop, is a warning and the todo stays on
///   its own.
extension StoreDecoder {
    /// What an iCalendar file yields on its own: its todos, and the problems found in them.
    static func todos(of file: StoreFile) -> (todos: [ICalendarTodo], diagnostics: [Diagnostic]) {
        let (components, parseDiagnostics) = ICalendarParser.parse(file.source)
        let zones = ICalendarTimeZones(components.flatMap { [$0] + $0.all("VTIMEZONE") })
        var fields = ICalendarFields(timeZones: zones)
        var todos: [ICalendarTodo] = []
        for component in components.flatMap({ ($0.name == "VTODO" ? [$0] : []) + $0.all("VTODO") }) {
            if var record = fields.todo(from: component) {
                record.todo.list = file.collection
                todos.append(record)
            }
        }
        return (todos, parseDiagnostics + fields.diagnostics)
    }

    mutating func mergeCalendarTodos() {
        guard !calendarTodos.isEmpty else { return }
        var accepted: [ICalendarTodo] = []
        var uids: [String: SourceLocation] = [:]
        for var record in calendarTodos {
            if let uid = record.uid {
                switch claim(uid, of: .todo, as: record.location, claimed: &uids) {
                case .taken: break
                case .repeated(let first):
                    let reason = ICalendarIssue.Reason.duplicateUID(uid.value, first: first)
                    diagnostics.append(ICalendarIssue.warning(reason, at: uid.location).mentioning(first))
                    continue
                case .json: continue
                }
                record.todo.id = uid.value
            }
            accepted.append(record)
        }
        var untried: [String: Int] = [:]
        for index in accepted.indices where accepted[index].todo.id.isEmpty {
            let (id, _) = Self.takeID(
                accepted[index].todo.title, fallback: "todo", for: .location(accepted[index].location),
                in: &todoIDs, untried: &untried)
            accepted[index].todo.id = id
        }

        var listRank: [String: Int] = [:]
        for record in accepted where listRank[record.todo.list] == nil {
            listRank[record.todo.list] = listRank.count
        }
        let ordered = accepted.enumerated().sorted { lhs, rhs in
            let left = lhs.element, right = rhs.element
            return (listRank[left.todo.list]!, left.sortOrder == nil ? 1 : 0, left.sortOrder ?? 0,
                    left.created == nil ? 1 : 0, left.created ?? 0, lhs.offset)
                < (listRank[right.todo.list]!, right.sortOrder == nil ? 1 : 0, right.sortOrder ?? 0,
                   right.created == nil ? 1 : 0, right.created ?? 0, rhs.offset)
        }.map(\.element)
        store.todos += linkSubtasks(ordered)
    }

    /// The todos with `parentID` set from `RELATED-TO`, after reporting parents that are not in
    /// the store and loops.
    private mutating func linkSubtasks(_ records: [ICalendarTodo]) -> [Todo] {
        var todos = records.map(\.todo)
        var position: [String: Int] = [:]
        for (index, todo) in todos.enumerated() { position[todo.id] = index }
        var reference: [Int: SourceLocation] = [:]
        for (index, record) in records.enumerated() {
            guard let parent = record.parents.first else { continue }
            if parent.value == todos[index].id {
                warn(.subtaskCycle(todo: todos[index].title), at: parent.location)
            } else if todoIDs[parent.value] != nil {
                todos[index].parentID = parent.value
                reference[index] = parent.location
            } else {
                warn(.unknownParent(todo: todos[index].title, parent: parent.value), at: parent.location)
            }
        }
        for record in records {
            for child in record.children {
                guard let index = position[child.value] else {
                    warn(.unknownChild(todo: record.todo.title, child: child.value), at: child.location)
                    continue
                }
                if todos[index].parentID == nil, todos[index].id != record.todo.id {
                    todos[index].parentID = record.todo.id
                    reference[index] = child.location
                }
            }
        }
        for index in todos.indices {
            // Follow the parents; coming back to this todo is a loop, broken here.
            var seen: Set<String> = [todos[index].id]
            var next = todos[index].parentID
            while let id = next, let parent = position[id] {
                if !seen.insert(id).inserted {
                    if id == todos[index].id {
                        warn(.subtaskCycle(todo: todos[index].title), at: reference[index] ?? records[index].location)
                        todos[index].parentID = nil
                    }
                    break
                }
                next = todos[parent].parentID
            }
        }
        return todos
    }

    private mutating func warn(_ reason: ICalendarIssue.Reason, at location: SourceLocation) {
        diagnostics.append(ICalendarIssue.warning(reason, at: location))
    }
}
