import Testing
@testable import RolodeckLocale
@testable import RolodeckCore

/// A raw phone number, the region, and the expected display and tel: forms.
struct PhoneCase: CustomTestStringConvertible, Sendable {
    let region: String?
    let raw: String
    let display: String
    let tel: String

    init(_ region: String?, _ raw: String, _ display: String, _ tel: String) {
        self.region = region
        self.raw = raw
        self.display = display
        self.tel = tel
    }

    var testDescription: String { "\(region ?? "nil"): \(raw.debugDescription)" }
}

@Suite("Phone numbers")
struct PhoneFormatterTests {
    static let koreanDomestic: [PhoneCase] = [
        .init("KR", "010-1234-5678", "010-1234-5678", "tel:+821012345678"),
        .init("KR", "01012345678", "010-1234-5678", "tel:+821012345678"),
        .init("KR", "010 1234 5678", "010-1234-5678", "tel:+821012345678"),
        .init("KR", "010.1234.5678", "010-1234-5678", "tel:+821012345678"),
        .init("KR", "０１０－１２３４－５６７８", "010-1234-5678", "tel:+821012345678"),
        .init("KR", "011-123-4567", "011-123-4567", "tel:+82111234567"),
        .init("KR", "0111234567", "011-123-4567", "tel:+82111234567"),
        .init("KR", "01612345678", "016-1234-5678", "tel:+821612345678"),
        .init("KR", "0191234567", "019-123-4567", "tel:+82191234567"),
        .init("KR", "0212345678", "02-1234-5678", "tel:+82212345678"),
        .init("KR", "021234567", "02-123-4567", "tel:+8221234567"),
        .init("KR", "(02) 123-4567", "02-123-4567", "tel:+8221234567"),
        .init("KR", "0311234567", "031-123-4567", "tel:+82311234567"),
        .init("KR", "03112345678", "031-1234-5678", "tel:+823112345678"),
        .init("KR", "0421234567", "042-123-4567", "tel:+82421234567"),
        .init("KR", "055 123 4567", "055-123-4567", "tel:+82551234567"),
        .init("KR", "0641234567", "064-123-4567", "tel:+82641234567"),
        .init("KR", "07012345678", "070-1234-5678", "tel:+827012345678"),
        .init("KR", "05041234567", "0504-123-4567", "tel:+825041234567"),
        .init("KR", "050412345678", "0504-1234-5678", "tel:+8250412345678"),
        .init("KR", "0801234567", "080-123-4567", "tel:+82801234567"),
        .init("KR", "15881234", "1588-1234", "tel:+8215881234"),
        .init("KR", "1644-1234", "1644-1234", "tel:+8216441234"),
        .init("KR", "1800 1234", "1800-1234", "tel:+8218001234"),
        .init("KR", "2345678", "234-5678", "tel:2345678"),
        .init("KR", "22345678", "2234-5678", "tel:22345678"),
        .init("KR", "112", "112", "tel:112"),
        .init("kr", "01012345678", "010-1234-5678", "tel:+821012345678"),
    ]

    /// Korean numbers no pattern fits: the original app's digit-count rule.
    static let koreanFallback: [PhoneCase] = [
        .init("KR", "0601234567", "060-123-4567", "tel:+82601234567"),
        .init("KR", "034-1234567", "034-123-4567", "tel:+82341234567"),
        .init("KR", "012345678", "01-234-5678", "tel:+8212345678"),
        .init("KR", "01234", "01-234", "tel:+821234"),
        .init("KR", "0123456789012", "012-3456-789012", "tel:+82123456789012"),
        .init("KR", "1234567", "12-345-67", "tel:1234567"),
        .init("KR", "010123456", "01-012-3456", "tel:+8210123456"),
    ]

    static let koreanInternational: [PhoneCase] = [
        .init("KR", "+82 10-1234-5678", "+82 10-1234-5678", "tel:+821012345678"),
        .init(nil, "+821012345678", "+82 10-1234-5678", "tel:+821012345678"),
        .init(nil, "+82 (0)10 1234 5678", "+82 10-1234-5678", "tel:+821012345678"),
        .init(nil, "+82 010-1234-5678", "+82 10-1234-5678", "tel:+821012345678"),
        .init(nil, "0082-2-123-4567", "+82 2-123-4567", "tel:+8221234567"),
        .init("US", "+82-2-1234-5678", "+82 2-1234-5678", "tel:+82212345678"),
        .init(nil, "+82 31 123 4567", "+82 31-123-4567", "tel:+82311234567"),
        .init(nil, "+82 1588 1234", "+82 1588-1234", "tel:+8215881234"),
        .init(nil, "00 82 70 1234 5678", "+82 70-1234-5678", "tel:+827012345678"),
    ]

