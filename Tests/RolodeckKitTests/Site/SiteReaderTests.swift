import Foundation
import Testing
@testable import RolodeckKit

/// What the site reader hands on, in which order.
@Suite struct SiteReaderTests {
    /// A store with a file per record lists them in file-name order: for `todos/` that order is
    /// the user's order of the todo page, so it must not depend on how a dictionary hashes.
    @Test func recordsInAFolderComeInFileNameOrder() throws {
        let folder = try Fixtures.temporaryFolder()
        let todos = folder.appendingPathComponent("store/todos")
        try FileManager.default.createDirectory(at: todos, withIntermediateDirectories: true)
        let names = (1...40).map { String(format: "%02d-task", $0) }
        for name in names.shuffled() {
            try Data(#"{"id": "\#(name)", "title": "\#(name)"}"#.utf8).write(
                to: todos.appendingPathComponent(name + ".json"))
        }
        let (input, _) = try SiteReader(folder: folder, displayPath: "site").read()
        #expect(input.storeFiles.map(\.source.path) == names.map { "site/store/todos/\($0).json" })
        let site = try Site.load(input)
        #expect(site.store.todos.map(\.id) == names)
    }
}
