import Testing
@testable import RolodeckKit

/// Phone numbers in the usual shapes are read by a fast path; it must read them exactly as
/// `PhoneNumberInput` does, or the index would change with the path taken.
@Suite struct PhoneSearchDigitsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var raw: String
        /// Whether the fast path reads it (otherwise it leaves it to `PhoneNumberInput`).
        var isPlain: Bool
        var testDescription: String { raw }
    }

    static let cases: [Case] = [
        Case(raw: "010-1234-5678", isPlain: true),
        Case(raw: "+49 151 2345 6789", isPlain: true),
        Case(raw: "0049 151 2345 6789", isPlain: true),
        Case(raw: "+1 (479) 555-0175", isPlain: true),
        Case(raw: "+49 (0)30 1234567", isPlain: true),
        Case(raw: " +44 (0) 20 7946 0441", isPlain: true),
        Case(raw: "+44 (0)20 (0)7946 0441", isPlain: true),
        Case(raw: "+(0)49 30 1234", isPlain: true),
        Case(raw: "+82 (10) 1234-5678", isPlain: true),
        Case(raw: "(+49) 30 1234567", isPlain: false),
        Case(raw: "-+49 (0)30 1234567", isPlain: false),
        Case(raw: "+49 30 1234567 ext. 12", isPlain: false),
        Case(raw: "1-800-FLOWERS", isPlain: false),
    ]

    @Test(arguments: cases)
    func theFastPathReadsANumberAsPhoneNumberInputDoes(_ example: Case) throws {
        let plain = PhoneSearchDigits.plainNumber(example.raw)
        #expect((plain != nil) == example.isPlain)
        if let plain {
            let parsed = PhoneSearchDigits.parsedNumber(example.raw)
            #expect(plain.0 == parsed.0)
            #expect(plain.1 == parsed.1)
        }
    }

    @Test func aBracketedTrunkZeroIsNotDialled() {
        #expect(
            PhoneSearchDigits.forms(of: "+49 (0)30 1234567", region: nil).map {
                String(decoding: $0.digits, as: UTF16.self)
            } == [
                "49301234567", "0301234567", "0049301234567",
            ])
    }
}
