import RolodeckCore

/// A problem with an iCalendar file or one of its todos; its wording lives in one place,
/// `message`. Every one is a warning: it costs at most the value or the todo it is about.
struct ICalendarIssue: ReaderIssue {
    /// Everything that can be wrong with a todo.
    enum Reason: Sendable, Equatable {
        case textOutsideComponent
        case notEnded(String)
        case strayEnd(String)
        case noSummary
        case invalidDate(property: String, text: String)
        case invalidDuration(String)
        case invalidPriority(String)
        case unknownTimeZone(String)
        case unknownParent(todo: String, parent: String)
        case unknownChild(todo: String, child: String)
        case subtaskCycle(todo: String)
        case duplicateUID(String, first: SourceLocation)
    }

    /// What is wrong.
    var reason: Reason

    /// The message the user reads.
    var message: String {
        switch reason {
        case .textOutsideComponent:
            return "text outside BEGIN:VCALENDAR … END:VCALENDAR is ignored"
        case .notEnded(let name):
            return "BEGIN:\(name) has no END:\(name); it is read up to where the component around it ends"
        case .strayEnd(let name):
            return "END:\(name) ends nothing that was begun and is ignored"
        case .noSummary:
            return "this todo has no SUMMARY; it is skipped"
        case .invalidDate(let property, let text):
            return "\(property) \"\(text)\" is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS); it is left out"
        case .invalidDuration(let text):
            return "DURATION \"\(text)\" is not a duration such as P1D or PT2H30M; it is left out"
        case .invalidPriority(let text):
            return "PRIORITY \"\(text)\" is not a number from 0 to 9; it is left out"
        case .unknownTimeZone(let name):
            return "time zone \"\(name)\" is neither in the time zone database nor defined by a VTIMEZONE in "
                + "this file; its times are shown as written"
        case .unknownParent(let todo, let parent):
            return "todo \"\(todo)\" is a subtask of \"\(parent)\", which is not in the store; "
                + "it is shown as a todo of its own"
        case .unknownChild(let todo, let child):
            return "todo \"\(todo)\" has the subtask \"\(child)\", which is not in the store; it is ignored"
        case .subtaskCycle(let todo):
            return "todo \"\(todo)\" is, through RELATED-TO, a subtask of itself; it is shown as a todo of its own"
        case .duplicateUID(let uid, let first):
            return "the todo at \(first) has the same UID \"\(uid)\"; this todo is skipped"
        }
    }
}
