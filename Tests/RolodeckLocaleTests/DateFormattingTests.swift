import Testing
@testable import RolodeckLocale
@testable import RolodeckCore

@Suite("Dates in the interface languages")
struct DateFormattingTests {
    @Test("formatted dates", arguments: [
        ("en", 1990, 3, 5, "March 5, 1990", "March 5"), ("de", 1990, 3, 5, "5. März 1990", "5. März"),
        ("ko", 1990, 3, 5, "1990년 3월 5일", "3월 5일"), ("ja", 1990, 3, 5, "1990年3月5日", "3月5日"),
        ("en", 2001, 12, 31, "December 31, 2001", "December 31"), ("de", 1985, 1, 1, "1. Januar 1985", "1. Januar"),
        ("fr", 1990, 3, 5, "March 5, 1990", "March 5"), ("de-AT", 1972, 5, 20, "20. Mai 1972", "20. Mai"),
    ])
    func formatted(_ locale: String, _ year: Int, _ month: Int, _ day: Int, _ full: String, _ short: String) {
        let strings = InterfaceStrings(localeIdentifier: locale)
        let date = PartialDate(year: year, month: month, day: day)
        #expect(strings.date(date) == full)
        #expect(strings.monthDay(date) == short)
        #expect(strings.date(PartialDate(year: nil, month: month, day: day)) == short)
    }
}
