import Foundation
import Testing
@testable import RolodeckCore
@testable import RolodeckPlan
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckTestSupport

/// `todos.ics` read back by Rolodeck's own iCalendar reader gives the same todos, in the same
/// order: for the demo's todos and for every todo of the iCalendar corpus.
@Suite struct TodoCalendarTests {
    static let stamp = PartialDate(year: 2026, month: 5, day: 1)
    static let corpus = Fixtures.corpora?.appendingPathComponent("ics")
    static let corpusMissing: String? = {
        guard let corpus, FileManager.default.fileExists(atPath: corpus.path) else {
            return "the iCalendar corpus (../shared/corpora/ics) is not beside the package: skipped"
        }
        return nil
    }()

    /// What a todo is, as the reader can give it back: every field but the task list, which a
    /// todo takes from the vdir collection its file is in, not from the file.
    struct Reading: Equatable, CustomStringConvertible {
        var id, title: String
        var done: Bool
        var due: DueDate?
        var priority: Todo.Priority?
        var notes: String
        var categories: [String]
        var parentID: String?
        var classification: String?

        init(_ todo: Todo) {
            (id, title, done, due, priority) = (todo.id, todo.title, todo.done, todo.due, todo.priority)
            // The reader trims a description, as it does every one it reads.
            (notes, categories, parentID) = (todo.notes.trimmingWhitespace, todo.categories, todo.parentID)
            classification = todo.classification
        }

        var description: String {
            "\(id) \"\(title)\" done=\(done) due=\(due.map { "\($0)" } ?? "-") \(priority?.rawValue ?? "-") "
                + "notes=\(notes.debugDescription) \(categories) parent=\(parentID ?? "-")"
                + " class=\(classification ?? "-")"
        }
    }

    /// The todos of `directory`, written to `todos.ics` and read back, each side in the
    /// directory's order.
    static func roundTrip(_ directory: Directory) throws -> (
        before: [Reading], after: [Reading], bytes: [UInt8]
    ) {
        let bytes = TodoCalendar.bytes(directory: directory, name: "Todos", stamp: stamp)
        let (store, diagnostics) = StoreDecoder.decode([
            .iCalendar(SourceText(path: "todos.ics", bytes: bytes))
        ])
        #expect(diagnostics.isEmpty, "reading todos.ics back: \(diagnostics)")
        let again = Directory(store: store, config: directory.config)
        return (directory.todos.map { Reading($0.todo) }, again.todos.map { Reading($0.todo) }, bytes)
    }

    @Test func theDemosTodosComeBackTheSame() throws {
        let reader = SiteReader(
            folder: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), displayPath: "")
        let site = try Site.load(try reader.read().input)
        let directory = Directory(store: site.store, config: site.config)
        let (before, after, _) = try Self.roundTrip(directory)
        #expect(before.count == 18)
        #expect(after == before)
    }

    @Test(.enabled(if: corpusMissing == nil, Comment(rawValue: corpusMissing ?? "")))
    func everyCorpusTodoComesBackTheSame() throws {
        let folder = try #require(Self.corpus)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".ics")
        }.sorted()
        #expect(files.count >= 10)
        var total = 0
        for file in files {
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            let (store, _) = StoreDecoder.decode([.iCalendar(SourceText(path: file, bytes: bytes))])
            let directory = Directory(store: store, config: SiteConfig())
            let (before, after, _) = try Self.roundTrip(directory)
            total += before.count
            #expect(after == before, "\(file)")
        }
        // Two corpus files hold no todo Rolodeck shows (no SUMMARY); the rest have one or more.
        #expect(total >= files.count - 2, "the corpus todos were read")
    }

    @Test func timesKeepTheirZone() throws {
        func todo(_ id: String, _ due: DueDate) -> Todo {
            var todo = Todo(id: id, title: id)
            todo.due = due
            return todo
        }
        let day = PartialDate(year: 2026, month: 6, day: 1)
        let store = Store(todos: [
            todo("floating", DueDate(date: day, hour: 9, minute: 30)),
            todo("utc", DueDate(date: day, hour: 9, minute: 30, utcOffset: 0)),
            todo("berlin", DueDate(date: day, hour: 9, minute: 30, utcOffset: 7200)),
            todo("newfoundland", DueDate(date: day, hour: 9, minute: 30, utcOffset: -9000)),
            todo("day", DueDate(date: day)),
        ])
        let (before, after, bytes) = try Self.roundTrip(Directory(store: store, config: SiteConfig()))
        #expect(after == before)
        let text = String(decoding: bytes, as: UTF8.self)
        for line in [
            "DUE:20260601T093000\r\n", "DUE:20260601T093000Z\r\n", "DUE;TZID=UTC+0200:20260601T093000\r\n",
            "DUE;TZID=UTC-0230:20260601T093000\r\n", "DUE;VALUE=DATE:20260601\r\n", "TZOFFSETTO:-0230\r\n",
        ] {
            #expect(text.contains(line), "\(line.debugDescription) missing")
        }
    }

    @Test func statusPriorityOrderAndParentAreWritten() throws {
        var parent = Todo(id: "p", title: "Plan, then; do")
        parent.priority = .medium
        var child = Todo(id: "c", title: "Child")
        child.done = true
        child.parentID = "p"
        child.priority = .low
        child.classification = "CONFIDENTIAL"
        let text = String(
            decoding: TodoCalendar.bytes(
                directory: Directory(store: Store(todos: [parent, child]), config: SiteConfig()),
                name: "Todos", stamp: Self.stamp),
            as: UTF8.self)
        let expected = """
            BEGIN:VTODO\r\nUID:p\r\nDTSTAMP:20260501T000000Z\r\nSUMMARY:Plan\\, then\\; do\r\nSTATUS:NEEDS-ACTION\r
            PRIORITY:5\r\nX-APPLE-SORT-ORDER:1\r\nEND:VTODO\r\nBEGIN:VTODO\r\nUID:c\r\nDTSTAMP:20260501T000000Z\r
            SUMMARY:Child\r\nSTATUS:COMPLETED\r\nPRIORITY:9\r\nRELATED-TO:p\r\nCLASS:CONFIDENTIAL\r
            X-APPLE-SORT-ORDER:2\r\nEND:VTODO\r\n
            """
        #expect(
            text.contains(
                expected.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(
                    of: "\n", with: "\r\n")))
    }
}
