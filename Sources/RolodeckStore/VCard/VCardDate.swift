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
        switch value.utf8.withContiguousStorageIfAvailable(readASCII) ?? .notASCII {
        case .date(let year, let month, let day):
            return date(year: year, month: month, day: day, text: value, omitYear: omitYear)
        case .notADate:
            return .failure(VCardIssue(.invalidBirthday(value, detail: nil)))
        case .notASCII:
            break
        }
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
        return date(year: year, month: month, day: day, text: text.trimmingWhitespace, omitYear: omitYear)
    }

    /// The date of a birthday's numbers, without a year that stands for "not known", or why it
    /// is not one.
    private static func date(year: Int?, month: Int, day: Int, text: String, omitYear: String?)
        -> Result<PartialDate, VCardIssue>
    {
        var date = PartialDate(year: year, month: month, day: day)
        if let year, year == 0 || year == appleUnknownYear || omitYear.flatMap({ Int($0) }) == year {
            date.year = nil
        }
        guard date.isValid else {
            let iso = PartialDate(year: year, month: month, day: day).description
            return .failure(VCardIssue(.invalidBirthday(text, detail: PartialDate.whyInvalid(iso))))
        }
        return .success(date)
    }

    /// What a trimmed birthday's bytes say, read as `birthday` reads its Characters.
    private enum ASCIIReading {
        /// The text is not ASCII, and is read as Characters.
        case notASCII
        /// It has none of the shapes of a date.
        case notADate
        /// The numbers of a date, which may still not be a day of the calendar.
        case date(year: Int?, month: Int, day: Int)
    }

    /// The year, month and day of a trimmed ASCII birthday.
    private static func readASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> ASCIIReading {
        guard ASCIIBytes.isASCII(bytes) else { return .notASCII }
        let end = bytes.firstIndex(of: UInt8(ascii: "T")) ?? bytes.count
        var digits = 0
        var dashes = 0
        var number = 0
        for byte in bytes[..<end] {
            if byte == UInt8(ascii: "-") {
                dashes += 1
            } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                digits += 1
                // Only the number of four or eight digits is used; a longer one may wrap.
                number = number &* 10 &+ Int(byte - UInt8(ascii: "0"))
            } else {
                return .notADate
            }
        }
        let noYear = end >= 2 && bytes[0] == UInt8(ascii: "-") && bytes[1] == UInt8(ascii: "-")
        // `YYYYMMDD` or `YYYY-MM-DD`.
        let isDateShaped =
            (dashes == 0 && end == 8)
            || (dashes == 2 && end == 10 && bytes[4] == UInt8(ascii: "-") && bytes[7] == UInt8(ascii: "-"))
        guard digits == (noYear ? 4 : 8), noYear || isDateShaped else { return .notADate }
        return .date(year: noYear ? nil : number / 10_000, month: number / 100 % 100, day: number % 100)
    }

    /// `YYYYMMDD` or `YYYY-MM-DD`.
    private static func isDateShaped(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return (parts.count == 1 && text.count == 8)
            || (parts.count == 3 && parts[0].count == 4 && parts[1].count == 2 && parts[2].count == 2)
    }
}
