import RolodeckCore
import RolodeckPlan

/// How a site's long lists are split into pages: the index, each group's page and the todos,
/// each by `pageSize` from the config. Made once per render from the directory; watch compares
/// the pages it names, not the paging itself, which follows from the sections and the config.
public struct SitePaging: Sendable {
    /// The index's section pages, `sections/<name>.html`; none when the index is one page.
    public let index: ListPaging
    /// Each group's section pages, `groups/<slug>/<name>.html`, by group position.
    public let groups: [ListPaging]
    /// The todo pages: `todos.html`, then `todos-2.html` and on.
    public let todos: TodoPaging
    /// The birthday pages, `birthdays.html`, then `birthdays-2.html` and on: each a range of
    /// the birthday schedule's occurrences, at most `pageSize` of them; one page when they fit.
    public let birthdays: [Range<Int>]
    /// The birthdays the birthday pages list, worked out once for all of them (each page is a
    /// range of it; making it walks and sorts every contact).
    let birthdaySchedule: BirthdaySchedule

    /// Pages `directory`'s lists by its config's `pageSize`; the birthdays are those from `today` on.
    init(_ directory: Directory, today: PartialDate) {
        let size = max(1, directory.config.pageSize)
        index = ListPaging(sections: directory.sections, pageSize: size)
        groups = directory.groups.map { ListPaging(sections: $0.sections, pageSize: size) }
        todos = TodoPaging(todos: directory.todos, pageSize: size)
        birthdaySchedule = BirthdaySchedule(directory: directory, today: today)
        let count = birthdaySchedule.occurrences.count
        // Cut by number, not by month: a month of a large store is many pages on its own.
        birthdays =
            count <= size
            ? [0..<count] : stride(from: 0, to: count, by: size).map { $0..<min(count, $0 + size) }
    }

    /// The file name of birthday page `number` (from 0): `birthdays.html`, `birthdays-2.html`, …
    static func birthdaysPath(ofPage number: Int) -> String {
        number == 0 ? "birthdays.html" : "birthdays-\(number + 1).html"
    }

    /// How many pages paging adds to a site that has none.
    var extraPageCount: Int {
        index.pages.count + groups.reduce(0) { $0 + $1.pages.count } + todos.pages.count - 1
            + birthdays.count - 1
    }

    /// Every group's section pages, group after group.
    var groupSectionPages: [SitePage] {
        var pages: [SitePage] = []
        for (group, paging) in groups.enumerated() {
            pages += paging.pages.indices.map { SitePage.groupSection(group, $0) }
        }
        return pages
    }
}
