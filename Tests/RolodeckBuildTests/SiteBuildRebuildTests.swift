@testable import RolodeckBuild
@testable import RolodeckTestSupport
@testable import RolodeckPublish
@testable import RolodeckSite
@testable import RolodeckStore
@testable import RolodeckCore
import Foundation
import Synchronization
import Testing

/// The invariant of watch: after every edit, the output an incremental rebuild leaves is byte
/// for byte the output of a whole build of the same input into an empty folder (the manifest
/// included), files it did not need to write keep their modification time, and a bad edit
/// leaves the last good output exactly as it was.
@Suite(.serialized) struct SiteBuildRebuildTests {
    static let generator = Array("rolodeck test".utf8)
    static let today = PartialDate(year: 2026, month: 11, day: 30)

    /// A step of the edit sequence, applied to the site folder.
    struct Step: Sendable {
        /// What the rebuild does: patch the output, publish it whole, fail and leave it, or see
        /// no changed input (a file the build does not read) and do nothing.
        enum Expect: Sendable { case patched, whole, failed, unchanged }
        var label: String
        var expect: Expect
        var today: PartialDate = SiteBuildRebuildTests.today
        /// Whether some page's bytes change (a fix that restores the last good input does not).
        var writes = true
        /// Text of a warning the rebuild reports anew, if it must report one.
        var warning: String? = nil
        /// Beginnings of paths a patch must write a file of: the edit changes what it shows.
        var touches: [String] = []
        /// Beginnings of paths a patch must write no file of: nothing they show changed.
        var untouched: [String] = []
        var edit: @Sendable (SiteFiles) throws -> Void
    }

    /// The paths edits changed, as a watcher's batch names them.
    final class ChangedPaths: Sendable {
        private let paths = Mutex<Set<String>>([])

        func insert(_ path: String) { paths.withLock { _ = $0.insert(path) } }

        /// The paths noted since the last call.
        func take() -> Set<String> {
            paths.withLock { paths in
                defer { paths = [] }
                return paths
            }
        }
    }

    /// The site folder being edited: the demo store, a vdir address book and task list beside it.
    /// Every edit notes what it changed in `changed`.
    struct SiteFiles: Sendable {
        let folder: URL
        let changed = ChangedPaths()

        func url(_ path: String) -> URL { folder.appendingPathComponent(path) }

        /// Notes that the file or folder at `path` changed, as the watcher reports it: by its
        /// absolute path, and only when a build can read it (docs/watch.md, "What is watched").
        func noteChange(_ path: String, isFolder: Bool) {
            let absolute = url(path).standardizedFileURL.path
            let root = folder.standardizedFileURL.path + "/"
            guard absolute.hasPrefix(root) else { return }
            let parts = absolute.dropFirst(root.count).split(separator: "/")
            guard let name = parts.last, !parts.contains(where: { $0.hasPrefix(".") }),
                !name.hasSuffix("~"), !name.hasSuffix(".swp"), !name.hasSuffix(".tmp")
            else { return }
            let lowered = name.lowercased()
            let isRead =
                isFolder
                || (parts.count == 1
                    ? name == "rolodeck.json"
                    : parts.first != "store" || name == "displayname" || (parts.count > 2 && parts[1] == "photos")
                        || [".json", ".vcf", ".vcard", ".ics"].contains { lowered.hasSuffix($0) })
            if isRead { changed.insert(absolute) }
        }

        /// Whether there is a folder at `path`.
        func isFolder(_ path: String) -> Bool {
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: url(path).path, isDirectory: &isFolder)
                && isFolder.boolValue
        }

        func write(_ path: String, _ text: String) throws {
            try write(path, bytes: Array(text.utf8))
        }

        /// Writes `bytes` at `path`, as `write` writes text.
        func write(_ path: String, bytes: [UInt8]) throws {
            // A folder the write makes is reported, and the file, which made no event of its own
            // in a folder not yet watched.
            var folder = ""
            for part in path.split(separator: "/").dropLast() {
                folder += (folder.isEmpty ? "" : "/") + part
                if !FileManager.default.fileExists(atPath: url(folder).path) {
                    noteChange(folder, isFolder: true)
                    break
                }
            }
            try FileManager.default.createDirectory(
                at: url(path).deletingLastPathComponent(),
                withIntermediateDirectories: true)
            try Data(bytes).write(to: url(path))
            noteChange(path, isFolder: false)
        }

