import Dispatch
import Synchronization

/// The directory's list rows, handed by the site renderer to the search index it started
/// before making them. A result row shows the display form of every phone number and the
/// language of the name, and a list row has worked out the first number's form and the
/// language already; formatting phone numbers is most of the cost of a result row.
///
/// The index reaches its rows long after the list rows are made (they are made beside its
/// terms), so waiting for them costs nothing in practice.
final class SearchListRows: Sendable {
    private let rows = Mutex<[RowData]?>(nil)
    private let handed = DispatchGroup()

    /// Rows to be handed over once.
    init() {
        handed.enter()
    }

    /// Hands over the rows, one per directory entry, in directory order.
    func hand(_ rows: [RowData]) {
        self.rows.withLock { $0 = rows }
        handed.leave()
    }

    /// The rows; waits until they are handed over.
    var all: [RowData] {
        handed.wait()
        return rows.withLock { $0 ?? [] }
    }
}
