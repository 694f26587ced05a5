import Testing
@testable import RolodeckKit

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
}
