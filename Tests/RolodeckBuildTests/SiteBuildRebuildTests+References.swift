import Foundation
import Testing
@testable import RolodeckTestSupport

/// The invariant of watch when what a contact refers to changes in another file: a group
/// deleted while contacts still name it (they are left out of it, with a warning), and
/// restored; a groups file that does not parse, and fixed; salutation records added, named,
/// edited, moved to a file of their own, removed while named, and restored.
extension SiteBuildRebuildTests {
    static let referenceSteps: [Step] = [
        Step(
            label: "a group deleted while its members still name it", expect: .patched,
            warning: #"contact "ayse-oeztuerk" is left out of group "friends", which does not exist"#
        ) { site in
            try site.records("store/groups.json") { records in
                records.removeAll { $0["id"] as? String == "friends" }
            }
        },
        Step(label: "a contact edited while its group is gone", expect: .patched) { site in
            try site.update("store/contacts.json", "ayse-oeztuerk") { $0["title"] = "Architektin" }
        },
        Step(label: "the group restored", expect: .patched) { site in
            try site.records("store/groups.json") { records in
                records.insert(["id": "friends", "name": "Friends"], at: 1)
            }
        },
        Step(label: "a groups file that does not parse", expect: .failed) { site in
            try site.replace("store/groups.json", #""name" : "Friends""#, #""name" : "#)
        },
        Step(label: "the groups file fixed, another group renamed meanwhile", expect: .patched) { site in
            try site.replace("store/groups.json", "\"name\" : \n", "\"name\" : \"Friends\"\n")
            try site.update("store/groups.json", "family") { $0["name"] = "Familie" }
        },
        Step(label: "salutation records, named by two contacts", expect: .patched) { site in
            try site.write(
                "store/salutations.json",
                #"[{"id": "herr", "text": "Hr."}, {"id": "frau", "text": "Fr."}]"#)
            try site.update("store/contacts.json", "juergen-mueller") { $0["salutation"] = ["id": "herr"] }
            try site.update("store/contacts.json", "sabine-weiss") { $0["salutation"] = ["id": "frau"] }
        },
        Step(label: "a salutation record's text", expect: .patched) { site in
            try site.replace("store/salutations.json", #""Hr.""#, #""Herr Dipl.-Ing.""#)
        },
        Step(label: "a salutation record moved to a file of its own", expect: .patched, writes: false) {
            site in
            try site.write("store/salutations.json", #"[{"id": "herr", "text": "Herr Dipl.-Ing."}]"#)
            try site.write("store/salutations/frau.json", #"{"id": "frau", "text": "Fr."}"#)
        },
        Step(label: "a salutation record removed while a contact names it", expect: .failed) { site in
            try site.remove("store/salutations/frau.json")
        },
        Step(label: "the salutation record restored, with another text", expect: .patched) { site in
            try site.write("store/salutations/frau.json", #"{"id": "frau", "text": "Frau Dr."}"#)
        },
    ]

    @Test func everyEditToWhatContactsReferToLeavesWhatAWholeBuildWrites() throws {
        let scratch = try Fixtures.temporaryFolder()
        let site = SiteFiles(folder: scratch.appendingPathComponent("site"))
        try FileManager.default.copyItem(
            at: Fixtures.packageRoot.appendingPathComponent("Examples/demo"), to: site.folder)
        try Self.check(Self.referenceSteps, on: site, contacts: 80, patchedAtLeast: 8, namingChanges: true)
    }
}
