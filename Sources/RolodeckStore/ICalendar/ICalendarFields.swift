import RolodeckCore

/// Reads what Rolodeck shows from a `VTODO`: `SUMMARY`, whether it is done (`STATUS`,
/// `COMPLETED`, `PERCENT-COMPLETE`), `DUE` (or `DTSTART` plus `DURATION`), `PRIORITY`,
/// `DESCRIPTION`, `CATEGORIES`, whether it is private (`CLASS`), and what orders and nests it
/// (`UID`, `RELATED-TO`, `X-APPLE-SORT-ORDER`, `CREATED`).
///
/// One value is used per file, so each unknown time zone and charset problem is reported once.
struct ICalendarFields: ContentLineFields {
    /// The issue this reader reports.
    typealias Issue = ICalendarIssue

    /// The file's time zone definitions.
    let timeZones: ICalendarTimeZones
    private var reportedZones: Set<String> = []
    /// Reads the values and holds the warnings.
    var lineText = ContentLineText()

    /// Prepares to read the todos of a file with its time zone definitions.
    init(timeZones: ICalendarTimeZones) {
        self.timeZones = timeZones
    }

    /// The todo, or nil when it is skipped: it has no summary (reported), or it is one changed
    /// occurrence of a repeating todo (`RECURRENCE-ID`), which the todo it belongs to stands for.
    mutating func todo(from component: ICalendarComponent) -> ICalendarTodo? {
        guard component.property("RECURRENCE-ID") == nil else { return nil }
        var written = WrittenTodo()
        for line in component.properties {
            read(line, into: &written)
        }
        guard !written.todo.title.isEmpty else {
            report(.noSummary, at: component.location)
            return nil
        }
        written.todo.done = written.isDone
        if written.todo.due == nil { written.todo.due = dueAfterDuration(of: written) }
        written.todo.notes = written.notes.joined(separator: "\n\n")
        return written.record(at: component.location)
    }

    /// Reads one property into what the todo says; a property Rolodeck does not show is passed
    /// over.
    private mutating func read(_ line: ContentLine, into written: inout WrittenTodo) {
        switch line.name {
        case "SUMMARY":
            if written.todo.title.isEmpty { written.todo.title = Self.oneLine(text(line)) }
        case "DESCRIPTION":
            if let note = text(line).trimmingWhitespace.nonEmpty { written.notes.append(note) }
        case "STATUS": written.status = text(line).trimmingWhitespace.uppercased()
        case "COMPLETED": written.completed = true
        case "PERCENT-COMPLETE": written.percent = Int(text(line).trimmingWhitespace)
        case "DUE":
            if written.todo.due == nil { written.todo.due = dueDate(line) }
        case "DTSTART":
            if written.start == nil { written.start = line }
        case "DURATION":
            let value = text(line).trimmingWhitespace
            written.duration = ICalendarDateTime.duration(value)
            if written.duration == nil { report(.invalidDuration(value), at: line.valueLocation) }
        case "PRIORITY": readPriority(line, into: &written.todo)
        case "CATEGORIES":
            for name in listItems(line) where !name.isEmpty && !written.todo.categories.contains(name) {
                written.todo.categories.append(name)
            }
        case "UID":
            if written.uid == nil, let uid = VCardFields.normalizedUID(text(line)) {
                written.uid = Located(value: uid, location: line.valueLocation)
            }
        case "RELATED-TO":
            if let uid = VCardFields.normalizedUID(text(line)) {
                written.relate(
                    to: Located(value: uid, location: line.valueLocation), as: line.value(of: "RELTYPE"))
            }
        case "X-APPLE-SORT-ORDER": written.sortOrder = Int(text(line).trimmingWhitespace)
        case "CREATED":
            if let created = Self.secondsSince1970(text(line)) { written.created = created }
        case "CLASS":
            if written.todo.classification == nil {
                written.todo.classification = text(line).trimmingWhitespace.uppercased().nonEmpty
            }
        default:
            return
        }
    }

    /// What a todo says, gathered property by property, then made into a record.
    struct WrittenTodo {
        /// The todo as far as it is known; its id is still empty.
        var todo = Todo(id: "", title: "")
        /// The first `UID`, without `urn:uuid:`.
        var uid: Located<String>?
        /// The UIDs of the todos it is a subtask of.
        var parents: [Located<String>] = []
        /// The UIDs of its subtasks.
        var children: [Located<String>] = []
        /// `X-APPLE-SORT-ORDER`.
        var sortOrder: Int?
        /// `CREATED`, in seconds since 1970.
        var created: Int?
        /// `STATUS`, in capitals.
        var status: String?
        /// Whether it has a `COMPLETED` time.
        var completed = false
        /// `PERCENT-COMPLETE`.
        var percent: Int?
        /// The first `DTSTART`, read only when it is needed: for a todo with a duration and no `DUE`.
        var start: ContentLine?
        /// The last `DURATION`, in seconds; nil when it is not a duration.
        var duration: Int?
        /// Every `DESCRIPTION` that is not empty.
        var notes: [String] = []

