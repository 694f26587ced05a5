/// A task, kept in the user's own order.
public struct Todo: Sendable, Hashable, Identifiable {
    /// How urgent a todo is.
    public enum Priority: String, Sendable, Hashable, CaseIterable {
        case high, medium, low
    }

    /// The store's unique id.
    public var id: String
    /// What to do.
    public var title: String
    /// Whether it is done.
    public var done = false
    /// When it is due: a date, optionally with a time of day.
    public var due: DueDate?
    /// How urgent it is.
    public var priority: Priority?
    /// The id of the contact it concerns.
    public var contactID: String?
    /// Notes in Markdown.
    public var notes = ""
    /// Tags (iCalendar `CATEGORIES`), in the order written.
    public var categories: [String] = []
    /// The id of the todo this one is a subtask of; it is shown under that todo.
    public var parentID: String?
    /// The name of the task list it comes from (a vdir collection's `displayname`), or "".
    public var list = ""
    /// The access classification it is written with (iCalendar `CLASS`), in capitals; nil when
    /// it has none. `AccessClass.isPrivate` says whether the site leaves the todo out.
    public var classification: String?

    /// Creates a todo.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// Whether every field is the same, text byte for byte (`String.hasSameBytes`).
    public static func == (lhs: Todo, rhs: Todo) -> Bool {
        lhs.id.hasSameBytes(as: rhs.id) && lhs.title.hasSameBytes(as: rhs.title) && lhs.done == rhs.done
            && lhs.due == rhs.due && lhs.priority == rhs.priority
            && lhs.contactID.hasSameBytes(as: rhs.contactID)
            && lhs.notes.hasSameBytes(as: rhs.notes) && lhs.categories.hasSameBytes(as: rhs.categories)
            && lhs.parentID.hasSameBytes(as: rhs.parentID) && lhs.list.hasSameBytes(as: rhs.list)
            && lhs.classification.hasSameBytes(as: rhs.classification)
    }
}

/// A due date with an optional local time of day.
public struct DueDate: Sendable, Hashable {
    /// The calendar date.
    public var date: PartialDate
    /// Hour and minute, when a time was given.
    public var hour: Int?
    /// The minute, when a time was given.
    public var minute: Int?
    /// How far ahead of UTC the time is, in seconds, when it was written with a time zone (an
    /// iCalendar `TZID` or `Z`); nil for a date or a floating time, which is shown as written.
    /// Public for `todos.ics`, which writes the time in the same zone it was read in.
    public var utcOffset: Int?

    /// Creates a due date.
    public init(date: PartialDate, hour: Int? = nil, minute: Int? = nil, utcOffset: Int? = nil) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.utcOffset = utcOffset
    }
}
