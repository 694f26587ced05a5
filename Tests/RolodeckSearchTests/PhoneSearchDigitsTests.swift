import Foundation
import Testing
@testable import RolodeckSearch

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

    /// E.164 codes are prefix-free: one digit for 1 and 7, two for these, three for the rest.
    @Test(arguments: 0..<100)
    func aCallingCodeTakesItsDigits(_ firstTwo: Int) {
        let twoDigitCodes: Set<Int> = [
            20, 27, 30, 31, 32, 33, 34, 36, 39, 40, 41, 43, 44, 45, 46, 47, 48, 49, 51, 52, 53, 54, 55, 56,
            57, 58, 60, 61, 62, 63, 64, 65, 66, 81, 82, 84, 86, 90, 91, 92, 93, 94, 95, 98,
        ]
        let digits = Array(String(format: "%02d12345", firstTwo).utf16)
        let expected = firstTwo / 10 == 1 || firstTwo / 10 == 7 ? 1 : twoDigitCodes.contains(firstTwo) ? 2 : 3
        #expect(PhoneSearchDigits.callingCodeLength(startOf: digits) == expected)
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
