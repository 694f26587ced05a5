import Foundation
@testable import RolodeckTestSupport

/// The demo site (`Examples/demo`) with its contacts laid out as a store may also keep them: one
/// JSON file per contact.
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
}