        /// Sets the modification time of every file under `folder`, as `touch -d` does.
        func date(folder: String, _ date: Date) throws {
            let root = url(folder)
            for path in try FileManager.default.subpathsOfDirectory(atPath: root.path) {
                let file = root.appendingPathComponent(path)
                guard !isFolder(folder + "/" + path) else { continue }
                try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: file.path)
                noteChange(folder + "/" + path, isFolder: false)
            }
        }
        func read(_ path: String) throws -> String { try String(contentsOf: url(path), encoding: .utf8) }

        func replace(_ path: String, _ old: String, _ new: String) throws {
            let text = try read(path)
            #expect(text.contains(old), "\(path) has no \(old)")
            try write(path, text.replacingOccurrences(of: old, with: new))
        }

        /// Removes a file, or a folder with everything in it.
        func remove(_ path: String) throws {
            if isFolder(path) {
                for inside in try FileManager.default.subpathsOfDirectory(atPath: url(path).path) {
                    noteChange(path + "/" + inside, isFolder: isFolder(path + "/" + inside))
                }
            }
            noteChange(path, isFolder: isFolder(path))
            try FileManager.default.removeItem(at: url(path))
        }

        /// Changes the record with an id in a JSON list file.
        func update(_ path: String, _ id: String, _ change: @escaping (inout [String: Any]) -> Void) throws {
            try records(path) { records in
                let index = records.firstIndex { $0["id"] as? String == id }
                #expect(index != nil, "\(path) has no \(id)")
                if let index { change(&records[index]) }
            }
        }

        /// Changes the record of a JSON file that holds one record.
        func updateRecord(_ path: String, _ change: (inout [String: Any]) -> Void) throws {
            var record = try JSONSerialization.jsonObject(with: Data(contentsOf: url(path))) as! [String: Any]
            change(&record)
            try DemoStoreLayouts.json(record).write(to: url(path))
            noteChange(path, isFolder: false)
        }

        /// Writes a record as a JSON file of its own.
        func writeRecord(_ path: String, _ record: [String: Any]) throws {
            try write(path, String(decoding: try DemoStoreLayouts.json(record), as: UTF8.self))
        }

        /// Renames a file or folder over whatever is at `to`, as `mv` and an editor's save do.
        func move(_ from: String, _ to: String) throws {
            let isFolder = isFolder(from)
            noteChange(from, isFolder: isFolder)
            guard rename(url(from).path, url(to).path) == 0 else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            noteChange(to, isFolder: isFolder)
        }

        /// Saves a file as editors and vdirsyncer do: `edit` changes a copy at `<path>.tmp`, which
        /// is then renamed over the file, and the editor's swap file `.<name>.swp` lies beside it.
        func saveByRename(_ path: String, _ edit: (_ temporary: String) throws -> Void) throws {
            let name = url(path).lastPathComponent
            try write(String(path.dropLast(name.count)) + "." + name + ".swp", "junk")
            try write(path + ".tmp", try read(path))
            try edit(path + ".tmp")
            try move(path + ".tmp", path)
        }

        /// Replaces text in a vCard or iCalendar file: its lines are unfolded first and folded
        /// again after, so the text may span a fold.
        func replaceUnfolded(_ path: String, _ old: String, _ new: String) throws {
            let text = try read(path).replacingOccurrences(of: "\r\n ", with: "")
            #expect(text.contains(old), "\(path) has no \(old)")
            let lines = text.replacingOccurrences(of: old, with: new).components(separatedBy: "\r\n")
            try write(path, lines.map(DemoStoreLayouts.folded).joined(separator: "\r\n"))
        }

        /// Changes the records of a JSON list file.
        func records(_ path: String, _ change: (inout [[String: Any]]) -> Void) throws {
            var records =
                try JSONSerialization.jsonObject(with: Data(contentsOf: url(path))) as! [[String: Any]]
            change(&records)
            let data = try JSONSerialization.data(
                withJSONObject: records, options: [.prettyPrinted, .sortedKeys])
            try data.write(to: url(path))
            noteChange(path, isFolder: false)
        }
    }

    static func card(_ uid: String, _ name: String, extra: [String] = []) -> String {
        (["BEGIN:VCARD", "VERSION:3.0", "FN:\(name)", "N:\(name);;;;", "UID:\(uid)"] + extra + ["END:VCARD"])
            .joined(separator: "\r\n") + "\r\n"
    }

    static let steps: [Step] = [
        Step(label: "a contact's notes", expect: .patched) { site in
            try site.replace(
                "store/contacts.json", "Prefers **phone calls** over email.", "Prefers *letters*.")
        },
        Step(label: "a contact's family name, which moves it to another section", expect: .patched) { site in
            try site.replace(
                "store/contacts.json", #""familyName": "Müller""#, #""familyName": "Zimmermann""#)
        },
        Step(label: "a contact added to a group", expect: .patched) { site in
            try site.records("store/contacts.json") { records in
                records.append([
                    "id": "new-person", "givenName": "Nova", "familyName": "Neu", "groups": ["friends"],
                    "phones": [["label": "mobile", "value": "+49 151 0000 0000"]],
                ])
            }
        },
        Step(label: "a contact's id, which moves its page", expect: .patched) { site in
            try site.update("store/contacts.json", "new-person") { $0["id"] = "nova-neu" }
        },
        Step(label: "a contact removed", expect: .patched) { site in
            try site.records("store/contacts.json") { records in
                records.removeAll { $0["id"] as? String == "nova-neu" }
            }
        },
        Step(label: "two cards of a file each", expect: .patched) { site in
            try site.write("store/contacts/zed-1.json", #"{"id": "Zed Twin", "givenName": "Zed"}"#)
            try site.write("store/contacts/zed-2.json", #"{"id": "Zed Two", "givenName": "Zed"}"#)
        },
        Step(
            label: "the second's id now makes the first's page name: the first's page and search row move",
            expect: .patched
        ) { site in
            try site.write("store/contacts/zed-2.json", #"{"id": "ZED TWIN", "givenName": "Zed"}"#)
        },
        Step(label: "both removed", expect: .patched) { site in
            try site.remove("store/contacts/zed-1.json")
            try site.remove("store/contacts/zed-2.json")
        },
        Step(label: "a group renamed", expect: .patched) { site in
            try site.update("store/groups.json", "friends") { $0["name"] = "Close Friends" }
        },
        Step(
            label: "a group's name saved again decomposed (NFD): the same to a reader, other bytes",
            expect: .patched, touches: ["groups/tennis-gruen-weiss.html"]
        ) { site in
            try site.update("store/groups.json", "tennis-gruen-weiss") {
                $0["name"] = "Tennis-Verein Gru\u{0308}n-Weiß"
            }
            #expect(try site.read("store/groups.json").utf8.contains(0xCC), "the name is not decomposed")
        },
        Step(label: "a group marked private: its page goes, and no member's page names it", expect: .patched) {
            site in
            try site.update("store/groups.json", "family") { $0["private"] = true }
        },
        Step(label: "the group public again", expect: .patched) { site in
            try site.update("store/groups.json", "family") { $0["private"] = false }
        },
        Step(label: "a contact marked private, which takes it out of the site", expect: .whole) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["private"] = true }
        },
        Step(label: "the contact's mark taken away", expect: .whole) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["private"] = nil }
        },
        Step(label: "a new group with no members, then its page", expect: .patched) { site in
            try site.records("store/groups.json") { records in
                records.append(["id": "chess-club", "name": "Chess Club"])
            }
        },
        Step(label: "a todo done and linked to a contact", expect: .patched) { site in
            try site.records("store/todos.json") { records in
                records[1]["done"] = true
                records[1]["contact"] = "juergen-mueller"
            }
        },
        Step(
            label: "the linked contact's Korean nickname: its link on the todo page gets lang=ko",
            expect: .patched, touches: ["todos"]
        ) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["nickname"] = "짱" }
        },
        Step(label: "the linked contact's name, shown on the todo page", expect: .patched) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["givenName"] = "Jörg" }
        },
        Step(
            label: "that name saved again decomposed (NFD): every page that shows it has its bytes",
            expect: .patched, touches: ["contacts/juergen-mueller.", "todos"]
        ) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["givenName"] = "Jo\u{0308}rg" }
        },
        Step(label: "a birthday on 29 February, on the birthday page and in birthdays.ics", expect: .patched) {
            site in
            try site.update("store/contacts.json", "sabine-weiss") { $0["birthday"] = "1972-02-29" }
        },
        Step(
            label: "a phone number of a contact with a birthday: not on the birthday page, nor other groups'",
            expect: .patched,
            touches: ["contacts.vcf", "contacts/sabine-weiss.vcf", "groups/tennis-gruen-weiss.vcf"],
            untouched: ["birthdays", "groups/family", "groups/team-berlin"]
        ) { site in
            try site.update("store/contacts.json", "sabine-weiss") {
                $0["phones"] = [["label": "work", "value": "+49 30 1234 5678"]]
            }
        },
        Step(
            label: "the name of a contact with a birthday, on the birthday page and in birthdays.ics",
            expect: .patched, touches: ["birthdays.ics", "birthdays", "contacts.vcf"]
        ) { site in
            try site.update("store/contacts.json", "sabine-weiss") { $0["givenName"] = "Sabina" }
        },
        Step(label: "a todo's priority and due date, in todos.ics", expect: .patched) { site in
            try site.records("store/todos.json") { records in
                records[0]["priority"] = "low"
                records[0]["due"] = "2026-12-24"
            }
        },
        Step(label: "a vCard address book with a displayname", expect: .patched) { site in
            try site.write("store/book/displayname", "Work\n")
            try site.write("store/book/ann.vcf", card("ann-v", "Ann Vee", extra: ["CATEGORIES:Tennis"]))
            try site.write("store/book/bo.vcf", card("bo-v", "Bo Vee", extra: ["EMAIL:bo@example.com"]))
            try site.write("store/tasks/displayname", "Errands\n")
            try site.write(
                "store/tasks/call.ics",
                """
                BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTODO\r\nUID:call-bo\r\nSUMMARY:Call Bo\r\n\
                END:VTODO\r\nEND:VCALENDAR\r\n
                """)
        },
        Step(label: "a contact's photo, a file in store/photos", expect: .patched) { site in
            try site.write("store/photos/juergen.png", bytes: try Fixtures.photo("face.png"))
            try site.update("store/contacts.json", "juergen-mueller") { $0["photo"] = "photos/juergen.png" }
        },
        Step(
            label: "a photo for a contact with a birthday: its avatar on the birthday page, not the calendar",
            expect: .patched, touches: ["birthdays"], untouched: ["birthdays.ics", "contacts.vcf"]
        ) { site in
            try site.write("store/photos/sabine.png", bytes: try Fixtures.photo("face.png"))
            try site.update("store/contacts.json", "sabine-weiss") { $0["photo"] = "photos/sabine.png" }
        },
        Step(label: "the photo file replaced by another picture: new files, the old ones gone", expect: .patched) {
            site in
            try site.write("store/photos/juergen.png", bytes: try Fixtures.photo("face-gps.jpg"))
        },
        Step(label: "a card's photo, base64 in the vCard", expect: .patched) { site in
            let data = Data(try Fixtures.photo("face.webp")).base64EncodedString()
            try site.write("store/book/pat.vcf", card("pat-v", "Pat Vee", extra: ["PHOTO;ENCODING=b:" + data]))
        },
        Step(label: "the card's photo taken out", expect: .patched) { site in
            try site.write("store/book/pat.vcf", card("pat-v", "Pat Vee"))
        },
        Step(
            label: "the photo file removed: a warning, and the monogram again", expect: .patched,
            warning: "is not a file in the store's photos/ folder"
        ) { site in
            try site.remove("store/photos/juergen.png")
        },
        Step(label: "a card saved by rename, and a task list renamed", expect: .patched) { site in
            try site.write("store/book/.bo.vcf.swp", "junk")
            try site.write("store/book/bo.vcf.tmp", card("bo-v", "Bodil Vee"))
            try site.move("store/book/bo.vcf.tmp", "store/book/bo.vcf")
            try site.write("store/tasks/displayname", "Chores\n")
        },
        Step(label: "a whole address book folder deleted", expect: .patched) { site in
            try site.remove("store/book")
        },
        Step(label: "a site template for todos only", expect: .patched) { site in
            try site.write(
                "Templates/todos.mustache",
                """
                {{<layout}}{{$main}}<h1>{{t.todos}}</h1><ol>{{#todos}}<li>{{title}}</li>{{/todos}}</ol>{{/main}}{{/layout}}
                """)
        },
        Step(label: "the contact list partial, used by the index and group pages", expect: .patched) { site in
            try site.write(
                "Templates/contact-list.mustache",
                """
                <ul>{{#sections}}{{#contacts}}<li><a href="{{href}}">{{name}}</a></li>{{/contacts}}{{/sections}}</ul>
                """)
        },
        Step(label: "a 404 page that shows the contact count, then a contact added", expect: .patched) {
            site in
            try site.write(
                "Templates/not-found.mustache",
                """
                {{<layout}}{{$main}}<h1>{{t.pageNotFound}}</h1><p>{{site.contactCount}}</p>{{/main}}{{/layout}}
                """)
            try site.records("store/contacts.json") { records in
                records.append(["id": "counted", "givenName": "Count", "familyName": "Ed"])
            }
        },
        Step(label: "a contact removed while a template shows the count", expect: .patched) { site in
            try site.records("store/contacts.json") { records in
                records.removeAll { $0["id"] as? String == "counted" }
            }
        },
        Step(label: "a contact page that shows the contact count", expect: .patched) { site in
            try site.write(
                "Templates/contact.mustache",
                "{{<layout}}{{$main}}<h1>{{contact.name}}</h1><p>{{site.contactCount}}</p>{{/main}}{{/layout}}")
        },
        Step(label: "a contact added: every contact page shows the new count", expect: .patched) { site in
            try site.records("store/contacts.json") { records in
                records.append(["id": "counted-again", "givenName": "Count", "familyName": "Again"])
            }
        },
        Step(label: "the contact page that shows the count removed", expect: .patched) { site in
            try site.remove("Templates/contact.mustache")
        },
        Step(label: "a static file added, and the stylesheet overridden", expect: .patched) { site in
            try site.write("Public/img/logo.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
            try site.write("Public/style.css", "body { color: teal }\n")
            // Named with a combining accent, which String's order puts after "caff.txt" and the
            // order of the bytes before it: the manifest must list them as a whole build does.
            try site.write("Public/cafe\u{301}.txt", "decomposed\n")
            try site.write("Public/caff.txt", "plain\n")
        },
        Step(label: "the stylesheet override and the image folder removed", expect: .patched) { site in
            try site.remove("Public/style.css")
            try site.remove("Public/img")
        },
        Step(label: "a broken store file", expect: .failed) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["birthday"] = "1971-02-30" }
        },
        Step(label: "the store fixed, with another edit made meanwhile", expect: .patched) { site in
            try site.update("store/contacts.json", "juergen-mueller") { $0["birthday"] = "1971-03-15" }
            try site.update("store/contacts.json", "sabine-weiss") { $0["title"] = "Hausärztin" }
        },
        Step(label: "a broken template", expect: .failed) { site in
            try site.write("Templates/group.mustache", "{{#members}}unclosed")
        },
        Step(label: "the broken template removed", expect: .patched, writes: false) { site in
            try site.remove("Templates/group.mustache")
        },
        Step(label: "a group template that fails while rendering, with a new group", expect: .failed) {
            site in
            try site.write("Templates/group.mustache", "{{>*group.id}}")
            try site.records("store/groups.json") { records in
                records.append(["id": "go-club", "name": "Go Club"])
            }
        },
        Step(label: "a contact template that fails while rendering", expect: .failed) { site in
            try site.remove("Templates/group.mustache")
            try site.write("Templates/contact.mustache", "{{>*contact.id}}")
        },
        Step(label: "the failing templates removed", expect: .patched) { site in
            try site.remove("Templates/contact.mustache")
        },
        Step(label: "a title edited, then every store file dated 2 January 2020: the footer's date", expect: .whole) {
            site in
            try site.update("store/contacts.json", "sabine-weiss") { $0["title"] = "Ärztin" }
            try site.date(folder: "store", Date(timeIntervalSince1970: 1_577_966_400))
        },
        // Every page, but not the vCards beside them, which are half the files: patched.
        Step(label: "the layout, used by every page", expect: .patched) { site in
            try site.write(
                "Templates/layout.mustache",
                "<!DOCTYPE html><title>{{page.title}}</title>{{$main}}{{/main}}\n")
        },
        Step(label: "the config", expect: .whole) { site in
            try site.replace("rolodeck.json", "Rolodeck Demo Directory", "Our Directory")
        },
        Step(label: "a title with a letter beyond ASCII", expect: .whole) { site in
            try site.replace("rolodeck.json", "Our Directory", "Our Directory \u{00DC}")
        },
        Step(label: "the title saved again decomposed (NFD), the same to a reader", expect: .whole) { site in
            let text = try site.read("rolodeck.json")
            let composed = try #require(text.range(of: "Directory \u{00DC}"))
            try site.write(
                "rolodeck.json", text.replacingCharacters(in: composed, with: "Directory U\u{0308}"))
            #expect(try site.read("rolodeck.json").utf8.contains(0xCC), "the title is not decomposed")
        },
        Step(label: "the phone region, which every phone number's search terms follow", expect: .whole) {
            site in
            try site.replace("rolodeck.json", #""phoneRegion": "KR""#, #""phoneRegion": "DE""#)
        },
        Step(label: "the locale, which the search rows' languages follow", expect: .whole) { site in
            try site.replace("rolodeck.json", #""locale": "en""#, #""locale": "de""#)
        },
        Step(label: "another day", expect: .whole, today: PartialDate(year: 2026, month: 12, day: 1)) { _ in
        },
        Step(
            label: "every contact leaves its groups", expect: .whole,
            today: PartialDate(year: 2026, month: 12, day: 1)
        ) { site in
            try site.records("store/contacts.json") { records in
                for index in records.indices { records[index]["groups"] = [] }
            }
        },
        Step(
            label: "every group removed, and their folder", expect: .patched,
            today: PartialDate(year: 2026, month: 12, day: 1)
        ) { site in
            try site.write("store/groups.json", "[]\n")
        },
    ]

    /// Every file and folder under `root`, files with their bytes.
    static func tree(_ root: URL) throws -> [String: Data?] {
        var result: [String: Data?] = [:]
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(
                url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            let isFolder = try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true
            guard !isFolder else {
                result[relative] = .some(nil)
                continue
            }
            let bytes = try Data(contentsOf: url)
            result[relative] = relative == Publisher.markerName ? ManifestLines.withoutStatuses(bytes) : bytes
        }
        return result
    }

    /// What `rolodeck build` writes for the site into a new folder.
    static func wholeBuild(_ folder: URL, into output: URL, today: PartialDate) throws {
        let build = SiteBuild(folder: folder, displayPath: "site", generator: generator) { _ in output.path }
        let result = build.build(today: today)
        guard case .published = result.outcome else {
            throw BuildFailure(outcome: "\(result.outcome)")
        }
    }

    /// A whole build that did not publish.
    struct BuildFailure: Error {
        var outcome: String
    }

    /// Each rebuild reads the whole store, or (`namingChanges`) is told the paths its step
    /// changed, as watch tells it a batch, and reads only those store files again; and
    /// (`preparing`) what the next save would make first is made before each step, as watch
    /// makes it once no change has come for a moment.
    @Test(arguments: zip([false, true, true], [false, false, true]))
    func everyEditLeavesWhatAWholeBuildWrites(namingChanges: Bool, preparing: Bool) throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: site.folder)
        try Self.check(
            Self.steps, on: site, contacts: 80, patchedAtLeast: 15, namingChanges: namingChanges,
            preparing: preparing)
    }

    /// The same edits on the demo paged by 4: the index, the groups and the todos split into
    /// section and numbered pages, which come and go as contacts move between sections; then
    /// edits that add and remove pages. (The layout's step publishes whole here: a paged site
    /// has more pages than vCards, so a change to every page is more than half the files.)
    @Test func everyEditToAPagedSiteLeavesWhatAWholeBuildWrites() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: site.folder)
        try site.replace("rolodeck.json", #""store": "store""#, #""store": "store", "pageSize": 4"#)
        // After the common steps, which end on another day with every group removed.
        let day = PartialDate(year: 2026, month: 12, day: 1)
        let paging = [
            Step(label: "eight contacts added to one section: three pages of it", expect: .patched, today: day) {
                site in
                try site.records("store/contacts.json") { records in
                    for number in 1...8 {
                        records.append(["id": "yates-\(number)", "givenName": "Yul \(number)", "familyName": "Yates"])
                    }
                }
            },
            Step(
                label: "one of them renamed to the section's front: its pages shift, the others' stay",
                expect: .patched, today: day, untouched: ["sections/a.html", "sections/v.html"]
            ) { site in
                try site.update("store/contacts.json", "yates-8") { $0["familyName"] = "Yaaberg" }
            },
            Step(
                label: "a contact renamed into that section's end: its first page shows the new count",
                expect: .patched, today: day, touches: ["sections/y.html", "sections/v.html"],
                untouched: ["sections/a.html"]
            ) { site in
                try site.update("store/contacts.json", "lena-vogel") { $0["familyName"] = "Yzerman" }
            },
            Step(label: "a section's only contact renamed away: every jump bar", expect: .patched, today: day) {
                site in
                try site.update("store/contacts.json", "wen-xu") { $0["familyName"] = "Yu" }
            },
            Step(label: "contacts added to one section, which grows it by a page", expect: .patched, today: day) {
                site in
                try site.records("store/contacts.json") { records in
                    for number in 1...5 {
                        records.append([
                            "id": "quinn-\(number)", "givenName": "Quinn \(number)", "familyName": "Quast",
                        ])
                    }
                }
            },
            Step(label: "them removed again, and the pages they made", expect: .patched, today: day) { site in
                try site.records("store/contacts.json") { records in
                    records.removeAll { ($0["id"] as? String)?.hasPrefix("quinn-") == true }
                }
            },
            Step(
                label: "a contact's notes, which neither its row nor the search shows: no section page",
                expect: .patched, today: day, touches: ["contacts/sabine-weiss.html"],
                untouched: ["sections/"]
            ) { site in
                try site.update("store/contacts.json", "sabine-weiss") {
                    $0["notes"] = "Moved to **Potsdam**."
                }
            },
            Step(label: "a pager template, on the section and todo pages", expect: .patched, today: day) { site in
                try site.write(
                    "Templates/pager.mustache",
                    "{{#pager}}{{#next}}<a href=\"{{href}}\">{{label}}</a>{{/next}}{{/pager}}\n")
            },
            Step(label: "a larger page size, which makes the index one page", expect: .whole, today: day) { site in
                try site.replace("rolodeck.json", #""pageSize": 4"#, #""pageSize": 1000"#)
            },
            Step(label: "a page size of 1, a page per contact", expect: .whole, today: day) { site in
                try site.replace("rolodeck.json", #""pageSize": 1000"#, #""pageSize": 1"#)
            },
        ]
        let output = scratch.appendingPathComponent("reference-paged")
        try Self.wholeBuild(site.folder, into: output, today: Self.today)
        let files = try Self.tree(output).keys
        #expect(files.contains("sections/a.html"), "\(files.sorted())")
        #expect(files.contains { $0.hasPrefix("groups/") && $0.hasSuffix("/a.html") }, "\(files.sorted())")
        #expect(files.contains("todos-2.html"), "\(files.sorted())")
        #expect(files.contains("birthdays-2.html"), "\(files.sorted())")
        try FileManager.default.removeItem(at: output)
        let common = Self.steps.map { step in
            var step = step
            if step.label == "the layout, used by every page" { step.expect = .whole }
            return step
        }
        try Self.check(common + paging, on: site, contacts: 80, patchedAtLeast: 15)
    }

    /// Builds the site in `site` with `rebuild` into `out` beside it, then applies each step in
    /// turn and checks that the rebuild does what the step expects and leaves byte for byte what
    /// a whole build of the same input writes into an empty folder; then that a rebuild with
    /// nothing changed does nothing. `contacts` is how many the site starts with; at least `patchedAtLeast`
    /// steps must be patched. With `namingChanges`, each rebuild is told the paths its step
    /// changed, as watch tells it a batch, and reads only those store files.
    static func check(
        _ steps: [Step], on site: SiteFiles, contacts: Int, patchedAtLeast: Int, namingChanges: Bool = false,
        preparing: Bool = false
    ) throws {
        let scratch = site.folder.deletingLastPathComponent()
        let output = scratch.appendingPathComponent("out")
        let build = SiteBuild(folder: site.folder, displayPath: "site", generator: Self.generator) {
            _ in output.path
        }
        // Even a small site's `contacts.vcf` is made through a spare, kept beside the output.
        build.spareMinimumSize = 0
        let isSpares = { (path: String) in path.hasPrefix(".out.rolodeck-staging-") && path.contains("-spares") }

        let first = build.rebuild(today: Self.today)
        guard case .published = first.outcome else {
            Issue.record("the first build failed: \(first.outcome)")
            return
        }
        #expect(first.isWhole)
        #expect(first.counts.contacts == contacts)
        var patchedSteps = 0
        // Patched steps after which a spare is kept beside the output.
        var spareSteps = 0
        for (number, step) in steps.enumerated() {
            let label = "step \(number + 1), \(step.label)"
            if preparing { build.prepareForSaves() }
            let before = try FolderSnapshot.of(output)
            try step.edit(site)
            let edited = site.changed.take()
            let result = build.rebuild(today: step.today, changed: namingChanges ? edited : nil)
            // What the rebuild says changed, the edit changed.
            let root = site.folder.standardizedFileURL.path + "/"
            let unchanged = result.changedInputs.filter {
                !edited.contains(root + String($0.dropFirst("site/".count)))
            }
            #expect(unchanged.isEmpty, "\(label): \(unchanged) did not change")
            if step.expect == .unchanged {
                #expect(result.changedInputs.isEmpty, "\(label): changed inputs \(result.changedInputs)")
            } else {
                #expect(
                    !result.changedInputs.isEmpty || step.today != Self.today,
                    "\(label): no changed input reported")
            }
            if let warning = step.warning {
                #expect(
                    result.warnings.contains { $0.description.contains(warning) },
                    "\(label): no warning \"\(warning)\" in \(result.warnings)")
            }
            switch (result.outcome, step.expect) {
            case (.failed, .failed), (.unchanged, .unchanged):
                let after = try FolderSnapshot.of(output)
                #expect(after.mapValues(\.bytes) == before.mapValues(\.bytes), "\(label): the output changed")
                #expect(
                    after.mapValues(\.modified) == before.mapValues(\.modified),
                    "\(label): the output was touched")
                let leftovers = try FileManager.default.subpathsOfDirectory(atPath: scratch.path)
                    .filter {
                        ($0.contains(".rolodeck-new-") || $0.contains(".rolodeck-staging-")
                            || $0 == "out/groups/go-club.html") && !isSpares($0)
                    }
                #expect(leftovers.isEmpty, "\(label): left \(leftovers)")
                continue
            case (.published, .patched):
                #expect(!result.isWhole, "\(label): published whole")
                patchedSteps += 1
                if try FileManager.default.contentsOfDirectory(atPath: scratch.path).contains(where: isSpares) {
                    spareSteps += 1
                }
            case (.published, .whole):
                #expect(result.isWhole, "\(label): patched")
            default:
                Issue.record("\(label): \(result.outcome), expected \(step.expect)")
                continue
            }
            let reference = scratch.appendingPathComponent("reference-\(number)")
            try Self.wholeBuild(site.folder, into: reference, today: step.today)
            let watched = try Self.tree(output)
            let built = try Self.tree(reference)
            #expect(
                watched.keys.contains("groups") == built.keys.contains("groups"),
                "\(label): the groups folder")
            #expect(
                Set(watched.keys) == Set(built.keys),
                "\(label): \(Set(watched.keys).symmetricDifference(built.keys))")
            for (path, bytes) in built where watched[path] != bytes {
                Issue.record("\(label): \(path) differs from a whole build")
            }
            guard !result.isWhole else { continue }
            // Files the rebuild says it did not write are untouched.
            let after = try FolderSnapshot.of(output)
            let changed = Set(result.changedFiles)
            for (path, old) in before where path != Publisher.markerName && !changed.contains(path) {
                #expect(after[path]?.modified == old.modified, "\(label): \(path) was rewritten")
            }
            #expect(changed.isEmpty != step.writes, "\(label): \(changed.count) files written")
            for start in step.touches {
                #expect(changed.contains { $0.hasPrefix(start) }, "\(label): no \(start)… written")
            }
            for start in step.untouched {
                let written = changed.filter { $0.hasPrefix(start) }
                #expect(written.isEmpty, "\(label): \(written.sorted()) written")
            }
        }
        #expect(patchedSteps >= patchedAtLeast)
        // An unchanged input is not rebuilt.
        let again = build.rebuild(today: steps.last!.today, changed: namingChanges ? [] : nil)
        guard case .unchanged = again.outcome else {
            Issue.record("a rebuild with nothing changed did \(again.outcome)")
            return
        }
        // The spares were used, and go when the watch stops.
        #expect(spareSteps > 0)
        build.stopRebuilding()
        let left = try FileManager.default.contentsOfDirectory(atPath: scratch.path)
        #expect(!left.contains(where: isSpares), "\(left)")
    }
}

