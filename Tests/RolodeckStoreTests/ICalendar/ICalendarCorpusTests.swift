import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore
@testable import RolodeckCore

/// Every file of `../shared/corpora/ics` (todos written by Apple Reminders, Nextcloud Tasks,
/// Thunderbird and test files of other iCalendar libraries) loads, and yields exactly these
/// todos and warnings. A file added to the corpus without an entry here fails
/// `everyCorpusFileHasACase`.
@Suite struct ICalendarCorpusTests {
    struct CorpusCase: CustomTestStringConvertible, Sendable {
        var file: String
        var todos: [String]
        var warnings: [String]
        var testDescription: String { file }

        init(_ file: String, todos: [String], warnings: [String] = []) {
            self.file = file
            self.todos = todos
            self.warnings = warnings
        }
    }

    static let folder = Fixtures.corpora?.appendingPathComponent("ics")
    static let available = folder.map { FileManager.default.fileExists(atPath: $0.path) } ?? false

    @Test(.enabled(if: available, "the iCalendar corpus (../shared/corpora/ics) is not beside the package"),
          arguments: cases)
    func corpusFileYieldsItsTodos(_ testCase: CorpusCase) throws {
        let url = try #require(Self.folder).appendingPathComponent(testCase.file)
        let bytes = Array(try Data(contentsOf: url))
        let (store, diagnostics) = StoreDecoder.decode([.iCalendar(SourceText(path: testCase.file, bytes: bytes))])
        #expect(store.todos.map(StoreDump.todo) == testCase.todos)
        #expect(diagnostics.map(\.description) == testCase.warnings)
    }

    @Test(.enabled(if: available, "the iCalendar corpus (../shared/corpora/ics) is not beside the package"))
    func everyCorpusFileHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: try #require(Self.folder).path)
            .filter { $0.hasSuffix(".ics") }.sorted()
        #expect(files == Self.cases.map(\.file).sorted())
    }

    static let cases: [CorpusCase] = [
        // No SUMMARY (its DTSTART plus DURATION would have made it due 2010-01-05 13:12 UTC).
        CorpusCase("ical4android-duration-no-due.ics",
            todos: [],
            warnings: [
                "ical4android-duration-no-due.ics:4:1: warning: this todo has no SUMMARY; it is skipped",
            ]),
        // A floating DUE (no zone) is shown as written; the VALARM inside is not a todo.
        CorpusCase("ical4android-rfc5545-taxes.ics",
            todos: [
                """
                id: uid4@example.com
                title: Submit Income Taxes
                due: 1998-04-15 00:00
                """,
            ]),
        // The malformed DTSTART "20131009T170000T" is not read: without DURATION it does not matter.
        CorpusCase("ical4android-utf8-cjk.ics",
            todos: [
                """
                id: utf8@ical4android.TaskTest
                title: © äö — üß
                """,
            ]),
        CorpusCase("sabre-vtodo-minimal-valid.ics",
            todos: [],
            warnings: [
                "sabre-vtodo-minimal-valid.ics:4:1: warning: this todo has no SUMMARY; it is skipped",
            ]),
        // STATUS:COMPLETED with COMPLETED and PERCENT-COMPLETE:100.
        CorpusCase("tasksorg-apple-basic_completed.ics",
            todos: [
                """
                id: 31FC53CE-71A0-4AE1-8371-822B8DC4ECD9
                title: Test
                done
                """,
            ]),
        CorpusCase("tasksorg-apple-priority_high.ics",
            todos: [
                """
                id: 44C59110-221F-4E88-B97B-531D3940920B
                title: Test
                priority: high
                """,
            ]),
        CorpusCase("tasksorg-nextcloud-all_day_task.ics",
            todos: [
                """
                id: 838bdba9-f511-4dc7-8686-aaad8728e9bd
                title: All day task
                due: 2021-02-01
                """,
            ]),
        CorpusCase("tasksorg-nextcloud-basic_due_date.ics",
            todos: [
                """
                id: ymv2zg9t2p
                title: Test title
                due: 2018-04-17 17:00
                notes: Test description
                """,
            ]),
        // PRIORITY:9 is low (Nextcloud's one star).
        CorpusCase("tasksorg-nextcloud-priority_1_star.ics",
            todos: [
                """
                id: ymv2zg9t2p
                title: Test
                priority: low
                notes: Test description
                """,
            ]),
        // The parent is in another file of the list; alone, the child stands on its own, with a warning.
        CorpusCase("tasksorg-nextcloud-subtask-related-to.ics",
            todos: [
                """
                id: dfede1b0-435b-4bba-9708-2422e781747c
                title: Child
                """,
            ],
            warnings: [
                "tasksorg-nextcloud-subtask-related-to.ics:10:12: warning: todo \"Child\" is a subtask of \"7daa4a5c-cc76-4ddf-b4f8-b9d3a9cb00e7\", which is not in the store; it is shown as a todo of its own",
            ]),
        // TZID=America/Chicago, found in the time zone database: 14:00 is UTC−5 in April (daylight time).
        CorpusCase("tasksorg-thunderbird-basic_due_date.ics",
            todos: [
                """
                id: 9b63f8c7-5df5-4941-8cbb-f84da524aad1
                title: New Task
                due: 2018-04-17 14:00 UTC-5
                """,
            ]),
        CorpusCase("tasksorg-thunderbird-priority_high.ics",
            todos: [
                """
                id: 6d2313db-56fb-ef4f-a039-3fa8a3fa257b
                title: Test
                priority: high
                """,
            ]),
        // DTSTART alone is not a due date.
        CorpusCase("tasksorg-thunderbird-start_date_time.ics",
            todos: [
                """
                id: bb7afc40-8800-bb44-be1d-48f3c2909580
                title: Start datetime test
                """,
            ]),
    ]
}
