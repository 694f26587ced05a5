/// Groups Korean phone numbers the way people write them at home
/// ("02-123-4567", "010-1234-5678", "1588-1234").
enum KoreanPhoneNumber {
    /// Three-digit geographic area codes (031–033, 041–044, 051–055, 061–064).
    private static let areaCodes: Set<String> = [
        "031", "032", "033", "041", "042", "043", "044",
        "051", "052", "053", "054", "055", "061", "062", "063", "064",
    ]
    /// Mobile prefixes that allow a 3- or 4-digit middle group.
    private static let legacyMobile: Set<String> = ["011", "016", "017", "018", "019"]

    /// The digit groups of a domestic number (with its trunk 0, if it has one).
    static func groups(domestic digits: String) -> [String] {
        // ASCII digits, so bytes are characters: the groups are cut from the bytes, without
        // making a Character of each digit.
        let d = Array(digits.utf8)
        let count = d.count
        func split(_ sizes: Int...) -> [String] { chunk(d, sizes) }
        let head2 = String(decoding: d.prefix(2), as: UTF8.self)
        let head3 = String(decoding: d.prefix(3), as: UTF8.self)
        let rest3 = count - 3
        if head2 == "02" && (count == 9 || count == 10) { return split(2, count - 6) }
        if areaCodes.contains(head3) && (rest3 == 7 || rest3 == 8) { return split(3, rest3 - 4) }
        if (head3 == "010" || head3 == "070") && rest3 == 8 { return split(3, 4) }
        if legacyMobile.contains(head3) && (rest3 == 7 || rest3 == 8) { return split(3, rest3 - 4) }
        if head3 == "080" && (rest3 == 7 || rest3 == 8) { return split(3, rest3 - 4) }
        if head3 == "050" && (count == 11 || count == 12) { return split(4, count - 8) }
        if count == 8 && ["15", "16", "18"].contains(head2) { return split(4) }
        // Subscriber numbers written without an area code.
        let zero = UInt8(ascii: "0"), one = UInt8(ascii: "1")
        if count == 7 && d[0] != zero && d[0] != one { return split(3) }
        if count == 8 && d[0] != zero && d[0] != one { return split(4) }
        return fallbackGroups(d)
    }

    /// The original app's digit-count rule, for numbers no pattern fits:
    /// up to 9 digits 2-3-rest, 10 digits 3-3-4, 11 or more 3-4-rest.
    private static func fallbackGroups(_ d: [UInt8]) -> [String] {
        switch d.count {
        case ...4: return chunk(d, [])
        case ...9: return chunk(d, [2, 3])
        case 10: return chunk(d, [3, 3])
        default: return chunk(d, [3, 4])
        }
    }

    /// Cuts digits into groups of the given sizes, the rest forming a last group.
    private static func chunk(_ d: [UInt8], _ sizes: [Int]) -> [String] {
        var groups: [String] = []
        var start = 0
        for size in sizes + [d.count] where start < d.count {
            let end = min(start + size, d.count)
            groups.append(String(decoding: d[start..<end], as: UTF8.self))
            start = end
        }
        return groups
    }

    /// Whether a domestic number is a nationwide representative number (15xx, 16xx, 18xx).
    static func isRepresentative(_ digits: String) -> Bool {
        digits.count == 8 && ["15", "16", "18"].contains(String(digits.prefix(2)))
    }
}
