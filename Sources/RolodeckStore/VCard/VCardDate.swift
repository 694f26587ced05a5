import RolodeckCore

/// Reads a vCard `BDAY`: `1980-03-22`, `19800322`, a date-time (its date is used), or `--0322`
/// and `--03-22` without a year. Apple writes a birthday without a year as year 1604 with
/// `X-APPLE-OMIT-YEAR=1604`, some phones as year 0000; all of those are read as "no year", so
/// no age is shown.
enum VCardDate {
    /// The year Apple puts in a birthday whose year is not known.
    static let appleUnknownYear = 1604

    /// The date, or nil with the reason when the text is not one.
    static func birthday(_ text: String, omitYear: String?) -> Result<PartialDate, VCardIssue> {
        var value = text.trimmingWhitespace
        if let time = value.firstIndex(of: "T") { value = String(value[..<time]) }
        let digits = value.filter { $0 != "-" }
        let noYear = value.hasPrefix("--")
        guard digits.count == (noYear ? 4 : 8), digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              noYear || isDateShaped(value) else {
            return .failure(VCardIssue(.invalidBirthday(text.trimmingWhitespace, detail: nil)))
        }
        let year = noYear ? nil : Int(digits.prefix(4))
        let month = Int(digits.dropFirst(noYear ? 0 : 4).prefix(2)) ?? 0
        let day = Int(digits.suffix(2)) ?? 0
        var date = PartialDate(year: year, month: month, day: day)
        if let year, year == 0 || year == appleUnknownYear || omitYear.flatMap({ Int($0) }) == year {
            date.year = nil
        }
        guard date.isValid else {
            let iso = PartialDate(year: year, month: month, day: day).description
            return .failure(VCardIssue(.invalidBirthday(text.trimmingWhitespace, detail: PartialDate.whyInvalid(iso))))
        }
        return .success(date)
    }

    /// `YYYYMMDD` or `YYYY-MM-DD`.
    private static func isDateShaped(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return (parts.count == 1 && text.count == 8)
            || (parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2)
    }
}
