import Testing
@testable import RolodeckCore

@Suite("Dates and ages")
struct PartialDateTests {
    @Test("parsing accepts only dates that exist", arguments: [
        ("2023-02-29", false), ("--02-29", true), ("2024-02-29", true), ("2000-02-29", true),
        ("1900-02-29", false), ("2023-13-01", false), ("2023-00-01", false), ("2023-04-31", false),
        ("2023-04-30", true), ("2023-01-00", false), ("2023-12-31", true), ("0000-01-01", false),
        ("23-12-31", false), ("2023-1-31", false), ("2023/12/31", false), ("--2-29", false), ("", false),
    ])
    func validity(_ text: String, _ valid: Bool) {
        #expect((PartialDate.parse(text) != nil) == valid)
    }

    @Test("age in completed years", arguments: [
        ("1990-03-05", "2020-03-04", Optional(29)), ("1990-03-05", "2020-03-05", 30), ("1990-03-05", "2020-12-31", 30),
        ("2000-02-29", "2001-02-28", 0), ("2000-02-29", "2001-03-01", 1), ("2000-02-29", "2004-02-28", 3),
        ("2000-02-29", "2004-02-29", 4), ("2000-02-29", "2100-02-28", 99), ("2000-02-29", "2100-03-01", 100),
        ("1990-03-05", "1990-03-05", 0), ("1990-03-05", "1990-03-04", nil), ("--03-05", "2020-03-05", nil),
    ])
    func age(_ birth: String, _ today: String, _ expected: Int?) throws {
        let birthday = try #require(PartialDate.parse(birth))
        let now = try #require(PartialDate.parse(today))
        #expect(birthday.age(on: now) == expected)
    }

    @Test("store form round-trips")
    func description() {
        #expect(PartialDate(year: 1990, month: 3, day: 5).description == "1990-03-05")
        #expect(PartialDate(year: nil, month: 3, day: 5).description == "--03-05")
        #expect(PartialDate(year: 987, month: 11, day: 25).description == "0987-11-25")
    }

    @Test("days since 1970 give the civil date", arguments: [
        (0, "1970-01-01"), (-1, "1969-12-31"), (11_016, "2000-02-29"), (19_782, "2024-02-29"),
        (20_787, "2026-11-30"), (-719_468, "0000-03-01"), (2_932_896, "9999-12-31"),
    ])
    func civilDate(_ days: Int, _ expected: String) {
        #expect(PartialDate(daysSince1970: days).description == expected)
    }
}
