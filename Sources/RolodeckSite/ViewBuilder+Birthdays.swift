import Mustache
import RolodeckCore

extension ViewBuilder {
    /// The context of `birthdays.html`: the shown birthdays from today on for a year, in groups
    /// by month (the current month first, with its year), and the link to `birthdays.ics`.
    func birthdaysPage() -> MustacheTable {
        var context = common(kind: "birthdays", title: strings[.birthdays], root: "")
        let schedule = BirthdaySchedule(directory: directory, today: today)
        var months: [[String: Any]] = []
        var current: (year: Int, month: Int)?
        var people: [[String: Any]] = []
        func close() {
            guard let current else { return }
            months.append([
                "label": strings.monthOfYear(current.month, year: current.year),
                "anchor": "month-\(current.year)-\(ICalendarWriter.digits(current.month, 2))",
                "birthdays": people,
            ])
            people = []
        }
        let showsAge = directory.config.shows(.age)
        for occurrence in schedule.occurrences {
            let year = occurrence.date.year ?? 0
            if current == nil || current! != (year, occurrence.date.month) {
                close()
                current = (year, occurrence.date.month)
            }
            let row = rows[occurrence.entry]
            var person: [String: Any] = [
                "name": row.name,
                "lang": row.lang,
                "href": row.path,
                "day": strings.monthDay(occurrence.date),
                "iso": Self.htmlDate(occurrence.date),
                "today": occurrence.date == today,
                // A string or false, so that no age shows as nothing rather than as 0.
                "turns": false,
            ]
            if showsAge, let turns = occurrence.turns { person["turns"] = strings.turnsAge(turns) }
            people.append(person)
        }
        close()
        context["months"] = months
        context["count"] = schedule.occurrences.count
        context["empty"] = schedule.occurrences.isEmpty
        context["calendarHref"] = "birthdays.ics"
        return MustacheTable(context)
    }
}
