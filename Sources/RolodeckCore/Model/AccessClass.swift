/// What a record's access classification (vCard 3.0's and iCalendar's `CLASS`) says about
/// publishing it. Address books and task apps write it when the user marks an entry private:
/// KAddressBook's and Evolution's "Private" and "Confidential", Outlook's private flag,
/// Thunderbird's privacy of a task.
public enum AccessClass {
    /// Whether `classification` (in capitals, as a record holds it) marks the record private:
    /// anything but `PUBLIC`, or none. iCalendar (RFC 5545, 3.8.1.3) says a value an application
    /// does not know is treated as `PRIVATE`; a vCard's is treated the same way.
    public static func isPrivate(_ classification: String?) -> Bool {
        guard let classification else { return false }
        return classification != "PUBLIC"
    }
}

/// The contacts, groups and todos a site leaves out because their app marks them private.
public struct PrivateRecords: Sendable, Equatable {
    /// Contacts left out as private that the config does not hide by id as well.
    public var contacts = 0
    /// Groups left out as private.
    public var groups = 0
    /// Todos left out as private, or as the subtasks of one.
    public var todos = 0

    /// `contacts`, `groups` and `todos` left out; none by default.
    public init(contacts: Int = 0, groups: Int = 0, todos: Int = 0) {
        self.contacts = contacts
        self.groups = groups
        self.todos = todos
    }
}