    static let asWritten: [PhoneCase] = [
        .init("KR", "+1 (555) 123-4567", "+1 (555) 123-4567", "tel:+15551234567"),
        .init(nil, "  +44 20 7946 0958  ", "+44 20 7946 0958", "tel:+442079460958"),
        .init(nil, "+44 (0)20 7946 0958", "+44 (0)20 7946 0958", "tel:+442079460958"),
        .init("KR", "001-1-555-123-4567", "001-1-555-123-4567", "tel:00115551234567"),
        .init(nil, "010-1234-5678", "010-1234-5678", "tel:01012345678"),
        .init(nil, "(555) 123-4567", "(555) 123-4567", "tel:5551234567"),
        .init("DE", "030 1234567", "030 1234567", "tel:0301234567"),
        .init("KR", "02-1234-5678 ext. 12", "02-1234-5678 ext. 12", "tel:+82212345678;ext=12"),
        .init("KR", "010-1234-5678,12", "010-1234-5678,12", "tel:+821012345678;ext=12"),
        .init("KR", "02-123-4567 내선 304", "02-123-4567 내선 304", "tel:+8221234567;ext=304"),
        .init(nil, "+1 555 123 4567;ext=89", "+1 555 123 4567;ext=89", "tel:+15551234567;ext=89"),
        .init(nil, "555-1234 x12", "555-1234 x12", "tel:5551234;ext=12"),
        .init(nil, "1-800-FLOWERS", "1-800-FLOWERS", "tel:18003569377"),
        .init("KR", "*123#", "*123#", "tel:*123#"),
        .init(nil, "Call me", "Call me", "tel:"),
        .init(nil, "1-800-ßßß-1234", "1-800-ßßß-1234", "tel:18001234"),
        .init("KR", "Office: 02-123-4567", "Office: 02-123-4567", "tel:+8221234567"),
        .init("KR", "", "", "tel:"),
    ]

    @Test("display form", arguments: koreanDomestic + koreanFallback + koreanInternational + asWritten)
    func display(_ example: PhoneCase) {
        #expect(PhoneFormatter(defaultRegion: example.region).format(example.raw) == example.display)
    }

    @Test("tel: URI", arguments: koreanDomestic + koreanFallback + koreanInternational + asWritten)
    func tel(_ example: PhoneCase) {
        let uri = PhoneFormatter(defaultRegion: example.region).telURI(example.raw)
        #expect(uri == example.tel)
        #expect(!uri.contains(" "))
    }

    @Test("display and link in one parse; no link without digits")
    func displayAndLink() {
        let formatter = PhoneFormatter(defaultRegion: "KR")
        #expect(formatter.displayAndLink("01012345678") == ("010-1234-5678", "tel:+821012345678"))
        #expect(formatter.displayAndLink(" Call me ") == ("Call me", nil))
        #expect(formatter.displayAndLink("") == ("", nil))
    }

    @Test("the region is normalized")
    func region() {
        #expect(PhoneFormatter(defaultRegion: " kr ").defaultRegion == "KR")
        #expect(PhoneFormatter(defaultRegion: "").defaultRegion == nil)
        #expect(PhoneFormatter(defaultRegion: nil).defaultRegion == nil)
    }
}

/// The one-pass reading of plain ASCII numbers gives what the general reading gives.
@Suite struct PhoneNumberInputTests {
    /// Every string of up to four pieces from a set of pieces people type (digits, `+`, `00`,
    /// "(0)", separators, letters, extension markers, non-ASCII), read both ways.
    @Test func thePlainASCIIReadingAgreesWithTheGeneralOne() {
        let pieces = [
            "+", "00", "0", "82", "10", "1234", "(0)", "(", ")", " ", "-", ".", "/", "*", "#", "+1",
            "x", "ext.", ",", ";", "FLOWERS", "\u{00A0}", "１２", "\u{2013}", "~", "(0",
        ]
        var checked = 0
        var disagreeing: [String] = []
        func check(_ raw: String) {
            checked += 1
            let general = PhoneNumberInput(generalReadingOf: raw.trimmingWhitespace)
            if PhoneNumberInput(raw) != general { disagreeing.append(raw) }
        }
        for first in pieces {
            check(first)
            for second in pieces {
                check(first + second)
                for third in pieces {
                    check(first + second + third)
                    check(" " + first + second + third + "5 ")
                }
            }
        }
        for raw in ["+82 (0)10-1234-5678", "0082 10 1234 5678", "+49 (0)30 123456 (0)", "(0)123", "+(0)"] {
            check(raw)
        }
        #expect(checked > 30_000)
        #expect(disagreeing.isEmpty, "\(disagreeing.prefix(20))")
    }
}
