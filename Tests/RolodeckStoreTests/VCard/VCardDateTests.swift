import Testing
@testable import RolodeckCore
@testable import RolodeckStore

/// Birthdays in every shape `VCardDate` takes and in shapes it refuses; ASCII ones are read from
/// their bytes, the others as Characters, and both must say the same of the same shape.
@Suite struct VCardDateTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var omitYear: String?
        /// The date as `PartialDate` prints it, or the warning.
        var expected: String
        var testDescription: String { text.debugDescription }

        init(_ text: String, omitYear: String? = nil, _ expected: String) {
            self.text = text
            self.omitYear = omitYear
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("1980-03-22", "1980-03-22"),
        Case("19800322", "1980-03-22"),
        Case("  1980-03-22\t", "1980-03-22"),
        Case("\u{3000}1980-03-22\u{A0}", "1980-03-22"),
        Case("1980-03-22T10:00:00Z", "1980-03-22"),
        Case("19800322T", "1980-03-22"),
        Case("1980-03-22Tété", "1980-03-22"),
        Case("--0322", "--03-22"),
        Case("--03-22", "--03-22"),
        Case("--03--22", "--03-22"),
        Case("1604-03-22", "--03-22"),
        Case("0000-03-22", "--03-22"),
        Case("1980-03-22", omitYear: "1980", "--03-22"),
        Case("1980-03-22", omitYear: "x", "1980-03-22"),
        Case("--0229", "--02-29"),
        Case("1980-02-29", "1980-02-29"),
        Case("1981-02-29", notADate("1981-02-29", ": February 1981 has 28 days")),
        Case("2001-13-01", notADate("2001-13-01", ": there is no month 13")),
        Case("1980-3-22", #"BDAY "1980-3-22" is not a date; the birthday is left out"#),
        Case("198-003-22", #"BDAY "198-003-22" is not a date; the birthday is left out"#),
        Case("1980-0322", #"BDAY "1980-0322" is not a date; the birthday is left out"#),
        Case("t1980-03-22", #"BDAY "t1980-03-22" is not a date; the birthday is left out"#),
        Case("T1980", #"BDAY "T1980" is not a date; the birthday is left out"#),
        Case("-1980322", #"BDAY "-1980322" is not a date; the birthday is left out"#),
        Case("123456789012345678901234567890", notADate("123456789012345678901234567890")),
        Case("１９８０-03-22", #"BDAY "１９８０-03-22" is not a date; the birthday is left out"#),
        Case("1980-03-22é", #"BDAY "1980-03-22é" is not a date; the birthday is left out"#),
        Case("", #"BDAY "" is not a date; the birthday is left out"#),
    ]

    /// The warning for a birthday that is not a date.
    static func notADate(_ text: String, _ detail: String = "") -> String {
        "BDAY \"\(text)\" is not a date\(detail); the birthday is left out"
    }

    @Test(arguments: cases)
    func readsBirthdays(_ testCase: Case) {
        switch VCardDate.birthday(testCase.text, omitYear: testCase.omitYear) {
        case .success(let date): #expect(date.description == testCase.expected)
        case .failure(let issue): #expect(issue.message == testCase.expected)
        }
    }
}
