import Foundation
import Testing
import RolodeckTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// `rolodeck watch` against real file operations: after each one, the watched output must be
/// byte for byte what `rolodeck build` writes for the same input into a new folder.
@Suite(.serialized) struct WatchTests {
    /// Every file and folder under `root`, files with their bytes (the manifest included, without
    /// the line that depends on when the build ran).
    static func tree(_ root: URL) -> [String: Data?] {
        var result: [String: Data?] = [:]
        let enumerator = FileManager.default.enumerator(
            at: root, includingPropertiesForKeys: [.isDirectoryKey])
        while let url = enumerator?.nextObject() as? URL {
            let relative = String(
                url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
            let isFolder = (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true
            let bytes = isFolder ? nil : try? Data(contentsOf: url)
            result[relative] = relative == ".rolodeck" ? bytes.map(ManifestLines.withoutStatuses) : bytes
        }
        return result
    }

    /// The site, the watched output and a scratch folder for reference builds.
    struct Scene {
        let site: URL
        let out: URL
        let scratch: URL
        let watch: RunningCommand
        var references = 0

        /// Starts `watch` on a copy of the demo site, once `prepare` has changed the copy;
        /// `whileBuilding` runs as soon as the first build has started writing the output.
        /// `shellPrefix` runs in the shell that starts `watch` (a `ulimit`).
        init(
            extra arguments: [String] = [], name: String = #function, shellPrefix: String? = nil,
            prepare: (URL) throws -> Void = { _ in }, whileBuilding: ((URL) throws -> Void)? = nil
        ) throws {
            site = try CLI.copyOfDemo(name)
            scratch = site.deletingLastPathComponent()
            out = scratch.appendingPathComponent("out")
            try prepare(site)
            watch = try RunningCommand(
                ["watch", "--site", site.path, "--out", out.path] + arguments, shellPrefix: shellPrefix)
            if let whileBuilding {
                // The build has read the whole site before it writes a contact's page (into a
                // staging folder beside the output).
                let scratch = scratch
                let writing = RunningCommand.eventually(timeout: 120) {
                    let beside = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path)) ?? []
                    return beside.contains { name in
                        let pages = scratch.appendingPathComponent(name).appendingPathComponent("contacts").path
                        return !((try? FileManager.default.contentsOfDirectory(atPath: pages)) ?? []).isEmpty
                    }
                }
                try #require(writing, "the first build wrote nothing: \(watch.stderr)")
                try whileBuilding(site)
            }
            #expect(
                watch.waitForLine { $0.hasPrefix("Watching ") } != nil, "watch did not start: \(watch.stderr)"
            )
        }

        func path(_ relative: String) -> String { site.path + "/" + relative }

        /// Writes a file in place: open, truncate, write, close.
        func write(_ relative: String, _ text: String) throws {
            try write(relative, bytes: Array(text.utf8))
        }