        /// Whether it is done: `STATUS` decides when it says anything; without it, a completion
        /// time or 100 % does.
        var isDone: Bool {
            switch status {
            case "COMPLETED"?, "CANCELLED"?: return true
            case "NEEDS-ACTION"?, "IN-PROCESS"?: return false
            default: return completed || percent == 100
            }
        }

        /// Relates it to the todo with `uid` as `RELTYPE` says: its parent (also when it says
        /// nothing) or its child; any other relation is passed over.
        mutating func relate(to uid: Located<String>, as relation: String?) {
            switch relation?.uppercased() ?? "PARENT" {
            case "PARENT": parents.append(uid)
            case "CHILD": children.append(uid)
            default: return
            }
        }

        /// The record of the todo that `BEGIN:VTODO` at `location` begins.
        func record(at location: SourceLocation) -> ICalendarTodo {
            ICalendarTodo(
                todo: todo, uid: uid, parents: parents, children: children, sortOrder: sortOrder,
                created: created,
                location: location)
        }
    }

    /// `PRIORITY`: 1 to 4 is high, 5 medium, 6 to 9 low, 0 none; anything else is reported and
    /// leaves the priority as it was.
    private mutating func readPriority(_ line: ContentLine, into todo: inout Todo) {
        let written = text(line).trimmingWhitespace
        switch Int(written) {
        case 0?: todo.priority = nil
        case (1...4)?: todo.priority = .high
        case 5?: todo.priority = .medium
        case (6...9)?: todo.priority = .low
        default: report(.invalidPriority(written), at: line.valueLocation)
        }
    }

    /// A summary on one line: each run of line breaks is a space.
    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace
    }

    /// A date or date-time (`CREATED`) in seconds since 1970, a date at its midnight; nil when it
    /// is neither.
    private static func secondsSince1970(_ text: String) -> Int? {
        switch ICalendarDateTime.parse(text) {
        case .dateTime(let time, _)?: return time.secondsSince1970
        case .date(let date)?:
            return LocalDateTime(year: date.year ?? 0, month: date.month, day: date.day).secondsSince1970
        case nil: return nil
        }
    }

    // MARK: - Dates

    private mutating func dateTime(_ line: ContentLine) -> ICalendarDateTime? {
        let written = text(line).trimmingWhitespace
        guard let value = ICalendarDateTime.parse(written) else {
            report(.invalidDate(property: line.name, text: written), at: line.valueLocation)
            return nil
        }
        if line.value(of: "VALUE")?.uppercased() == "DATE", case .dateTime(let time, _) = value {
            return .date(time.date)
        }
        return value
    }

    /// When a todo without `DUE` is due: when the duration from its start ends, if it has both.
    private mutating func dueAfterDuration(of written: WrittenTodo) -> DueDate? {
        guard let start = written.start, let duration = written.duration, let value = dateTime(start) else {
            return nil
        }
        return dueDate(value, adding: duration, line: start)
    }

    private mutating func dueDate(_ line: ContentLine) -> DueDate? {
        dateTime(line).map { dueDate($0, adding: 0, line: line) }
    }

    /// A due date from a date or date-time, `seconds` later; a time keeps its offset from UTC.
    private mutating func dueDate(_ value: ICalendarDateTime, adding seconds: Int, line: ContentLine)
        -> DueDate
    {
        switch value {
        case .date(let date):
            let days = LocalDateTime.days(year: date.year ?? 0, month: date.month, day: date.day)
            let shifted = LocalDateTime(secondsSince1970: (days * 86_400 + seconds))
            return DueDate(date: shifted.date)
        case .dateTime(let time, let isUTC):
            let shifted = LocalDateTime(secondsSince1970: time.secondsSince1970 + seconds)
            var offset: Int?
            if isUTC {
                offset = 0
            } else if let tzid = line.value(of: "TZID")?.trimmingWhitespace, !tzid.isEmpty {
                offset = timeZones.utcOffset(of: shifted, in: tzid)
                if offset == nil, reportedZones.insert(tzid).inserted {
                    report(.unknownTimeZone(tzid), at: line.location)
                }
            }
            return DueDate(date: shifted.date, hour: shifted.hour, minute: shifted.minute, utcOffset: offset)
        }
    }
}
