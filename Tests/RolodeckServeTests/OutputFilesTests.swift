import Foundation
import Testing
@testable import RolodeckServe
@testable import RolodeckTestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Request paths to files: never a byte from outside the output folder, whatever the path says.
@Suite struct OutputFilesTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var target: String
        var expected: Result<[String], OutputFiles.Refusal>
        var testDescription: String { target }
    }

    static let cases: [Case] = [
        Case(target: "/", expected: .success([""])),
        Case(target: "/index.html", expected: .success(["index.html"])),
        Case(target: "/contacts/kim.html?q=1#top", expected: .success(["contacts", "kim.html"])),
        Case(target: "/a%20b/c%C3%A9.css", expected: .success(["a b", "cé.css"])),
        Case(target: "/contacts/", expected: .success(["contacts", ""])),
        Case(target: "http://localhost:8000/style.css", expected: .success(["style.css"])),
        Case(target: "HTTP://localhost", expected: .success([""])),
        Case(target: "/../secret", expected: .failure(.badPath)),
        Case(target: "/contacts/../../secret", expected: .failure(.badPath)),
        Case(target: "/%2e%2e/secret", expected: .failure(.badPath)),
        Case(target: "/%2E%2e/%2e%2E/secret", expected: .failure(.badPath)),
        Case(target: "/./index.html", expected: .failure(.badPath)),
        Case(target: "/contacts%2f..%2f..%2fsecret", expected: .failure(.badPath)),
        Case(target: "/..%5csecret", expected: .failure(.badPath)),
        Case(target: "//etc/passwd", expected: .failure(.badPath)),
        Case(target: "/a%00.html", expected: .failure(.badPath)),
        Case(target: "/%zz", expected: .failure(.badPath)),
        Case(target: "/%2", expected: .failure(.badPath)),
        Case(target: "*", expected: .failure(.badPath)),
        Case(target: "index.html", expected: .failure(.badPath)),
        Case(target: "http://x/../secret", expected: .failure(.badPath)),
        Case(target: "/.rolodeck", expected: .failure(.notFound)),
        Case(target: "/contacts/.kim.html.rolodeck-new-12", expected: .failure(.notFound)),
        Case(target: "/%2erolodeck", expected: .failure(.notFound)),
    ]

    @Test(arguments: cases)
    func segments(_ test: Case) {
        let result = OutputFiles.segments(of: test.target).map {
            $0.map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(result == test.expected)
    }

    /// An output folder with files, a folder, and links and a pipe pointing out of it or nowhere.
    static func output() throws -> (root: String, outside: String) {
        let scratch = try Fixtures.temporaryFolder()
        let root = scratch.appendingPathComponent("out").path
        let outside = scratch.appendingPathComponent("secret.txt").path
        try FileManager.default.createDirectory(atPath: root + "/contacts", withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside))
        try Data("index".utf8).write(to: URL(fileURLWithPath: root + "/index.html"))
        try Data("kim".utf8).write(to: URL(fileURLWithPath: root + "/contacts/kim.html"))
        try FileManager.default.createSymbolicLink(
            atPath: root + "/link-out.html", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(
            atPath: root + "/link-in.html", withDestinationPath: "index.html")
        try FileManager.default.createSymbolicLink(atPath: root + "/up", withDestinationPath: "..")
        try FileManager.default.createSymbolicLink(atPath: root + "/etc", withDestinationPath: "/etc")
        #expect(mkfifo(root + "/pipe.html", 0o644) == 0)
        return (root, outside)
    }

    struct Opening: Sendable, CustomTestStringConvertible {
        var path: [String]
        var contents: String?
        var testDescription: String { path.joined(separator: "/") }
    }

    static let openings: [Opening] = [
        Opening(path: [""], contents: "index"),
        Opening(path: ["index.html"], contents: "index"),
        Opening(path: ["contacts", "kim.html"], contents: "kim"),
        Opening(path: ["contacts", ""], contents: nil),
        Opening(path: ["contacts"], contents: nil),
        Opening(path: ["missing.html"], contents: nil),
        Opening(path: ["link-out.html"], contents: nil),
        Opening(path: ["link-in.html"], contents: nil),
        Opening(path: ["up", "secret.txt"], contents: nil),
        Opening(path: ["etc", "passwd"], contents: nil),
        Opening(path: ["pipe.html"], contents: nil),
        Opening(path: ["index.html", "x"], contents: nil),
    ]

    @Test(arguments: openings)
    func openOnlyRegularFilesInside(_ test: Opening) throws {
        let (root, _) = try Self.output()
        switch OutputFiles.open(root: root, segments: test.path.map { Array($0.utf8) }) {
        case .success(let file):
            defer { close(file.descriptor) }
            var bytes = [UInt8](repeating: 0, count: file.size)
            #expect(read(file.descriptor, &bytes, bytes.count) == file.size)
            #expect(String(decoding: bytes, as: UTF8.self) == test.contents)
        case .failure(let refusal):
            #expect(test.contents == nil)
            #expect(refusal == .notFound)
        }
    }
}