extension SiteBuildRebuildTests {
    /// A watch whose first build finds the output up to date renders nothing, so no vCard or
    /// birthday event is made; they are made after it, off its path, and kept for the first
    /// save, which then takes them from the caches instead of making every one.
    @Test func cardsAndBirthdaysAreMadeAfterAFirstBuildThatFoundTheOutputUpToDate() throws {
        let scratch = try Fixtures.temporaryFolder()
        let folder = scratch.appendingPathComponent("site")
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: folder)
        let output = scratch.appendingPathComponent("out")
        try Self.wholeBuild(folder, into: output, today: Self.today)
        let before = try FolderSnapshot.of(output)
        let build = SiteBuild(folder: folder, displayPath: "site", generator: Self.generator) { _ in
            output.path
        }
        guard case .published(let report) = build.rebuild(today: Self.today).outcome else {
            Issue.record("the first build did not publish")
            return
        }
        #expect(report.written == 0)
        #expect(try FolderSnapshot.of(output).mapValues(\.modified) == before.mapValues(\.modified))
        SiteBuild.cardMaker.sync {}
        let state = try #require(build.watched)
        let snapshot = try #require(state.baseline?.snapshot)
        let writer = VCardWriter(revisionDate: snapshot.lastUpdated ?? snapshot.today)
        let cards = try #require(
            state.cardCache.take(
                revision: writer.revision, config: snapshot.config, ticket: state.cardCache.ticket()))
        #expect(cards.bytes.count == snapshot.directory.entries.count)
        #expect(cards.bytes.contains { !$0.isEmpty })
        let events = try #require(state.birthdayEvents.kept)
        let birthdays = snapshot.directory.entries.count { $0.contact.birthday != nil }
        #expect(birthdays > 0)
        #expect(events.bytes.count == birthdays)
        #expect(events.ids.allSatisfy { id in snapshot.directory.entries.contains { $0.contact.id == id } })
        // What the watch readies for the first save's memory (`FreedMemory.warm`) is sized by
        // these: the contacts listed and the largest file read.
        #expect(build.publishedContactCount == snapshot.directory.entries.count)
        let sizes = try FileManager.default.subpathsOfDirectory(atPath: folder.path).compactMap { path in
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[.size]
                as? Int
        }
        #expect(build.largestInputFileSize > 0)
        #expect(sizes.contains(build.largestInputFileSize))
        let contacts = try Data(contentsOf: folder.appendingPathComponent("store/contacts.json"))
        #expect(build.largestInputFileSize >= contacts.count)
    }

    @Test func aCancelledRebuildLeavesTheOutputAndNoTemporaryFiles() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: site.folder)
        let output = scratch.appendingPathComponent("out")
        let build = SiteBuild(folder: site.folder, displayPath: "site", generator: Self.generator) {
            _ in output.path
        }
        // Cancelled during the first, whole build: nothing is published.
        let calls = Mutex(0)
        let cancelLate: @Sendable () -> Bool = {
            calls.withLock {
                $0 += 1; return $0 > 20
            }
        }
        guard case .cancelled = build.rebuild(today: Self.today, isCancelled: cancelLate).outcome else {
            Issue.record("the first build was not cancelled")
            return
        }
        #expect(!FileManager.default.fileExists(atPath: output.path))
        guard case .published = build.rebuild(today: Self.today).outcome else {
            Issue.record("the build after a cancelled one failed")
            return
        }
        // Cancelled while patching: the output stays as it was.
        let before = try FolderSnapshot.of(output)
        try site.replace("store/groups.json", "\"Friends\"", "\"Good Friends\"")
        calls.withLock { $0 = 0 }
        let result = build.rebuild(
            today: Self.today,
            isCancelled: {
                calls.withLock {
                    $0 += 1; return $0 > 3
                }
            })
        guard case .cancelled = result.outcome else {
            Issue.record("the patch was not cancelled: \(result.outcome)")
            return
        }
        let after = try FolderSnapshot.of(output)
        #expect(after.mapValues(\.bytes) == before.mapValues(\.bytes))
        #expect(after.mapValues(\.modified) == before.mapValues(\.modified))
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: scratch.path)
            .filter { $0.contains(".rolodeck-new-") || $0.contains(".rolodeck-staging-") }
        #expect(leftovers.isEmpty, "left \(leftovers)")
        // The same input is rebuilt next time, not taken as done, and patched: the cancelled
        // rebuild kept what the output holds.
        let next = build.rebuild(today: Self.today)
        guard case .published = next.outcome else {
            Issue.record("the rebuild after a cancelled one did not publish")
            return
        }
        #expect(!next.isWhole, "the rebuild after a cancelled patch published the whole site")
        #expect(
            try String(contentsOf: output.appendingPathComponent("groups.html"), encoding: .utf8).contains(
                "Good Friends"))
    }
}

/// Snapshots of a folder, as the CLI tests take them.
enum FolderSnapshot {
    static func of(_ root: URL) throws -> [String: (bytes: Data, modified: Date)] {
        var result: [String: (Data, Date)] = [:]
        let keys: [URLResourceKey] = [.isRegularFileKey, .contentModificationDateKey]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: keys)
        while let url = enumerator?.nextObject() as? URL {
            let values = try url.resourceValues(forKeys: Set(keys))
            guard values.isRegularFile == true else { continue }
            let relative = String(
                url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            result[relative] = (try Data(contentsOf: url), values.contentModificationDate ?? .distantPast)
        }
        return result
    }
}
