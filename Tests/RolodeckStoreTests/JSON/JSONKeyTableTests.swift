import Testing
@testable import RolodeckStore

@Suite struct JSONKeyTableTests {
    static let table = JSONKeyTable([
        "id", "label", "value", "givenName", "phoneticFamilyName", "phoneticGivenName", "abcdefgh",
        "abcdefgi", "label",
    ])

    private func key(_ text: String) -> String? {
        Array(text.utf8).withUnsafeBufferPointer { Self.table.position(matching: $0).map { Self.table[$0] } }
    }

    @Test(arguments: ["id", "label", "value", "givenName", "phoneticFamilyName", "phoneticGivenName",
                      "abcdefgh", "abcdefgi"])
    func findsEveryKeyByItsBytes(_ name: String) {
        #expect(key(name) == name)
    }

    /// Bytes that share a key's length, its first eight bytes, or are a key's prefix or extension.
    @Test(arguments: ["", "i", "ids", "Id", "labe", "labels", "lAbel", "givenNamf", "givenNameX",
                      "phoneticFamilyNamf", "phoneticFamilyNam", "phoneticGivenNamx", "abcdefgj",
                      "abcdefg", "type", "valué"])
    func findsNoOtherBytes(_ text: String) {
        #expect(key(text) == nil)
    }

    /// A parse with a table yields the keys a parse without one does, escaped or not.
    @Test func parsedKeysAreTheSameWithATable() throws {
        let source = #"{"id": 1, "label": {"value": [], "lab\u0065l": 2, "unknown": 3}, "givenName ": 4}"#
        let bytes = Array(source.utf8)
        func keys(_ value: JSONValue) -> [String] {
            guard case .object(let members) = value.kind else { return [] }
            return members.flatMap { ["\($0.key)@\($0.keyOffset)"] + keys($0.value) }
        }
        let plain = try keys(JSONParser.parse(bytes))
        let tabled = try keys(JSONParser.parse(bytes, keys: Self.table))
        #expect(plain == ["id@1", "label@10", "value@20", "label@33", "unknown@50", "givenName @65"])
        #expect(tabled == plain)
    }
}
