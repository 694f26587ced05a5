import RolodeckCore

/// What one `VTODO` yields for the store: the todo, and what places it among the others (its
/// UID, its parent or children by `RELATED-TO`, Apple's sort order, when it was created).
struct ICalendarTodo: Sendable {
    /// The todo; its id is still empty.
    var todo: Todo
    /// The UID without `urn:uuid:`, when the todo has one.
    var uid: Located<String>?
    /// UIDs of the todos it is a subtask of (`RELATED-TO`, `RELTYPE=PARENT` or none).
    var parents: [Located<String>]
    /// UIDs of the todos that are its subtasks (`RELATED-TO;RELTYPE=CHILD`).
    var children: [Located<String>]
    /// `X-APPLE-SORT-ORDER`: the place the user gave it in the list, smallest first.
    var sortOrder: Int?
    /// `CREATED`, in seconds since 1970 (UTC when the time says so, else as written).
    var created: Int?
    /// Where `BEGIN:VTODO` is.
    var location: SourceLocation
}
