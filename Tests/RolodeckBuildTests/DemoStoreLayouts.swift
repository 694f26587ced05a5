import Foundation
@testable import RolodeckTestSupport

/// The demo site (`Examples/demo`) with its contacts laid out as a store may also keep them: one
/// JSON file per contact, or a vdir address book of vCard 3.0 files, one card per file.
enum DemoStoreLayouts {
    /// The demo site folder.
    static let demo = Fixtures.packageRoot.appendingPathComponent("Examples/demo")

    /// The demo's contacts, in the order of its `contacts.json`.
    static func contacts() throws -> [[String: Any]] {
        let data = try Data(contentsOf: demo.appendingPathComponent("store/contacts.json"))
        return try JSONSerialization.jsonObject(with: data) as! [[String: Any]]
    }

    /// A record as a file of its own holds it: pretty printed, its keys sorted (so not in the
    /// order `contacts.json` has them).
    static func json(_ record: Any) throws -> Data {
        try JSONSerialization.data(
            withJSONObject: record, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            + Data("\n".utf8)
    }

    /// Copies the demo site to `folder` with its contacts in `store/contacts/<id>.json`, one
    /// object each, read in file-name order; the first `keptInArray` stay in `contacts.json`
    /// (which is removed when none do). Groups and todos stay as they are.
    static func copyWithContactFiles(to folder: URL, keptInArray: Int = 0) throws {
        try FileManager.default.copyItem(at: demo, to: folder)
        let store = folder.appendingPathComponent("store")
        let contacts = try contacts()
        let array = store.appendingPathComponent("contacts.json")
        try FileManager.default.removeItem(at: array)
        if keptInArray > 0 { try json(Array(contacts.prefix(keptInArray))).write(to: array) }
        let files = store.appendingPathComponent("contacts")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        for contact in contacts.dropFirst(keptInArray) {
            let id = contact["id"] as! String
            try json(contact).write(to: files.appendingPathComponent(id + ".json"))
        }
    }

    /// Copies the demo site to `folder` as a vdir: each contact a vCard 3.0 file
    /// `store/book/<id>.vcf` in an address book named "Contacts" by its `displayname`, its
    /// groups as `CATEGORIES` by name (there is no `groups.json`, so the groups are the
    /// categories, and the demo's empty group is gone); the todos stay in `todos.json`, which
    /// links them to the cards' UIDs, and a task list `store/tasks` ("Errands") holds two more.
    static func copyAsVdir(to folder: URL) throws {
        try FileManager.default.copyItem(at: demo, to: folder)
        let store = folder.appendingPathComponent("store")
        let groupsURL = store.appendingPathComponent("groups.json")
        let groups = try JSONSerialization.jsonObject(with: Data(contentsOf: groupsURL)) as! [[String: Any]]
        var groupNames: [String: String] = [:]
        for group in groups { groupNames[group["id"] as! String] = group["name"] as? String }
        try FileManager.default.removeItem(at: groupsURL)
        try FileManager.default.removeItem(at: store.appendingPathComponent("contacts.json"))
        let book = store.appendingPathComponent("book")
        try FileManager.default.createDirectory(at: book, withIntermediateDirectories: true)
        try Data("Contacts\n".utf8).write(to: book.appendingPathComponent("displayname"))
        for contact in try contacts() {
            let id = contact["id"] as! String
            try Data(vCard(contact, groupNames: groupNames).utf8).write(
                to: book.appendingPathComponent(id + ".vcf"))
        }
        let tasks = store.appendingPathComponent("tasks")
        try FileManager.default.createDirectory(at: tasks, withIntermediateDirectories: true)
        try Data("Errands\n".utf8).write(to: tasks.appendingPathComponent("displayname"))
        try Data(todo("buy-stamps", "Buy stamps", order: 1).utf8).write(
            to: tasks.appendingPathComponent("stamps.ics"))
        try Data(todo("return-bottles", "Return the bottles", order: 2, extra: ["PRIORITY:1"]).utf8)
            .write(to: tasks.appendingPathComponent("bottles.ics"))
    }

    /// Copies the demo site to `folder` as one vCard file, as a phone exports every contact:
    /// the vdir's cards one after another in `store/book/all.vcf`, then `fillers` more
    /// contacts (so the file is long enough to be read in pieces and patched by card), with a
    /// UID each or, as Google Contacts and Android phones export them, none.
    static func copyAsOneVCardFile(to folder: URL, fillers: Int, fillerUIDs: Bool = true) throws {
        try copyAsVdir(to: folder)
        let book = folder.appendingPathComponent("store/book")
        var text = ""
        for name in try FileManager.default.contentsOfDirectory(atPath: book.path).sorted()
        where name.hasSuffix(".vcf") {
            text += try String(contentsOf: book.appendingPathComponent(name), encoding: .utf8)
            try FileManager.default.removeItem(at: book.appendingPathComponent(name))
        }
        for number in stride(from: 1, through: fillers, by: 1) {
            let contact: [String: Any] = [
                "id": "filler-\(number)", "givenName": "Fill \(number)", "familyName": "Filler",
                "phones": [["label": "mobile", "value": "+49 151 \(10_000_000 + number)"]],
                "notes": String(
                    repeating: "One of the contacts that make the file as long as a phone's export. ",
                    count: 10),
            ]
            let card = vCard(contact, groupNames: [:])
            text += fillerUIDs ? card : card.replacingOccurrences(of: "UID:filler-\(number)\r\n", with: "")
        }
        try Data(text.utf8).write(to: book.appendingPathComponent("all.vcf"))
    }

    /// A vCard 3.0 card of a demo contact, as a phone's address book exports it: custom labels
    /// as Apple's `X-ABLabel`, text escaped, lines folded at 75 bytes, CRLF line ends.
    static func vCard(_ contact: [String: Any], groupNames: [String: String]) -> String {
        func text(_ key: String) -> String { contact[key] as? String ?? "" }
        func values(_ key: String) -> [[String: String]] { contact[key] as? [[String: String]] ?? [] }
        var lines = ["BEGIN:VCARD", "VERSION:3.0", "PRODID:-//Rolodeck//Tests//EN", "UID:" + text("id")]
        let given = text("givenName")
        let family = text("familyName")
        let organization = text("organization")
        if !given.isEmpty || !family.isEmpty {
            let parts = [family, given, text("additionalNames"), text("salutation"), ""]
            lines.append("N:" + parts.map(escaped).joined(separator: ";"))
        }
        let fullName = [given, family].filter { !$0.isEmpty }.joined(separator: " ")
        lines.append("FN:" + escaped([fullName, organization, text("nickname")].first { !$0.isEmpty } ?? ""))
        for (key, property) in [("nickname", "NICKNAME"), ("organization", "ORG"), ("title", "TITLE")]
        where !text(key).isEmpty {
            lines.append(property + ":" + escaped(text(key)))
        }
        if !text("phoneticGivenName").isEmpty {
            lines.append("X-PHONETIC-FIRST-NAME:" + escaped(text("phoneticGivenName")))
        }
        if !text("phoneticFamilyName").isEmpty {
            lines.append("X-PHONETIC-LAST-NAME:" + escaped(text("phoneticFamilyName")))
        }
        var item = 0
        func labeled(_ property: String, _ label: String?, _ value: String) {
            let known = ["home": "HOME", "work": "WORK", "mobile": "CELL", "fax": "FAX", "main": "MAIN"]
            if let label, let type = known[label] {
                lines.append("\(property);TYPE=\(type):\(value)")
            } else if let label {
                item += 1
                lines.append("item\(item).\(property):\(value)")
                lines.append("item\(item).X-ABLabel:" + escaped(label))
            } else {
                lines.append("\(property):\(value)")
            }
        }
        for email in values("emails") { labeled("EMAIL", email["label"], escaped(email["value"] ?? "")) }
        for phone in values("phones") { labeled("TEL", phone["label"], escaped(phone["value"] ?? "")) }
        for address in values("addresses") {
            let parts = [
                "", "", address["street"], address["city"], address["region"], address["postalCode"],
                address["country"],
            ]
            labeled("ADR", address["label"], parts.map { escaped($0 ?? "") }.joined(separator: ";"))
        }
        for url in values("urls") { labeled("URL", url["label"], url["value"] ?? "") }
        if !text("birthday").isEmpty { lines.append("BDAY:" + text("birthday")) }
        if !text("notes").isEmpty { lines.append("NOTE:" + escaped(text("notes"))) }
        let groups = (contact["groups"] as? [String] ?? []).map { escaped(groupNames[$0] ?? $0) }
        if !groups.isEmpty { lines.append("CATEGORIES:" + groups.joined(separator: ",")) }
        lines.append("END:VCARD")
        return lines.map(folded).joined(separator: "\r\n") + "\r\n"
    }

    /// A vdir task list's `.ics` file of one todo.
    static func todo(_ uid: String, _ summary: String, order: Int, extra: [String] = []) -> String {
        ([
            "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Rolodeck//Tests//EN", "BEGIN:VTODO", "UID:" + uid,
            "SUMMARY:" + escaped(summary), "X-APPLE-SORT-ORDER:\(order)",
        ] + extra + ["END:VTODO", "END:VCALENDAR"])
        .joined(separator: "\r\n") + "\r\n"
    }

    /// A text value with its backslashes, newlines, commas and semicolons escaped.
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case ",": result += "\\,"
            case ";": result += "\\;"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A content line folded as RFC 6350 says: no line longer than 75 bytes, each continuation
    /// starting with a space, never inside a UTF-8 sequence.
    static func folded(_ line: String) -> String {
        var result = ""
        var length = 0
        for scalar in line.unicodeScalars {
            let size = String(scalar).utf8.count
            if length + size > 75 {
                result += "\r\n "
                length = 1
            }
            result.unicodeScalars.append(scalar)
            length += size
        }
        return result
    }
}
