import Foundation
import RolodeckTestSupport
import Testing

/// End-to-end runs of the built binary: exit statuses, output, and what lands on disk.
@Suite(.serialized) struct BuildTests {
    /// A command that writes more to standard error than a pipe holds (a sanitizer's report
    /// does) is still read to the end, not left waiting for a reader with its test.
    @Test(.timeLimit(.minutes(1))) func moreErrorsThanAPipeHoldsAreReadToTheEnd() throws {
        let result = try CLI.run(["--version"], shellPrefix: "head -c 200000 /dev/zero | tr '\\0' x >&2")
        #expect(result.status == 0)
        #expect(result.stderr.count == 200_000)
        #expect(result.stdout.hasPrefix("rolodeck "))
    }

    @Test func buildPrintsOneSummaryLineAndQuietPrintsNothing() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        let first = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(first.status == 0)
        #expect(first.stderr.isEmpty, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("Built 80 contacts, 10 groups, 18 todos into \(out.path): ") == true)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))

        try FileManager.default.removeItem(at: out)
        let quiet = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty)
        #expect(quiet.stderr.isEmpty)
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("index.html").path))
    }

    /// A config may name its store by an absolute path (a vdir that vdirsyncer keeps elsewhere):
    /// the site is the same as with the store in place, the next build finds it up to date, and
    /// a store that is not there is named by that path.
    @Test func aStoreNamedByAnAbsolutePathBuildsAsInPlace() throws {
        let demo = try CLI.copyOfDemo()
        let elsewhere = try CLI.temporaryFolder().appendingPathComponent("contacts")
        try FileManager.default.moveItem(at: demo.appendingPathComponent("store"), to: elsewhere)
        let config = demo.appendingPathComponent("rolodeck.json")
        let text = try String(contentsOf: config, encoding: .utf8)
        try #require(text.contains(#""store": "store""#))
        try text.replacingOccurrences(of: #""store": "store""#, with: "\"store\": \"\(elsewhere.path)\"")
            .write(to: config, atomically: true, encoding: .utf8)
        let scratch = demo.deletingLastPathComponent()
        let out = scratch.appendingPathComponent("out")
        let reference = scratch.appendingPathComponent("reference")
        let built = try CLI.run(["build", "--site", demo.path, "--out", out.path])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.hasPrefix("Built 80 contacts"))
        let demoSite = CLI.packageRoot.appendingPathComponent("Examples/demo").path
        #expect(try CLI.run(["build", "-q", "--site", demoSite, "--out", reference.path]).status == 0)
        let pages = try CLI.contents(out).filter { $0.key != ".rolodeck" }
        #expect(pages == (try CLI.contents(reference).filter { $0.key != ".rolodeck" }))
        #expect(try CLI.run(["build", "--site", demo.path, "--out", out.path]).stdout.contains("is up to date"))

        try FileManager.default.removeItem(at: elsewhere)
        let missing = try CLI.run(["build", "--site", demo.path, "--out", out.path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("error: no store found in \(elsewhere.path)/:"), "\(missing.stderr)")
    }

    @Test func aFailedBuildLeavesTheOldOutputByteIdentical() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", site.path, "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)

        let contacts = site.appendingPathComponent("store/contacts.json")
        var text = try String(contentsOf: contacts, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"birthday\": \"1992-08-17\"", with: "\"birthday\": \"1990-02-30\"")
        try text.write(to: contacts, atomically: true, encoding: .utf8)
        let result = try CLI.run(["build", "--quiet", "--site", site.path, "--out", out.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        let line = try #require(text.components(separatedBy: "\n").firstIndex { $0.contains("1990-02-30") }) + 1
        #expect(lines.first?.hasPrefix("\(site.path)/store/contacts.json:\(line):") == true)
        #expect(lines.first?.hasSuffix(": error: birthday \"1990-02-30\" is not a date: February 1990 has 28 days") == true)
        #expect(lines.last == "error: build failed with 1 error; nothing was written")

        let after = try CLI.snapshot(out)
        #expect(after.mapValues(\.bytes) == before.mapValues(\.bytes))
        #expect(after.mapValues(\.modified) == before.mapValues(\.modified))
    }

    @Test func aRebuildWithNoChangeWritesNothing() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", site.path, "--out", out.path]).status == 0)
        let before = try CLI.snapshot(out)
        Thread.sleep(forTimeInterval: 0.05)
        let again = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("\(out.path) is up to date (\(before.count) files unchanged) in "))
        let after = try CLI.snapshot(out)
        #expect(after.mapValues(\.modified) == before.mapValues(\.modified))
    }

    @Test func aRebuildAfterTheOutputWasTamperedWithRepairsIt() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", site.path, "--out", out.path]).status == 0)
        let before = try CLI.contents(out)
        try FileManager.default.removeItem(at: out.appendingPathComponent("contacts/marisol.html"))
        Thread.sleep(forTimeInterval: 0.02)
        try Data("defaced".utf8).write(to: out.appendingPathComponent("index.html"))
        let repaired = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(repaired.stdout.contains(": 3 written, \(before.count - 3) unchanged, 0 removed in "))
        #expect(try CLI.contents(out) == before)
        // A changed store is never mistaken for an unchanged one.
        let contacts = site.appendingPathComponent("store/contacts.json")
        let text = try String(contentsOf: contacts, encoding: .utf8).replacingOccurrences(of: "Marisol", with: "Marisa")
        try text.write(to: contacts, atomically: true, encoding: .utf8)
        let changed = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(changed.stdout.hasPrefix("Built 80 contacts"))
        #expect(try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8).contains("Marisa"))
    }

    @Test func deletingAContactRemovesItsPage() throws {
        let site = try CLI.copyOfDemo()
        let out = site.deletingLastPathComponent().appendingPathComponent("out")
        #expect(try CLI.run(["build", "-q", "--site", site.path, "--out", out.path]).status == 0)
        let page = out.appendingPathComponent("contacts/marisol.html")
        #expect(FileManager.default.fileExists(atPath: page.path))

        let contacts = site.appendingPathComponent("store/contacts.json")
        let data = try Data(contentsOf: contacts)
        var list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        list.removeAll { $0["id"] as? String == "marisol" }
        for index in list.indices {
            list[index]["groups"] = (list[index]["groups"] as? [String]) ?? []
        }
        try JSONSerialization.data(withJSONObject: list, options: [.prettyPrinted]).write(to: contacts)
        let todos = site.appendingPathComponent("store/todos.json")
        let todoList = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: todos)) as? [[String: Any]])
        try JSONSerialization.data(withJSONObject: todoList.filter { $0["contact"] as? String != "marisol" })
            .write(to: todos)

        let before = Set(try CLI.contents(out).keys)
        let result = try CLI.run(["build", "--site", site.path, "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: page.path))
        // The search index is cut into pieces by size, so one fewer contact can mean one piece fewer.
        let removed = before.subtracting(try CLI.contents(out).keys)
        #expect(removed.filter { !$0.hasPrefix("search/") } == Set(["contacts/marisol.html", "contacts/marisol.vcf"]))
        #expect(result.stdout.contains(" \(removed.count) removed in "))
        let index = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!index.contains("marisol.html"))
    }

    @Test func theSameSourceDateEpochGivesByteIdenticalTrees() throws {
        let site = try CLI.copyOfDemo()
        let base = site.deletingLastPathComponent()
        for name in ["one", "two"] {
            let result = try CLI.run(["build", "-q", "--site", site.path, "--out", base.appendingPathComponent(name).path],
                                     environment: ["SOURCE_DATE_EPOCH": "1800000000"])
            #expect(result.status == 0)
        }
        let one = try CLI.contents(base.appendingPathComponent("one"))
        let two = try CLI.contents(base.appendingPathComponent("two"))
        #expect(one.count > 90)
        #expect(one == two)
        // And "today" really comes from it: the same birthday gives a different age a year later.
        let later = try CLI.run(["build", "-q", "--site", site.path, "--out", base.appendingPathComponent("later").path],
                                environment: ["SOURCE_DATE_EPOCH": String(1_800_000_000 + 366 * 86_400)])
        #expect(later.status == 0)
        let page = "contacts/ayse-oeztuerk.html"
        #expect(try CLI.contents(base.appendingPathComponent("later"))[page] != one[page])
    }

    @Test func aBadSourceDateEpochIsAnError() throws {
        let result = try CLI.run(["build", "--site", CLI.packageRoot.appendingPathComponent("Examples/demo").path,
                                  "--out", try CLI.temporaryFolder().appendingPathComponent("out").path],
                                 environment: ["SOURCE_DATE_EPOCH": "yesterday"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: SOURCE_DATE_EPOCH \"yesterday\" is not a whole number of seconds"))
    }

    @Test func aFolderThatIsNotASiteIsNamed() throws {
        let empty = try CLI.temporaryFolder()
        let result = try CLI.run(["build", "--site", empty.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(empty.path) is not a Rolodeck site: it has no rolodeck.json and no store/ folder"))
        let missing = try CLI.run(["check", "--site", empty.appendingPathComponent("nope").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("does not exist or is not a folder"))
    }

    @Test func refusesToOverwriteAFolderItDidNotMake() throws {
        let base = try CLI.temporaryFolder()
        let precious = base.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        try Data("thesis".utf8).write(to: precious.appendingPathComponent("thesis.txt"))
        let result = try CLI.run(["build", "--site", CLI.packageRoot.appendingPathComponent("Examples/demo").path,
                                  "--out", precious.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("refusing to replace \(precious.path)"))
        #expect(try CLI.contents(precious) == ["thesis.txt": Data("thesis".utf8)])
    }

    @Test func checkValidatesWithoutWriting() throws {
        let site = try CLI.copyOfDemo()
        let ok = try CLI.run(["check", "--site", site.path])
        #expect(ok.status == 0)
        #expect(ok.stdout == "OK: 80 contacts, 10 groups, 18 todos, 15 templates\n")
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("_site").path))

        try Data("{{#contacts}}\n<p>{{name}}</p>\n".utf8).write(to: {
            let folder = site.appendingPathComponent("Templates")
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return folder.appendingPathComponent("index.mustache")
        }())
        let bad = try CLI.run(["check", "--site", site.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("\(site.path)/Templates/index.mustache:1:1: error: unclosed section {{#contacts}}"))
    }

    @Test func initMakesASiteThatBuilds() throws {
        let base = try CLI.temporaryFolder()
        let folder = base.appendingPathComponent("new-site")
        let created = try CLI.run(["init", folder.path])
        #expect(created.status == 0)
        #expect(created.stdout.hasPrefix("Created \(folder.path)."))
        let built = try CLI.run(["build", "--site", folder.path])
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.hasPrefix("Built 3 contacts, 1 group, 2 todos into \(folder.path)/_site: "))
        let again = try CLI.run(["init", folder.path])
        #expect(again.status == 1)
        #expect(again.stderr.contains("rolodeck.json already exists"))
    }

    @Test func aCopiedBinaryCarriesItsThemeAndWorksFromAnyFolder() throws {
        let base = try CLI.temporaryFolder()
        let binary = base.appendingPathComponent("bin/rolodeck")
        try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: CLI.binary, to: binary)
        let site = try CLI.copyOfDemo()
        let work = base.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)

        let process = Process()
        process.executableURL = binary
        process.arguments = ["build", "--quiet", "--site", site.path, "--out", "site-out"]
        process.currentDirectoryURL = work
        // Nothing of this process's environment but what the sanitizers need (which must reach
        // the child, or it reports their known leaks as errors).
        process.environment = Sanitizers.environment.merging(["PATH": "/usr/bin:/bin"]) { $1 }
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let css = try Data(contentsOf: work.appendingPathComponent("site-out/style.css"))
        #expect(css == (try Data(contentsOf: CLI.packageRoot.appendingPathComponent("Public/style.css"))))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("site-out/contacts/kim-cheolsu.html").path))
    }
}
