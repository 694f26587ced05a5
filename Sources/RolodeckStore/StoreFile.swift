import RolodeckCore

/// One file of the store, read into memory: which records it holds and its bytes.
public struct StoreFile: Sendable {
    /// How the records are laid out in the file.
    public enum Layout: Sendable {
        /// `contacts.json`: an array of records.
        case list
        /// `contacts/<name>.json`: a single record (an array is accepted too).
        case single
        /// A `.vcf` file: any number of vCards, contacts and group cards.
        case vCard
        /// An `.ics` file: an iCalendar object whose todos (`VTODO`) are read.
        case iCalendar
        /// A file in the store's `photos/` folder: an image a contact's `photo` may name.
        case photo
    }

    /// The kind of record in the file (contacts for vCard, todos for iCalendar).
    var kind: RecordKind
    /// How the records are laid out.
    public var layout: Layout
    /// The bytes and the path used in messages.
    public var source: SourceText
    /// The name of the vdir collection (address book or task list) the file is in, from its
    /// `displayname` file or else the folder's name; "" outside a collection.
    public var collection: String
    /// The file's path inside the store (`photos/ada.jpg`), by which a contact names a photo;
    /// "" for the other files, which nothing names.
    public var storePath = ""

    /// Creates a store file.
    public init(kind: RecordKind, layout: Layout, source: SourceText, collection: String = "") {
        self.kind = kind
        self.layout = layout
        self.source = source
        self.collection = collection
    }

    /// A vCard file.
    public static func vCard(_ source: SourceText, collection: String = "") -> StoreFile {
        StoreFile(kind: .contact, layout: .vCard, source: source, collection: collection)
    }

    /// A photo file at `storePath` inside the store.
    public static func photo(_ source: SourceText, storePath: String) -> StoreFile {
        var file = StoreFile(kind: .contact, layout: .photo, source: source)
        file.storePath = storePath
        return file
    }

    /// An iCalendar file.
    public static func iCalendar(_ source: SourceText, collection: String = "") -> StoreFile {
        StoreFile(kind: .todo, layout: .iCalendar, source: source, collection: collection)
    }
}
