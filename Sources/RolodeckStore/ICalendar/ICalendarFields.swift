import RolodeckCore

/// Reads what Rolodeck shows from a `VTODO`: `SUMMARY`, whether it is done (`STATUS`,
/// `COMPLETED`, `PERCENT-COMPLETE`), `DUE` (or `DTSTART` plus `DURATION`), `PRIORITY`,
/// `DESCRIPTION`, `CATEGORIES`, and what orders and nests it (`UID`, `RELATED-TO`,
/// `X-APPLE-SORT-ORDER`, `CREATED`).
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
        var todo = Todo(id: "", title: "")
        var record = ICalendarTodo(todo: todo, uid: nil, parents: [], children: [], sortOrder: nil, created: nil,
                                   location: component.location)
        var status: String?
        var completed = false
        var percent: Int?
        var start: ContentLine?
        var duration: Int?
        var notes: [String] = []
        for line in component.properties {
            switch line.name {
            case "SUMMARY":
                if todo.title.isEmpty {
                    todo.title = text(line).split(whereSeparator: \.isNewline).joined(separator: " ").trimmingWhitespace
                }
            case "DESCRIPTION":
                let note = text(line).trimmingWhitespace
                if !note.isEmpty { notes.append(note) }
            case "STATUS": status = text(line).trimmingWhitespace.uppercased()
            case "COMPLETED": completed = true
            case "PERCENT-COMPLETE": percent = Int(text(line).trimmingWhitespace)
            case "DUE":
                if todo.due == nil { todo.due = dueDate(line) }
            case "DTSTART":
                if start == nil { start = line }
            case "DURATION":
                let written = text(line).trimmingWhitespace
                duration = ICalendarDateTime.duration(written)
                if duration == nil { report(.invalidDuration(written), at: line.valueLocation) }
            case "PRIORITY":
                let written = text(line).trimmingWhitespace
                switch Int(written) {
                case 0?: todo.priority = nil
                case (1...4)?: todo.priority = .high
                case 5?: todo.priority = .medium
                case (6...9)?: todo.priority = .low
                default: report(.invalidPriority(written), at: line.valueLocation)
                }
            case "CATEGORIES":
                for name in TextValue.split(rawText(line), at: ",").map(\.trimmingWhitespace)
                where !name.isEmpty && !todo.categories.contains(name) {
                    todo.categories.append(name)
                }
            case "UID":
                if record.uid == nil, let uid = VCardFields.normalizedUID(text(line)) {
                    record.uid = Located(value: uid, location: line.valueLocation)
                }
            case "RELATED-TO":
                guard let uid = VCardFields.normalizedUID(text(line)) else { continue }
                switch line.value(of: "RELTYPE")?.uppercased() ?? "PARENT" {
                case "PARENT": record.parents.append(Located(value: uid, location: line.valueLocation))
                case "CHILD": record.children.append(Located(value: uid, location: line.valueLocation))
                default: continue
                }
            case "X-APPLE-SORT-ORDER":
                record.sortOrder = Int(text(line).trimmingWhitespace)
            case "CREATED":
                switch ICalendarDateTime.parse(text(line)) {
                case .dateTime(let time, _)?: record.created = time.secondsSince1970
                case .date(let date)?:
                    let midnight = LocalDateTime(year: date.year ?? 0, month: date.month, day: date.day)
                    record.created = midnight.secondsSince1970
                case nil: continue
                }
            default:
                continue
            }
        }
        guard !todo.title.isEmpty else {
            report(.noSummary, at: component.location)
            return nil
        }
        // STATUS decides when it says anything; without it, a completion date or 100 % does.
        switch status {
        case "COMPLETED"?, "CANCELLED"?: todo.done = true
        case "NEEDS-ACTION"?, "IN-PROCESS"?: todo.done = false
        default: todo.done = completed || percent == 100
        }
        // Without DUE, a todo with a start and a duration is due when the duration ends.
        if todo.due == nil, let start, let duration, let value = dateTime(start) {
            todo.due = dueDate(value, adding: duration, line: start)
        }
        todo.notes = notes.joined(separator: "\n\n")
        record.todo = todo
        return record
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

    private mutating func dueDate(_ line: ContentLine) -> DueDate? {
        dateTime(line).map { dueDate($0, adding: 0, line: line) }
    }

    /// A due date from a date or date-time, `seconds` later; a time keeps its offset from UTC.
    private mutating func dueDate(_ value: ICalendarDateTime, adding seconds: Int, line: ContentLine) -> DueDate {
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
