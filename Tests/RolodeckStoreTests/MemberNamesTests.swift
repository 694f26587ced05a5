import Testing
@testable import RolodeckStore
@testable import RolodeckCore

@Suite struct MemberNamesTests {
    @Test func everyNameFindsItsField() {
        let names = MemberNames<ContactFields.Field>()
        for (index, field) in ContactFields.Field.allCases.enumerated() {
            #expect(names.index(of: field.rawValue) == index)
            #expect(names.fields[index] == field)
        }
    }

    @Test(arguments: [
        "", "i", "ID", "Id", "nameGiven", "givenname", "givenName ", "notes\u{301}", "phoneticFamilyNames",
        "a name longer than any field name", "김철수",
    ])
    func otherKeysFindNothing(_ key: String) {
        #expect(MemberNames<ContactFields.Field>().index(of: key) == nil)
    }

    @Test func namesOfTheSameLengthAreTold() {
        let names = MemberNames<RecordReader.LabeledValueField>()
        #expect(names.index(of: "label") == 0)
        #expect(names.index(of: "type") == 1)
        #expect(names.index(of: "value") == 2)
        #expect(names.index(of: "valeu") == nil)
    }

    /// A key the parser found in its key table names the field its text names, by its position
    /// alone; the position is not trusted for keys parsed with another table.
    @Test func keysOfTheTableNameTheirFieldsByPosition() {
        let keys = StoreDecoder.knownKeys
        let names = MemberNames<ContactFields.Field>(keys: keys)
        #expect(keys.count > ContactFields.Field.allCases.count)
        for position in 0..<keys.count {
            let key = JSONMemberKey(key: keys[position], keyOffset: 0, depth: 1, tablePosition: position)
            #expect(names.index(of: key, isFromKeys: true) == names.index(of: keys[position]),
                    "\(keys[position])")
        }
        let notes = JSONMemberKey(key: "notes", keyOffset: 0, depth: 1, tablePosition: 0)
        let notesIndex = ContactFields.Field.allCases.firstIndex(of: .notes)
        #expect(names.index(of: notes, isFromKeys: false) == notesIndex)
    }
}