        /// Writes `bytes` in place, as `write` writes text.
        func write(_ relative: String, bytes: [UInt8]) throws {
            try FileManager.default.createDirectory(
                at: site.appendingPathComponent(relative).deletingLastPathComponent(),
                withIntermediateDirectories: true)
            let fd = open(path(relative), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            try #require(fd >= 0)
            #expect(bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count)
            close(fd)
        }

        /// Saves the way vim and most editors do: a new file beside, renamed over the old one.
        func saveByRename(_ relative: String, _ text: String) throws {
            try saveByRename(relative, bytes: Array(text.utf8))
        }

        /// Saves `bytes` by rename, as `saveByRename` saves text.
        func saveByRename(_ relative: String, bytes: [UInt8]) throws {
            try write(relative + ".tmp", bytes: bytes)
            #expect(rename(path(relative + ".tmp"), path(relative)) == 0)
        }

        func read(_ relative: String) throws -> String {
            try String(contentsOfFile: path(relative), encoding: .utf8)
        }

        /// Waits until the watched output is what a whole build of the site writes now.
        mutating func expectOutputMatchesABuild(_ label: String) throws {
            references += 1
            let reference = scratch.appendingPathComponent("reference-\(references)")
            let build = try CLI.run(["build", "-q", "--site", site.path, "--out", reference.path])
            try #require(build.status == 0, "\(label): the reference build failed: \(build.stderr)")
            let expected = WatchTests.tree(reference)
            let matched = RunningCommand.eventually { WatchTests.tree(out) == expected }
            if !matched {
                let actual = WatchTests.tree(out)
                let differing = Set(expected.keys).union(actual.keys).filter { expected[$0] != actual[$0] }
                    .sorted()
                let said = "watch said: \(Array(watch.stdout.suffix(5))) \(Array(watch.stderr.suffix(5)))"
                Issue.record(
                    "\(label): the watched output differs from a build in \(Array(differing.prefix(10)))\n\(said)"
                )
            }
        }

        /// Stops watch with Ctrl-C; it must end cleanly and leave no temporary files.
        func stop() {
            #expect(watch.stop(SIGINT) == 0)
            #expect(watch.stdout.last == "Stopped watching.")
            #expect(leftovers.isEmpty, "left \(leftovers)")
        }

        /// The temporary files and folders of a rebuild found beside the site and in the output.
        var leftovers: [String] {
            ((try? FileManager.default.subpathsOfDirectory(atPath: scratch.path)) ?? [])
                .filter {
                    $0.contains(".rolodeck-new-") || $0.contains(".rolodeck-staging-")
                        || $0.contains("retired")
                }
        }
    }

    @Test func writesInPlaceAndSavesByRenameShowInTheOutput() throws {
        var scene = try Scene()
        try scene.expectOutputMatchesABuild("the first build")
        let contacts = "store/contacts.json"
        try scene.write(
            contacts,
            try scene.read(contacts).replacingOccurrences(
                of: "Prefers **phone calls**",
                with: "Prefers **letters**"))
        try scene.expectOutputMatchesABuild("a write in place")
        try scene.saveByRename(
            contacts, try scene.read(contacts).replacingOccurrences(of: "\"Jürgen\"", with: "\"Jörg\""))
        try scene.expectOutputMatchesABuild("a save by rename")
        #expect(scene.watch.stdout.contains { $0.hasPrefix("\(scene.path(contacts)) changed: ") })
        try scene.saveByRename(
            "Templates/todos.mustache",
            "{{<layout}}{{$main}}<ol>{{#todos}}<li>{{title}}</li>{{/todos}}</ol>{{/main}}{{/layout}}")
        try scene.expectOutputMatchesABuild("a new template folder and a template in it")
        try scene.write(
            "rolodeck.json", try scene.read("rolodeck.json").replacingOccurrences(of: "Demo", with: "Watched")
        )
        try scene.expectOutputMatchesABuild("the config")
        scene.stop()
    }

