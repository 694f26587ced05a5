import Dispatch
import Synchronization

/// The directory's list rows, handed by the site renderer to the search index it started
/// before making them. A result row shows the display form of every phone number and the
/// language of the name, and a list row has worked out the first number's form and the
/// language already; formatting phone numbers is most of the cost of a result row.
///
/// The index reaches its rows long after the list rows are made (they are made beside its
/// terms), so waiting for them costs nothing in practice.
public final class SearchListRows: Sendable {
    /// The rows, by directory position, as the renderer keeps them.
    struct Rows: Sendable {
        /// The row at a position.
        private let row: @Sendable (Int) -> any SearchListRow

        /// The rows of a list (an array, or one in chunks), looked up in it.
        init<List: RandomAccessCollection & Sendable>(_ rows: List)
        where List.Element: SearchListRow, List.Index == Int {
            row = { rows[$0] }
        }

        /// The row at `index`.
        subscript(index: Int) -> any SearchListRow { row(index) }
    }

    private let rows = Mutex<Rows?>(nil)
    private let handed = DispatchGroup()

    /// Rows to be handed over once.
    public init() {
        handed.enter()
    }

    /// Hands over the rows, one per directory entry, in directory order. They are looked up
    /// where the caller keeps them, not copied: a patched index reads a few of 100,000.
    public func hand<List: RandomAccessCollection & Sendable>(_ rows: List)
    where List.Element: SearchListRow, List.Index == Int {
        self.rows.withLock { $0 = Rows(rows) }
        handed.leave()
    }

    /// The rows; waits until they are handed over.
    var all: Rows {
        handed.wait()
        // Handed over once, before `handed` lets anyone on.
        return rows.withLock { $0! }
    }
}

/// What a contact list row has worked out that a search result row shows as well.
public protocol SearchListRow: AnyObject, Sendable {
    /// The name's language tag when it differs from the page's, else "".
    var lang: String { get }
    /// The organization as the list shows it ("" when hidden or the contact is one).
    var organization: String { get }
    /// The first phone number as the list shows it, when it shows one.
    var firstPhoneDisplay: String? { get }
    /// The name the photo's thumbnail is written under (`photos/<name>-96.webp`), "" when the
    /// list shows none.
    var thumbnailName: String { get }
}
