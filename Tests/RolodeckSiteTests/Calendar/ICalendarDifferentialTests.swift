import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckLocale
@testable import RolodeckPlan
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// Reads the demo's `birthdays.ics` and `todos.ics` with Debian's python3-icalendar (through
/// `Tests/ICalendar/icalendar_dump.py` and `/usr/bin/python3`, the Python it is installed for)
/// and checks that it finds what Rolodeck meant to write: every birthday and todo, with its
/// UID, dates, summary, status, priority, tags, parent and place; and that python3-dateutil
/// expands each yearly rule to the days the birthday page lists (28 February in common years
/// for a birthday on 29 February).
@Suite struct ICalendarDifferentialTests {
    static let python = "/usr/bin/python3"
    static let script = Fixtures.packageRoot.appendingPathComponent("Tests/ICalendar/icalendar_dump.py")
    static let today = PartialDate(year: 2026, month: 11, day: 30)
    static let lastUpdated = PartialDate(year: 2026, month: 11, day: 2)
    static let years = 2026...2028

    /// Why the test cannot run here, or nil when it can.
    static let unavailable: String? = {
        guard FileManager.default.isExecutableFile(atPath: python),
            (try? ProcessRun.run([python, "-c", "import icalendar, dateutil"]))?.status == 0
        else {
            return
                "python3-icalendar is not installed for /usr/bin/python3 (apt-get install python3-icalendar): skipped"
        }
        return nil
    }()

    /// The demo planned, and its two calendars as python3-icalendar reads them, by file name.
    static func demo() throws -> (Directory, [String: [String: Any]]) {
        let reader = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "")
        let site = try Site.load(try reader.read().input)
        let files = try site.renderFiles(today: today, lastUpdated: lastUpdated)
        let folder = try Fixtures.temporaryFolder()
        var paths: [String] = []
        for name in ["birthdays.ics", "todos.ics"] {
            let url = folder.appendingPathComponent(name)
            try Data(try #require(files[name], "the demo has no \(name)")).write(to: url)
            paths.append(url.path)
        }
        let output = try ProcessRun.run(
            [python, script.path, String(years.lowerBound), String(years.upperBound)] + paths)
        try #require(output.status == 0, "icalendar_dump.py failed: \(output.error)")
        let read = try #require(
            try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: [String: Any]])
        return (Directory(store: site.store, config: site.config), read)
    }

    static func items(_ read: [String: [String: Any]], _ file: String) throws -> [[String: Any]] {
        try #require(read[file]?["items"] as? [[String: Any]], "no items in \(file)")
    }

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func birthdaysAgree() throws {
        let (directory, read) = try Self.demo()
        let events = try Self.items(read, "birthdays.ics")
        let expected = BirthdayCalendar.birthdays(of: directory)
        #expect(expected.count > 40)
        #expect(events.count == expected.count)
        let strings = InterfaceStrings(localeIdentifier: directory.config.locale)
        var leapDays = 0, withoutYear = 0
        for (event, (index, birthday)) in zip(events, expected) {
            let entry = directory.entries[index]
            let name = entry.contact.id
            #expect(event["kind"] as? String == "VEVENT", "\(name)")
            #expect(event["uid"] as? String == entry.contact.id + "-birthday@rolodeck", "\(name)")
            #expect(event["summary"] as? String == strings.birthdayOf(entry.displayName), "\(name)")
            let start = PartialDate(
                year: birthday.year ?? BirthdayCalendar.baseYear, month: birthday.month, day: birthday.day)
            #expect(event["dtstart"] as? String == start.description, "\(name)")
            #expect(event["dtstamp"] as? String == "2026-11-02T00:00:00+00:00", "\(name)")
            // The days the rule gives are the days the page lists.
            let days = Self.years.map { BirthdaySchedule.celebrated(birthday, in: $0).description }
            #expect(event["occurrences"] as? [String] == days, "\(name): \(event["rrule"] ?? "no rule")")
            if birthday.month == 2, birthday.day == 29 { leapDays += 1 }
            if birthday.year == nil { withoutYear += 1 }
        }
        // The demo has both kinds, so both rules are read here.
        #expect(leapDays >= 1)
        #expect(withoutYear >= 1)
    }

    @Test(.enabled(if: unavailable == nil, Comment(rawValue: unavailable ?? "")))
    func todosAgree() throws {
        let (directory, read) = try Self.demo()
        let items = try Self.items(read, "todos.ics")
        #expect(directory.todos.count == 18)
        #expect(items.count == directory.todos.count)
        for (position, (item, entry)) in zip(items, directory.todos).enumerated() {
            let todo = entry.todo
            #expect(item["kind"] as? String == "VTODO", "\(todo.id)")
            #expect(item["uid"] as? String == todo.id)
            #expect(item["summary"] as? String == todo.title, "\(todo.id)")
            #expect(item["status"] as? String == (todo.done ? "COMPLETED" : "NEEDS-ACTION"), "\(todo.id)")
            #expect(item["due"] as? String == todo.due.map { $0.date.description }, "\(todo.id)")
            let priority: Int? =
                switch todo.priority {
                case .high?: 1
                case .medium?: 5
                case .low?: 9
                case nil: nil
                }
            #expect(item["priority"] as? Int == priority, "\(todo.id)")
            #expect(item["categories"] as? [String] == todo.categories, "\(todo.id)")
            #expect(item["description"] as? String == todo.notes.nonEmpty, "\(todo.id)")
            #expect(
                item["relatedTo"] as? String == entry.parent.map { directory.todos[$0].todo.id }, "\(todo.id)"
            )
            #expect(item["sortOrder"] as? String == String(position + 1), "\(todo.id)")
        }
    }
}

/// Runs a process and collects what it printed.
enum ProcessRun {
    static func run(_ arguments: [String]) throws -> (status: Int32, text: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let message = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: text, as: UTF8.self),
            String(decoding: message, as: UTF8.self)
        )
    }
}
