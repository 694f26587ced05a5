/// One file of the store, read into memory: which records it holds and its bytes.
public struct StoreFile: Sendable {
    /// How the records are laid out in the file.
    public enum Layout: Sendable {
        /// `contacts.json`: an array of records.
        case list
        /// `contacts/<name>.json`: a single record (an array is accepted too).
        case single
    }

    /// The kind of record in the file.
    public var kind: StoreIssue.RecordKind
    /// How the records are laid out.
    public var layout: Layout
    /// The bytes and the path used in messages.
    public var source: SourceText

    /// Creates a store file.
    public init(kind: StoreIssue.RecordKind, layout: Layout, source: SourceText) {
        self.kind = kind
        self.layout = layout
        self.source = source
    }
}
