@testable import RolodeckCore

/// Records as short text, one field per line, so a test compares a whole contact or todo with
/// one literal and a failure shows which field differs. Empty fields are left out.
enum StoreDump {
    /// A contact; notes longer than `notesLimit` characters are cut, with `…`.
    static func contact(_ contact: Contact, notesLimit: Int = .max) -> String {
        var lines = ["id: \(contact.id)"]
        func add(_ name: String, _ value: String) {
            if !value.isEmpty { lines.append("\(name): \(escaped(value))") }
        }
        add("given", contact.givenName)
        add("family", contact.familyName)
        add("additional", contact.additionalNames)
        add("salutation", contact.salutation)
        add("suffix", contact.suffix)
        add("nickname", contact.nickname)
        add("phonetic given", contact.phoneticGivenName)
        add("phonetic family", contact.phoneticFamilyName)
        add("sort given", contact.sortGivenName)
        add("sort family", contact.sortFamilyName)
        add("organization", contact.organization)
        add("title", contact.title)
        for phone in contact.phones { add("phone", labeled(phone)) }
        for email in contact.emails { add("email", labeled(email)) }
        for address in contact.addresses {
            let parts = [("street", address.street), ("code", address.postalCode), ("city", address.city),
                         ("region", address.region), ("country", address.country)]
            let text = parts.filter { !$0.1.isEmpty }.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")
            add("address", (address.label.isEmpty ? "" : "(\(address.label)) ") + text)
        }
        for url in contact.urls { add("url", labeled(url)) }
        add("birthday", contact.birthday?.description ?? "")
        add("geo", contact.geo?.uri ?? "")
        add("groups", contact.groupIDs.joined(separator: ", "))
        add("class", contact.classification ?? "")
        add("notes", contact.notes.count > notesLimit ? contact.notes.prefix(notesLimit) + "…" : contact.notes)
        return lines.joined(separator: "\n")
    }

    static func todo(_ todo: Todo) -> String {
        var lines = ["id: \(todo.id)", "title: \(escaped(todo.title))"]
        func add(_ name: String, _ value: String) {
            if !value.isEmpty { lines.append("\(name): \(escaped(value))") }
        }
        if todo.done { lines.append("done") }
        if let due = todo.due {
            var text = due.date.description
            if let hour = due.hour, let minute = due.minute {
                text += " " + (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
            }
            if let offset = due.utcOffset { text += " UTC\(offset < 0 ? "-" : "+")\(abs(offset) / 3600)" + (abs(offset) % 3600 == 0 ? "" : ":\(abs(offset) % 3600 / 60)") }
            add("due", text)
        }
        add("priority", todo.priority?.rawValue ?? "")
        add("categories", todo.categories.joined(separator: ", "))
        add("parent", todo.parentID ?? "")
        add("list", todo.list)
        add("contact", todo.contactID ?? "")
        add("class", todo.classification ?? "")
        add("notes", todo.notes)
        return lines.joined(separator: "\n")
    }

    static func group(_ group: Group) -> String {
        "\(group.id): \(escaped(group.name))" + (group.notes.isEmpty ? "" : " (\(escaped(group.notes)))")
    }

    private static func labeled(_ value: LabeledValue) -> String {
        (value.label.isEmpty ? "" : "(\(value.label)) ") + value.value
    }

    /// Line breaks as `⏎`, so each field stays on one line.
    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: "⏎")
    }
}
