import RolodeckCore

/// The kinds of record a store holds, as messages name them.
public enum RecordKind: String, Sendable, Equatable {
    case contact, group, todo, salutation
}

/// A problem with the store's contents; its wording lives in one place, `message`.
struct StoreIssue: Sendable, Equatable {
    /// Everything that can be wrong with a store.
    enum Reason: Sendable, Equatable {
        case invalidUTF8(byte: UInt8)
        case syntax(JSONSyntaxError)
        case wrongTopLevel(RecordKind, found: String, expected: String)
        case wrongType(field: String, expected: String, found: String)
        case notAnObject(RecordKind, found: String)
        case missingID(RecordKind)
        case emptyID(RecordKind)
        case duplicateID(RecordKind, id: String, first: SourceLocation)
        case duplicateKey(String, first: SourceLocation)
        case noName(contactID: String)
        case missingField(RecordKind, id: String, field: String)
        case missingValue(field: String)
        case unknownGroup(contactID: String, groupID: String, suggestion: String?)
        case unknownContact(todoID: String, contactID: String)
        case unknownParent(todoID: String, parentID: String)
        case unknownSalutation(contactID: String, salutationID: String, suggestion: String?)
        case salutationWithoutID
        case subtaskCycle(todoID: String)
        case invalidDate(field: String, text: String, detail: String?)
        case invalidPriority(String)
        case invalidAge(String)
        case ageBesideBirthday(contactID: String)
        case unknownField(RecordKind?, field: String, suggestion: String?)
        case unknownSetting(String, suggestion: String?, known: [String])
        case repeatedGroup(contactID: String, groupID: String)
        case noStore(path: String)
    }

    /// What is wrong.
    var reason: Reason

    /// Creates an issue.
    init(_ reason: Reason) {
        self.reason = reason
    }

    /// The field that keeps a record off the site; an unknown field that may mean it is an error.
    static let privateField = "private"

    /// Whether the issue stops the build.
    var severity: Diagnostic.Severity {
        switch reason {
        // A record meant to be private would be published: the slip stops the build, as a
        // misspelt hidden contact's id does.
        case .unknownField(_, _, let suggestion) where suggestion == Self.privateField: return .error
        // A group deleted while contacts still name it is left out of them: deleting a group
        // is one tap in a groups app, editing every member is not.
        case .unknownField, .repeatedGroup, .unknownGroup, .ageBesideBirthday: return .warning
        default: return .error
        }
    }

    /// The message the user reads.
    var message: String {
        switch reason {
        case .invalidUTF8(let byte):
            return "invalid UTF-8 (byte 0x\(String(byte, radix: 16, uppercase: true))); "
                + "the store must be saved as UTF-8"
        case .syntax(let error):
            return error.message
        case .wrongTopLevel(let kind, let found, let expected):
            return "expected \(expected) of \(kind.rawValue)s here, found \(found)"
        case .wrongType(let field, let expected, let found):
            return "\"\(field)\" must be \(expected), not \(found)"
        case .notAnObject(let kind, let found):
            return "each \(kind.rawValue) must be an object, not \(found)"
        case .missingID(let kind):
            return "this \(kind.rawValue) has no \"id\"; every \(kind.rawValue) needs a unique id"
        case .emptyID(let kind):
            return "the \(kind.rawValue)'s \"id\" is empty; every \(kind.rawValue) needs a unique id"
        case .duplicateID(let kind, let id, let first):
            return "duplicate \(kind.rawValue) id \"\(id)\"; it is already used at \(first)"
        case .duplicateKey(let key, let first):
            return "\"\(key)\" appears twice in this object; the first is at \(first)"
        case .noName(let id):
            return "contact \"\(id)\" has no name; give at least one of givenName, familyName, "
                + "nickname or organization"
        case .missingField(let kind, let id, let field):
            return "\(kind.rawValue) \"\(id)\" has no \"\(field)\""
        case .missingValue(let field):
            return "this entry of \"\(field)\" has no \"value\""
        case .unknownGroup(let contactID, let groupID, let suggestion):
            let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
            return "contact \"\(contactID)\" is left out of group \"\(groupID)\", which does not exist\(hint)"
        case .unknownContact(let todoID, let contactID):
            return "todo \"\(todoID)\" refers to contact \"\(contactID)\", which does not exist"
        case .unknownParent(let todoID, let parentID):
            return "todo \"\(todoID)\" is a subtask of \"\(parentID)\", which does not exist"
        case .unknownSalutation(let contactID, let salutationID, let suggestion):
            let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
            return "contact \"\(contactID)\" names salutation \"\(salutationID)\", which does not exist\(hint)"
        case .salutationWithoutID:
            return "this salutation names no \"id\"; write the salutation as text (\"Frau\"), or name "
                + "one of the store's salutations by its id ({\"id\": \"frau\"})"
        case .subtaskCycle(let todoID):
            return "todo \"\(todoID)\" is, through \"parent\", a subtask of itself"
        case .invalidDate(let field, let text, let detail):
            let format = field == "due"
                ? "write YYYY-MM-DD or YYYY-MM-DDTHH:MM" : "write YYYY-MM-DD, or --MM-DD when the year is unknown"
            if let detail { return "\(field) \"\(text)\" is not a date: \(detail)" }
            return "\(field) \"\(text)\" is not a date; \(format)"
        case .invalidPriority(let text):
            return "priority \(text) is not one of \"high\", \"medium\", \"low\" or a number from 0 to 9"
        case .invalidAge(let text):
            return "age \(text) is not a whole number from 0 to \(ContactFields.oldestAge)"
        case .ageBesideBirthday(let contactID):
            return "contact \"\(contactID)\" has a birthday with a year, which gives the age; \"age\" is ignored"
        case .unknownField(let kind, let field, let suggestion):
            let owner = kind.map { " of a \($0.rawValue)" } ?? ""
            var hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? "; it is ignored"
            if suggestion == Self.privateField {
                hint += " (the \(kind?.rawValue ?? "record") would be published)"
            }
            return "unknown field \"\(field)\"\(owner)\(hint)"
        case .unknownSetting(let key, let suggestion, let known):
            if let suggestion { return "unknown setting \"\(key)\"; did you mean \"\(suggestion)\"?" }
            return "unknown setting \"\(key)\"; the settings are " + known.joined(separator: ", ")
        case .repeatedGroup(let contactID, let groupID):
            return "contact \"\(contactID)\" lists group \"\(groupID)\" more than once"
        case .noStore(let path):
            return "no store found in \(path): expected contacts.json (or a contacts/ folder), "
                + "groups.json and todos.json, or vCard (.vcf) and iCalendar (.ics) files"
        }
    }
}
