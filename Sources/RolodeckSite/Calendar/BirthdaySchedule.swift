import RolodeckCore
import RolodeckPlan

/// Who has a birthday when: the directory's contacts with a shown birthday, each at the next
/// time it comes round from a given day, as `birthdays.html` lists them and `birthdays.ics`
/// repeats them.
///
/// A birthday on 29 February falls on 28 February in common years: the last day of February,
/// which is what calendar apps do with the yearly rule `birthdays.ics` gives it
/// (`BYMONTH=2;BYMONTHDAY=-1`), so the page and a subscribed calendar agree.
struct BirthdaySchedule: Sendable {
    /// One contact's next birthday.
    struct Occurrence: Equatable, Sendable {
        /// The contact's position in the directory's entries.
        var entry: Int
        /// The contact's birthday as the store gives it; its year may be unknown.
        var birthday: PartialDate
        /// The day it is celebrated next, on or after the schedule's first day.
        var date: PartialDate
        /// The age the contact turns that day; nil when the birth year is unknown.
        var turns: Int?
    }

    /// Every shown birthday, by the day it next comes round (today's first), then in the
    /// directory's order.
    let occurrences: [Occurrence]

    /// The birthdays of `directory`'s contacts from `today` on, for one year; none when the
    /// config hides birthdays. Hidden contacts are not in the directory to begin with.
    init(directory: Directory, today: PartialDate) {
        guard directory.config.shows(.birthday), let year = today.year else {
            occurrences = []
            return
        }
        var found: [Occurrence] = []
        // Each entry read where it lies: a copy of one retains all its strings.
        for index in directory.entries.indices {
            guard let birthday = directory.entries[index].contact.birthday else { continue }
            let date = Self.next(birthday, onOrAfter: today, year: year)
            var turns: Int?
            if let born = birthday.year, let when = date.year, when > born { turns = when - born }
            found.append(Occurrence(entry: index, birthday: birthday, date: date, turns: turns))
        }
        // By day, and contacts sharing a day in the directory's (alphabetical) order: the days
        // lie within a year from `today`, so each has a slot of its own (this year's or next
        // year's month and day), and they are counted into them, not sorted (60,000 birthdays
        // at 100,000 contacts; a sort took 50 ms of every save).
        occurrences = found.ordered(inSlots: 1024) { occurrence in
            (occurrence.date.year! - year) * 512 + occurrence.date.month * 32 + occurrence.date.day
        }
    }

    /// The day `birthday` is celebrated in `year`: itself, or 28 February for 29 February in a
    /// common year.
    static func celebrated(_ birthday: PartialDate, in year: Int) -> PartialDate {
        let days = PartialDate.daysIn(month: birthday.month, year: year)
        return PartialDate(year: year, month: birthday.month, day: min(birthday.day, days))
    }

    /// The first day on or after `today` that `birthday` is celebrated; `year` is today's.
    static func next(_ birthday: PartialDate, onOrAfter today: PartialDate, year: Int) -> PartialDate {
        let thisYear = celebrated(birthday, in: year)
        return thisYear < today ? celebrated(birthday, in: year + 1) : thisYear
    }
}
