import Foundation
import Mustache
import Testing

/// Runs the official Mustache spec (all required modules, inheritance and dynamic names).
@Suite("Mustache spec")
struct SpecTests {
    @Test(
        "Spec case",
        .enabled(
            if: SpecCorpus.isAvailable, "mustache spec corpus not found at \(SpecCorpus.directory.path)"),
        arguments: SpecCorpus.cases)
    func specCase(_ specCase: SpecCase) throws {
        let rendered = try specCase.render()
        #expect(rendered == specCase.expected, "template: \(specCase.template.debugDescription)")
    }

    @Test(
        "Spec case, with every object a table",
        .enabled(
            if: SpecCorpus.isAvailable, "mustache spec corpus not found at \(SpecCorpus.directory.path)"),
        arguments: SpecCorpus.cases)
    func specCaseWithTables(_ specCase: SpecCase) throws {
        let rendered = try specCase.renderWithTables()
        #expect(rendered == specCase.expected, "template: \(specCase.template.debugDescription)")
    }

    @Test(
        "Every case of every module passes",
        .enabled(if: SpecCorpus.isAvailable, "mustache spec corpus not found at \(SpecCorpus.directory.path)")
    )
    func moduleCounts() {
        for module in SpecCorpus.modules {
            let cases = SpecCorpus.cases.filter { $0.module == module }
            let passed = cases.filter(\.passes).count
            print("\(module): \(passed)/\(cases.count) passed")
            #expect(!cases.isEmpty, "no cases loaded for \(module)")
            #expect(passed == cases.count, "\(module): \(passed)/\(cases.count) passed")
        }
    }

    @Test("JSON loading tells booleans from the numbers 0 and 1")
    func jsonMapping() throws {
        let json = #"{"t": true, "f": false, "one": 1, "zero": 0, "d": 1.21, "whole": 85.0, "n": null}"#
        let value = JSONValue(foundation: try JSONSerialization.jsonObject(with: Data(json.utf8)))
        #expect(
            value
                == .object([
                    "t": .bool(true), "f": .bool(false), "one": .int(1), "zero": .int(0), "d": .double(1.21),
                    "whole": .double(85), "n": .null,
                ]))
    }
}
