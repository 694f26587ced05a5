import RolodeckCore

extension SiteRenderer {
    /// The day the calendars are stamped with (`DTSTAMP`): the store's last change, or today
    /// for a site made in memory without one.
    var calendarStamp: PartialDate { lastUpdated ?? today }

    /// `birthdays.ics`.
    func birthdaysCalendar() -> [UInt8] {
        BirthdayCalendar.bytes(directory: directory, strings: views.strings, stamp: calendarStamp)
    }

    /// `todos.ics`, named after the todo page and the site.
    func todosCalendar() -> [UInt8] {
        let name = views.strings[.todos] + " · " + directory.config.title
        return TodoCalendar.bytes(directory: directory, name: name, stamp: calendarStamp)
    }
}
