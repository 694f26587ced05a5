import Testing
@testable import RolodeckStore
@testable import RolodeckCore

/// What a `VTODO` means, field by field, and the exact warning where one has a problem.
@Suite struct ICalendarTodoTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var input: String
        var todos: [String]
        var warnings: [String] = []
        var testDescription: String { name }
    }

    /// Todos as `StoreDump` text and every diagnostic, from iCalendar files read in order.
    static func read(_ files: [(path: String, text: String, list: String)]) -> (todos: [String], warnings: [String]) {
        let (store, diagnostics) = StoreDecoder.decode(files.map {
            .iCalendar(SourceText(path: $0.path, text: $0.text), collection: $0.list)
        })
        return (store.todos.map(StoreDump.todo), diagnostics.map(\.description))
    }

    /// A VCALENDAR holding todos, each given as its lines; CRLF line ends.
    static func calendar(_ todos: [String]..., before: [String] = []) -> String {
        let lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Rolodeck tests//EN"] + before
            + todos.flatMap { ["BEGIN:VTODO"] + $0 + ["END:VTODO"] } + ["END:VCALENDAR"]
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    static let windowsZone = [
        "BEGIN:VTIMEZONE", "TZID:W. Europe Standard Time",
        "BEGIN:STANDARD", "DTSTART:16010101T030000", "TZOFFSETFROM:+0200", "TZOFFSETTO:+0100",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10", "END:STANDARD",
        "BEGIN:DAYLIGHT", "DTSTART:16010101T020000", "TZOFFSETFROM:+0100", "TZOFFSETTO:+0200",
        "RRULE:FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3", "END:DAYLIGHT", "END:VTIMEZONE",
        "BEGIN:VTIMEZONE", "TZID:Fixed Half Hour", "BEGIN:STANDARD", "DTSTART:19700101T000000",
        "TZOFFSETFROM:+0530", "TZOFFSETTO:+0530", "END:STANDARD", "END:VTIMEZONE",
    ]

    static let cases: [Case] = [
        Case(name: "done: STATUS decides, else COMPLETED or PERCENT-COMPLETE:100",
             input: calendar(["UID:a", "SUMMARY:Status completed", "STATUS:COMPLETED"],
                             ["UID:b", "SUMMARY:Completed date only", "COMPLETED:20260101T100000Z"],
                             ["UID:c", "SUMMARY:Hundred percent", "PERCENT-COMPLETE:100"],
                             ["UID:d", "SUMMARY:Reopened", "PERCENT-COMPLETE:100", "STATUS:NEEDS-ACTION"],
                             ["UID:e", "SUMMARY:In process", "COMPLETED:20260101T100000Z", "STATUS:IN-PROCESS"],
                             ["UID:f", "SUMMARY:Cancelled", "STATUS:CANCELLED"],
                             ["UID:g", "SUMMARY:Half done", "PERCENT-COMPLETE:50"]),
             todos: ["id: a\ntitle: Status completed\ndone", "id: b\ntitle: Completed date only\ndone",
                     "id: c\ntitle: Hundred percent\ndone", "id: d\ntitle: Reopened", "id: e\ntitle: In process",
                     "id: f\ntitle: Cancelled\ndone", "id: g\ntitle: Half done"]),
        Case(name: "access classification: CLASS in capitals, the first of two, none when empty",
             input: calendar(["UID:a", "SUMMARY:Public", "CLASS:PUBLIC"],
                             ["UID:b", "SUMMARY:Private", "class:private", "CLASS:PUBLIC"],
                             ["UID:c", "SUMMARY:Confidential", "CLASS:CONFIDENTIAL"],
                             ["UID:d", "SUMMARY:Empty", "CLASS: "]),
             todos: ["id: a\ntitle: Public\nclass: PUBLIC", "id: b\ntitle: Private\nclass: PRIVATE",
                     "id: c\ntitle: Confidential\nclass: CONFIDENTIAL", "id: d\ntitle: Empty"]),
        Case(name: "due dates, floating times and UTC",
             input: calendar(["UID:a", "SUMMARY:Date", "DUE;VALUE=DATE:20260201"],
                             ["UID:b", "SUMMARY:Bare date", "DUE:20260202"],
                             ["UID:c", "SUMMARY:Floating", "DUE:20260203T093000"],
                             ["UID:d", "SUMMARY:UTC", "DUE:20260204T080000Z"],
                             ["UID:e", "SUMMARY:Extended form", "DUE:2026-02-05T07:45:00"],
                             ["UID:f", "SUMMARY:Start and duration", "DTSTART:20260206T220000Z", "DURATION:PT3H"],
                             ["UID:g", "SUMMARY:All-day start and a week", "DTSTART;VALUE=DATE:20260226", "DURATION:P1W"]),
             todos: ["id: a\ntitle: Date\ndue: 2026-02-01", "id: b\ntitle: Bare date\ndue: 2026-02-02",
                     "id: c\ntitle: Floating\ndue: 2026-02-03 09:30", "id: d\ntitle: UTC\ndue: 2026-02-04 08:00 UTC+0",
                     "id: e\ntitle: Extended form\ndue: 2026-02-05 07:45",
                     "id: f\ntitle: Start and duration\ndue: 2026-02-07 01:00 UTC+0",
                     "id: g\ntitle: All-day start and a week\ndue: 2026-03-05"]),
        Case(name: "time zones: the database, a Mozilla prefix, the file's VTIMEZONE, and an unknown one",
             input: calendar(["UID:a", "SUMMARY:Berlin winter", "DUE;TZID=Europe/Berlin:20260115T090000"],
                             ["UID:b", "SUMMARY:Berlin summer", "DUE;TZID=Europe/Berlin:20260715T090000"],
                             ["UID:c", "SUMMARY:Mozilla", "DUE;TZID=/mozilla.org/20070129_1/Europe/Berlin:20260715T090000"],
                             ["UID:d", "SUMMARY:Outlook before", "DUE;TZID=W. Europe Standard Time:20260328T120000"],
                             ["UID:e", "SUMMARY:Outlook after", "DUE;TZID=W. Europe Standard Time:20260329T120000"],
                             ["UID:f", "SUMMARY:Outlook autumn", "DUE;TZID=\"W. Europe Standard Time\":20261025T040000"],
                             ["UID:g", "SUMMARY:Half hour", "DUE;TZID=Fixed Half Hour:20260101T000000"],
                             ["UID:h", "SUMMARY:Mars", "DUE;TZID=Mars/Olympus_Mons:20260101T120000"],
                             ["UID:i", "SUMMARY:Mars again", "DUE;TZID=Mars/Olympus_Mons:20260102T120000"],
                             before: windowsZone),
             todos: ["id: a\ntitle: Berlin winter\ndue: 2026-01-15 09:00 UTC+1",
                     "id: b\ntitle: Berlin summer\ndue: 2026-07-15 09:00 UTC+2",
                     "id: c\ntitle: Mozilla\ndue: 2026-07-15 09:00 UTC+2",
                     "id: d\ntitle: Outlook before\ndue: 2026-03-28 12:00 UTC+1",
                     "id: e\ntitle: Outlook after\ndue: 2026-03-29 12:00 UTC+2",
                     "id: f\ntitle: Outlook autumn\ndue: 2026-10-25 04:00 UTC+1",
                     "id: g\ntitle: Half hour\ndue: 2026-01-01 00:00 UTC+5:30",
                     "id: h\ntitle: Mars\ndue: 2026-01-01 12:00", "id: i\ntitle: Mars again\ndue: 2026-01-02 12:00"],
             warnings: ["c.ics:65:1: warning: time zone \"Mars/Olympus_Mons\" is neither in the time zone database nor "
                        + "defined by a VTIMEZONE in this file; its times are shown as written"]),
        Case(name: "priorities as iCalendar numbers them",
             input: calendar(["UID:a", "SUMMARY:One", "PRIORITY:1"], ["UID:b", "SUMMARY:Four", "PRIORITY:4"],
                             ["UID:c", "SUMMARY:Five", "PRIORITY:5"], ["UID:d", "SUMMARY:Six", "PRIORITY:6"],
                             ["UID:e", "SUMMARY:Nine", "PRIORITY:9"], ["UID:f", "SUMMARY:Zero", "PRIORITY:0"],
                             ["UID:g", "SUMMARY:Twelve", "PRIORITY:12"]),
             todos: ["id: a\ntitle: One\npriority: high", "id: b\ntitle: Four\npriority: high",
                     "id: c\ntitle: Five\npriority: medium", "id: d\ntitle: Six\npriority: low",
                     "id: e\ntitle: Nine\npriority: low", "id: f\ntitle: Zero", "id: g\ntitle: Twelve"],
             warnings: ["c.ics:37:10: warning: PRIORITY \"12\" is not a number from 0 to 9; it is left out"]),
        Case(name: "description as Markdown, categories from every CATEGORIES",
             input: calendar(["UID:a", "SUMMARY:Plan the\\, party", #"DESCRIPTION:- cake\n- **music**"#,
                              "CATEGORIES:Home,Family", "CATEGORIES:family,Home", #"CATEGORIES:Tennis\, Squash"#]),
             todos: ["id: a\ntitle: Plan the, party\ncategories: Home, Family, family, Tennis, Squash\nnotes: - cake⏎- **music**"]),
        Case(name: "subtasks by RELATED-TO, both ways, and what goes wrong",
             input: calendar(["UID:child", "SUMMARY:Child", "RELATED-TO:urn:uuid:parent"],
                             ["UID:parent", "SUMMARY:Parent", "RELATED-TO;RELTYPE=CHILD:other-child"],
                             ["UID:other-child", "SUMMARY:Other child"],
                             ["UID:sibling", "SUMMARY:Sibling", "RELATED-TO;RELTYPE=SIBLING:parent"],
                             ["UID:orphan", "SUMMARY:Orphan", "RELATED-TO:gone"],
                             ["UID:x", "SUMMARY:X", "RELATED-TO:y"], ["UID:y", "SUMMARY:Y", "RELATED-TO:x"],
                             ["UID:me", "SUMMARY:Me", "RELATED-TO:me"]),
             todos: ["id: child\ntitle: Child\nparent: parent", "id: parent\ntitle: Parent",
                     "id: other-child\ntitle: Other child\nparent: parent", "id: sibling\ntitle: Sibling",
                     "id: orphan\ntitle: Orphan", "id: x\ntitle: X", "id: y\ntitle: Y\nparent: x", "id: me\ntitle: Me"],
             warnings: [
                "c.ics:26:12: warning: todo \"Orphan\" is a subtask of \"gone\", which is not in the store; it is shown "
                    + "as a todo of its own",
                "c.ics:31:12: warning: todo \"X\" is, through RELATED-TO, a subtask of itself; it is shown as a todo of its own",
                "c.ics:41:12: warning: todo \"Me\" is, through RELATED-TO, a subtask of itself; it is shown as a todo of its own",
             ]),
        Case(name: "order: X-APPLE-SORT-ORDER, then CREATED, then file order",
             input: calendar(["UID:a", "SUMMARY:No order, no date"], ["UID:b", "SUMMARY:Created late", "CREATED:20260301T000000Z"],
                             ["UID:c", "SUMMARY:Sorted second", "X-APPLE-SORT-ORDER:20"],
                             ["UID:d", "SUMMARY:Created early", "CREATED:20250101T000000Z"],
                             ["UID:e", "SUMMARY:Sorted first", "X-APPLE-SORT-ORDER:-5", "CREATED:20270101T000000Z"],
                             ["UID:f", "SUMMARY:Also no order"]),
             todos: ["id: e\ntitle: Sorted first", "id: c\ntitle: Sorted second", "id: d\ntitle: Created early",
                     "id: b\ntitle: Created late", "id: a\ntitle: No order, no date", "id: f\ntitle: Also no order"]),
        Case(name: "what is skipped: no SUMMARY, a changed occurrence, events, a UID seen before",
             input: calendar(["UID:a", "DUE:20260101"], ["UID:b", "SUMMARY:Weekly", "RRULE:FREQ=WEEKLY"],
                             ["UID:b", "SUMMARY:Weekly (moved)", "RECURRENCE-ID:20260108T090000Z"],
                             ["UID:c", "SUMMARY:First"], ["UID:c", "SUMMARY:Second"])
                .replacingOccurrences(of: "END:VCALENDAR", with: "BEGIN:VEVENT\r\nUID:ev\r\nSUMMARY:Party\r\nEND:VEVENT\r\nEND:VCALENDAR"),
             todos: ["id: b\ntitle: Weekly", "id: c\ntitle: First"],
             warnings: [
                "c.ics:4:1: warning: this todo has no SUMMARY; it is skipped",
                "c.ics:23:5: warning: the todo at c.ics:18:1 has the same UID \"c\"; this todo is skipped",
             ]),
        Case(name: "a broken component costs only itself",
             input: "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:a\r\nSUMMARY:Never ended\r\nBEGIN:VTODO\r\n"
                + "UID:b\r\nSUMMARY:Fine\r\nDUE:2026-13-01\r\nEND:VTODO\r\nEND:VALARM\r\nEND:VCALENDAR\r\nSUMMARY:stray\r\n",
             todos: ["id: a\ntitle: Never ended", "id: b\ntitle: Fine"],
             warnings: [
                "c.ics:3:1: warning: BEGIN:VTODO has no END:VTODO; it is read up to where the component around it ends",
                "c.ics:9:5: warning: DUE \"2026-13-01\" is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS); it is left out",
                "c.ics:11:1: warning: END:VALARM ends nothing that was begun and is ignored",
                "c.ics:13:1: warning: text outside BEGIN:VCALENDAR … END:VCALENDAR is ignored",
             ]),
    ]

    @Test(arguments: cases)
    func readsTheTodoItMeans(_ testCase: Case) {
        let (todos, warnings) = Self.read([("c.ics", testCase.input, "")])
        #expect(todos == testCase.todos)
        #expect(warnings == testCase.warnings)
    }

    @Test func eachTaskListKeepsItsOwnOrderAndSubtasksReachAcrossFiles() {
        let (todos, warnings) = Self.read([
            ("store/home/1.ics", Self.calendar(["UID:h2", "SUMMARY:Home two", "X-APPLE-SORT-ORDER:2"]), "Home"),
            ("store/work/1.ics", Self.calendar(["UID:w1", "SUMMARY:Work one", "CREATED:20260101T000000Z"]), "Work"),
            ("store/home/2.ics", Self.calendar(["UID:h1", "SUMMARY:Home one", "X-APPLE-SORT-ORDER:1"],
                                               ["UID:h3", "SUMMARY:Home sub", "RELATED-TO:w1"]), "Home"),
            ("store/work/2.ics", Self.calendar(["UID:h1", "SUMMARY:Duplicate"]), "Work"),
        ])
        #expect(todos == [
            "id: h1\ntitle: Home one\nlist: Home", "id: h2\ntitle: Home two\nlist: Home",
            "id: h3\ntitle: Home sub\nparent: w1\nlist: Home", "id: w1\ntitle: Work one\nlist: Work",
        ])
        #expect(warnings == [
            "store/work/2.ics:5:5: warning: the todo at store/home/2.ics:4:1 has the same UID \"h1\"; this todo is skipped",
        ])
    }

    @Test func todosOfOneTitleWithoutUIDAreNumberedPastIdsTakenOtherwise() {
        let text = Self.calendar(
            ["SUMMARY:Call"], ["SUMMARY:Call"], ["SUMMARY:Call 3"], ["SUMMARY:Call"],
            ["UID:Call 5", "SUMMARY:Five"], ["SUMMARY:Call"], ["SUMMARY:Call"])
        let file = StoreFile.iCalendar(SourceText(path: "store/t.ics", text: text))
        let (store, diagnostics) = StoreDecoder.decode([file])
        #expect(diagnostics.isEmpty)
        let numbered = [
            "Call 2=Call", "Call 3=Call 3", "Call 4=Call", "Call 5=Five", "Call 6=Call", "Call 7=Call", "Call=Call",
        ]
        #expect(store.todos.map { "\($0.id)=\($0.title)" }.sorted() == numbered)
    }

    @Test func aUIDThatIsAJSONTodosIdIsAnError() {
        let json = StoreFile(kind: .todo, layout: .list,
                             source: SourceText(path: "store/todos.json", text: #"[{"id": "t1", "title": "JSON"}]"#))
        let (store, diagnostics) = StoreDecoder.decode([
            json, .iCalendar(SourceText(path: "store/t.ics", text: Self.calendar(["UID:t1", "SUMMARY:ICS"],
                                                                                 ["SUMMARY:No UID", "RELATED-TO:t1"]))),
        ])
        #expect(diagnostics.map(\.description) == [
            "store/t.ics:5:5: error: duplicate todo id \"t1\"; it is already used at store/todos.json:1:9",
        ])
        #expect(store.todos.map(\.id) == ["t1", "No UID"])
        #expect(store.todos[1].parentID == "t1")
    }
}
