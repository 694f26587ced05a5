import RolodeckCore

extension SiteRenderer {
    /// The day the calendars are stamped with (`DTSTAMP`): the store's last change, or today
    /// for a site made in memory without one.
    var calendarStamp: PartialDate { lastUpdated ?? today }

    /// `birthdays.ics`.
    func birthdaysCalendar() -> [UInt8] {
        guard birthdayEventCache != nil else {
            return BirthdayCalendar.bytes(directory: directory, strings: views.strings, stamp: calendarStamp)
        }
        return Self.joined(birthdaysCalendarParts())
    }

    /// `birthdays.ics` as parts, made once per renderer, taking the events the cache kept from
    /// the last calendar that are the same, and keeping this one's for the next.
    func birthdaysCalendarParts() -> [[UInt8]] {
        birthdayCalendar.made.withLock { made in
            if let made { return made.parts }
            let (parts, events) = BirthdayCalendar.parts(
                directory: directory, strings: views.strings, stamp: calendarStamp,
                kept: birthdayEventCache?.kept)
            birthdayEventCache?.keep(events, ticket: birthdayTicket)
            made = (parts, events.changed == true)
            return parts
        }
    }

    /// Whether `birthdays.ics` is known to differ from the last calendar the cache kept (an
    /// event was made anew, came or went); false when that is not known.
    var birthdaysCalendarDiffers: Bool {
        _ = birthdaysCalendarParts()
        return birthdayCalendar.made.withLock { $0?.differs ?? false }
    }

    /// `todos.ics`, named after the todo page and the site.
    func todosCalendar() -> [UInt8] {
        let name = views.strings[.todos] + " · " + directory.config.title
        return TodoCalendar.bytes(directory: directory, name: name, stamp: calendarStamp)
    }
}
