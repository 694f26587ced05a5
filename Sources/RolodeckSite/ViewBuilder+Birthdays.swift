import Mustache
import RolodeckCore

extension ViewBuilder {
    /// The context of birthday page `number` (0 is `birthdays.html`): its part of the shown
    /// birthdays from today on for a year, in groups by month (the current month first, with its
    /// year; a month cut by a page goes on under its heading on the next), the links to the
    /// other pages when there are several, and the link to `birthdays.ics`.
    func birthdaysPage(_ number: Int = 0) -> MustacheTable {
        var context = common(kind: "birthdays", title: strings[.birthdays], root: "")
        let schedule = paging.birthdaySchedule
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
        for occurrence in schedule.occurrences[paging.birthdays[number]] {
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
                // The avatar, as in the contact lists: the photo's thumbnail or the monogram.
                "monogram": row.monogram,
                "isOrganization": row.isOrganization,
                "thumbnail": row.thumbnail.isEmpty ? false as Any : ContactRow(data: row, root: "").thumbnailTable,
            ]
            if showsAge, let turns = occurrence.turns { person["turns"] = strings.turnsAge(turns) }
            people.append(person)
        }
        close()
        context["months"] = months
        context["count"] = schedule.occurrences.count
        context["empty"] = schedule.occurrences.isEmpty
        context["calendarHref"] = "birthdays.ics"
        context["pager"] = numberedPager(
            number, of: paging.birthdays.count, path: SitePaging.birthdaysPath(ofPage:))
        return MustacheTable(context)
    }
}

extension RowData {
    /// Whether the birthday pages show this row and `other` alike: the fields `birthdaysPage`
    /// reads of a row, which `PageDependencies` compares, text byte for byte.
    func showsAlikeOnBirthdayPages(_ other: RowData) -> Bool {
        name.hasSameBytes(as: other.name) && lang == other.lang && path == other.path
            && monogram.hasSameBytes(as: other.monogram)
            && isOrganization == other.isOrganization && thumbnail == other.thumbnail
    }
}
