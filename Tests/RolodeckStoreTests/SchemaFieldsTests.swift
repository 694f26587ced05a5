import Foundation
import Testing
@testable import RolodeckTestSupport
@testable import RolodeckStore

/// The shipped JSON Schema says its property lists are complete: each record's properties are
/// exactly the fields the decoder reads (Tests/Schema checks the schema against real stores).
@Suite struct SchemaFieldsTests {
    static func properties(of definition: String) throws -> Set<String> {
        let url = Fixtures.packageRoot.appendingPathComponent("docs/rolodeck-store.schema.json")
        let schema = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let definitions = try #require(schema["$defs"] as? [String: Any])
        let record = try #require(definitions[definition] as? [String: Any], "no \(definition) in the schema")
        let properties = try #require(record["properties"] as? [String: Any])
        return Set(properties.keys)
    }

    @Test func eachRecordHasTheFieldsTheDecoderReads() throws {
        #expect(try Self.properties(of: "contact") == Set(ContactFields.known))
        #expect(try Self.properties(of: "group") == Set(GroupFields.known))
        #expect(try Self.properties(of: "todo") == Set(TodoFields.known))
        #expect(try Self.properties(of: "salutation") == Set(SalutationFields.known))
        let address = ContactFields.AddressField.allCases.map(\.rawValue).filter { $0 != "type" }
        #expect(try Self.properties(of: "address") == Set(address))
    }
}