    /// A file saved while the first build is writing, after the build read it, is rebuilt: the
    /// watcher starts before the build reads anything. (When it started after the build, such a
    /// save raised no event and the site stayed as the build left it.)
    @Test func aSaveWhileTheFirstBuildWritesIsSeen() throws {
        let contacts = "store/contacts.json"
        var scene = try Scene { site in
            // Contacts enough that the first build is still writing when the save comes.
            let url = site.appendingPathComponent(contacts)
            var records = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [Any])
            for index in 0..<3000 {
                records.append(["id": "extra-\(index)", "givenName": "Extra", "familyName": "Person \(index)"])
            }
            try JSONSerialization.data(withJSONObject: records).write(to: url)
        } whileBuilding: { site in
            let url = site.appendingPathComponent(contacts)
            let text = try String(contentsOf: url, encoding: .utf8)
            try text.replacingOccurrences(of: "\"Jürgen\"", with: "\"Jörg\"")
                .write(to: site.appendingPathComponent(contacts + ".tmp"), atomically: false, encoding: .utf8)
            #expect(rename(url.path + ".tmp", url.path) == 0)
        }
        try scene.expectOutputMatchesABuild("a save during the first build")
        scene.stop()
    }

    @Test func aFolderDeletedAndMadeAgainIsFollowed() throws {
        var scene = try Scene()
        for name in ["ann", "bo"] {
            try scene.write(
                "store/book/\(name).vcf",
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:\(name.capitalized) Book\r\nUID:\(name)-book\r\nEND:VCARD\r\n"
            )
        }
        try scene.write("store/book/displayname", "Book\n")
        try scene.expectOutputMatchesABuild("a new vdir address book")
        try FileManager.default.removeItem(atPath: scene.path("store/book"))
        try scene.expectOutputMatchesABuild("the address book deleted")
        try scene.write(
            "store/book/cy.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cy Book\r\nUID:cy-book\r\nEND:VCARD\r\n")
        try scene.expectOutputMatchesABuild("the address book made again")
        try scene.write(
            "store/book/cy.vcf", "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Cyrus Book\r\nUID:cy-book\r\nEND:VCARD\r\n"
        )
        try scene.expectOutputMatchesABuild("a card in the remade folder")
        scene.stop()
    }

    /// A save whose pages cannot be written leaves the output as it was, without a part of any
    /// file in it, and the watch goes on to publish the next save. A file-size limit makes the
    /// writes fail part-way, as a full disk does. (A page written in part beside its place was
    /// left there, under its temporary name, taking the space the next save needed.)
    @Test func aSaveThatCannotBeWrittenLeavesTheOutputAsItWas() throws {
        // 400 blocks: 200 KB in dash's `ulimit` (of 512-byte blocks), 400 KB in bash's. The
        // demo's largest file is under 50 KB, and the note below makes a page of 520 KB.
        var scene = try Scene(shellPrefix: "ulimit -f 400")
        try scene.expectOutputMatchesABuild("the first build")
        let before = WatchTests.tree(scene.out)
        let contacts = "store/contacts.json"
        let original = try scene.read(contacts)
        let note = String(repeating: "A long note. ", count: 40_000)
        let sentence = "Prefers **phone calls**"
        try scene.saveByRename(contacts, original.replacingOccurrences(of: sentence, with: note))
        let failed = scene.watch.waitForLine(onError: true) { $0.hasSuffix("was left as it was") }
        #expect(failed != nil, "the save did not fail: \(scene.watch.stdout) \(scene.watch.stderr)")
        let written = "error: cannot write \(scene.out.path)/"
        #expect(
            scene.watch.stderr.contains { $0.hasPrefix(written) && $0.hasSuffix(": File too large") },
            "\(scene.watch.stderr)")
        #expect(scene.leftovers.isEmpty, "left \(scene.leftovers)")
        #expect(WatchTests.tree(scene.out) == before, "the output changed")
        try scene.saveByRename(contacts, original.replacingOccurrences(of: sentence, with: "By letter"))
        try scene.expectOutputMatchesABuild("the next save")
        scene.stop()
    }

    @Test func aBurstOfAThousandChangesIsCoalescedAndNoneIsLost() throws {
        var scene = try Scene()
        try scene.expectOutputMatchesABuild("the first build")
        let before = scene.watch.stdout.count
        for index in 0..<1000 {
            try scene.write(
                "store/burst/card-\(index).vcf",
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Burst \(index)\r\n"
                    + "UID:burst-\(index)\r\nCATEGORIES:Burst \(index % 7)\r\nEND:VCARD\r\n")
        }
        try scene.expectOutputMatchesABuild("a thousand new cards")
        let rebuilds = scene.watch.stdout.dropFirst(before).filter { $0.contains(" changed: ") }
        #expect(!rebuilds.isEmpty && rebuilds.count < 20, "\(rebuilds.count) rebuilds for one burst")
        // A sync tool rewriting every file at once.
        for index in 0..<1000 {
            try scene.saveByRename(
                "store/burst/card-\(index).vcf",
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Synced \(index)\r\n"
                    + "UID:burst-\(index)\r\nEND:VCARD\r\n")
        }
        try scene.expectOutputMatchesABuild("a thousand cards rewritten by rename")
        scene.stop()
    }

    @Test func aBrokenFileKeepsTheLastGoodSiteAndTheNextGoodSaveRebuilds() throws {
        var scene = try Scene()
        try scene.expectOutputMatchesABuild("the first build")
        let good = try CLI.contents(scene.out)
        let contacts = "store/contacts.json"
        let text = try scene.read(contacts)
        try scene.write(
            contacts,
            text.replacingOccurrences(
                of: "\"birthday\": \"1992-08-17\"", with: "\"birthday\": \"1990-02-30\""))
        let error = scene.watch.waitForLine(onError: true) { $0.hasPrefix("error: rebuild after ") }
        #expect(
            error?.hasSuffix("failed with 1 error; \(scene.out.path) was left as it was") == true,
            "\(scene.watch.stderr)")
        #expect(
            scene.watch.stderr.contains {
                $0.hasPrefix("\(scene.path(contacts)):")
                    && $0.hasSuffix("is not a date: February 1990 has 28 days")
            })
        #expect(try CLI.contents(scene.out) == good)
        #expect(scene.watch.process.isRunning)
        try scene.write(
            contacts,
            text.replacingOccurrences(
                of: "\"birthday\": \"1992-08-17\"", with: "\"birthday\": \"1990-02-28\""))
        try scene.expectOutputMatchesABuild("the fixed store")
        scene.stop()
    }

    @Test func pollingSeesTheSameChanges() throws {
        var scene = try Scene(extra: ["--poll"])
        #expect(scene.watch.stdout.contains { $0.contains("(polling every second)") })
        let contacts = "store/contacts.json"
        try scene.saveByRename(
            contacts, try scene.read(contacts).replacingOccurrences(of: "\"Jürgen\"", with: "\"Jo\""))
        try scene.expectOutputMatchesABuild("a save by rename, polled")
        scene.stop()
    }

    /// A photo file that was there before watch started, replaced in place and then by rename:
    /// the contact shows each new picture, as a whole build does, with no warning. (Taken over
    /// from the last read, the file lost the path a contact names it by, and the contact was
    /// told its photo was not a file.)
    @Test func aPhotoFileReplacedShowsTheNewPicture() throws {
        var scene = try Scene(prepare: { site in
            let photos = site.appendingPathComponent("store/photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            try Data(try Fixtures.photo("face.png")).write(to: photos.appendingPathComponent("juergen.png"))
            let contacts = site.appendingPathComponent("store/contacts.json")
            let text = try String(contentsOf: contacts, encoding: .utf8)
            try #require(text.contains("\"givenName\": \"Jürgen\","))
            try text.replacingOccurrences(
                of: "\"givenName\": \"Jürgen\",", with: "\"givenName\": \"Jürgen\", \"photo\": \"photos/juergen.png\","
            ).write(to: contacts, atomically: true, encoding: .utf8)
        })
        try scene.expectOutputMatchesABuild("the first build")
        try scene.write("store/photos/juergen.png", bytes: try Fixtures.photo("face-gps.jpg"))
        try scene.expectOutputMatchesABuild("the photo written over")
        try scene.saveByRename("store/photos/juergen.png", bytes: try Fixtures.photo("face.webp"))
        try scene.expectOutputMatchesABuild("the photo saved by rename")
        let page = try String(contentsOf: scene.out.appendingPathComponent("contacts/juergen-mueller.html"), encoding: .utf8)
        #expect(page.contains("<img class=\"photo\""))
        #expect(!scene.watch.stderr.contains { $0.contains("warning") }, "\(scene.watch.stderr)")
        scene.stop()
    }

    @Test func sigtermStopsAsCleanlyAsCtrlC() throws {
        let scene = try Scene()
        #expect(scene.watch.stop(SIGTERM) == 0)
        #expect(scene.watch.stdout.last == "Stopped watching.")
    }

    /// SIGHUP (the terminal closed) too. Started through `env --default-signal`, the watch has
    /// SIGHUP's default action even where the test process ignores it.
    @Test func sighupStopsAsCleanlyAsCtrlC() throws {
        let scene = try Scene(shellPrefix: ":")
        #expect(scene.watch.stop(SIGHUP) == 0)
        #expect(scene.watch.stdout.last == "Stopped watching.")
        #expect(scene.leftovers.isEmpty, "left \(scene.leftovers)")
    }

    @Test func watchRefusesAFolderThatIsNotASite() throws {
        let folder = try CLI.temporaryFolder()
        let result = try CLI.run(["watch", "--site", folder.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is not a Rolodeck site"))
    }
}
