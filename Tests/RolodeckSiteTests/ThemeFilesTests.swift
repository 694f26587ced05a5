import Foundation
import RolodeckTheme
import Testing
@testable import RolodeckTestSupport

@Suite struct ThemeFilesTests {
    /// Every file in Templates/ and Public/ is embedded with the same bytes, and nothing else is.
    @Test func embeddedThemeMatchesTheFolders() throws {
        var onDisk: [String: [UInt8]] = [:]
        for folder in ["Templates", "Public"] {
            let root = Fixtures.packageRoot.appendingPathComponent(folder)
            let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where !file.hasDirectoryPath {
                let relative = String(file.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
                onDisk[folder + "/" + relative] = Array(try Data(contentsOf: file))
            }
        }
        #expect(!onDisk.isEmpty)
        #expect(Set(ThemeFiles.all.keys) == Set(onDisk.keys),
                "list every theme file in Sources/RolodeckTheme/ThemeFiles.swift")
        for (path, bytes) in onDisk {
            #expect(ThemeFiles.all[path] == bytes, "\(path) differs from its embedded copy")
        }
    }
}
