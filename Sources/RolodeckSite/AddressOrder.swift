import RolodeckCore

/// The order in which an address's parts are written where it is: Korea and Japan write the
/// largest part first (postal code, region, city, district, street), elsewhere the street comes
/// first and the postal code sits before the city.
enum AddressOrder: Equatable, Sendable {
    /// Street, then "postal code city, region", then the country.
    case western
    /// Postal code, then region and city, then the street, then the country (대한민국: words apart).
    case korean
    /// 〒 postal code, then prefecture and city run together, then the street, then the country.
    case japanese

    /// Country names and codes, lowercased, as a store is likely to write them.
    private static let koreanCountries: Set<String> = [
        "대한민국", "한국", "kr", "kor", "korea", "south korea", "republic of korea", "korea, republic of",
        "korea (south)", "韓国", "大韓民国",
    ]
    private static let japaneseCountries: Set<String> = ["日本", "日本国", "にほん", "jp", "jpn", "japan", "일본"]

    /// The order for `address`: Korean or Japanese when it is written in that country's script
    /// and names that country or none (Hangul is Korean; kana, or a prefecture ending in 都道府県,
    /// Japanese), else western, as romanized addresses in those countries are written too.
    init(of address: PostalAddress) {
        let country = address.country.trimmingWhitespace.lowercased()
        let parts = [address.region, address.city, address.street]
        func written(in script: (Unicode.Scalar) -> Bool) -> Bool {
            parts.contains { $0.unicodeScalars.contains(where: script) }
        }
        if Self.koreanCountries.contains(country) {
            self = written(in: { Self.isHangul($0) || Self.isHan($0) }) ? .korean : .western
        } else if Self.japaneseCountries.contains(country) {
            self = written(in: { Self.isKana($0) || Self.isHan($0) }) ? .japanese : .western
        } else if !country.isEmpty {
            self = .western
        } else if written(in: Self.isHangul) {
            self = .korean
        } else if written(in: Self.isKana)
            || ["都", "道", "府", "県"].contains(where: { address.region.trimmingWhitespace.hasSuffix($0) })
        {
            self = .japanese
        } else {
            self = .western
        }
    }

    /// Whether `scalar` is a CJK ideograph (kanji, hanja).
    private static func isHan(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value)
    }

    /// Whether `scalar` is a Hangul syllable or jamo.
    private static func isHangul(_ scalar: Unicode.Scalar) -> Bool {
        (0xAC00...0xD7A3).contains(scalar.value) || (0x1100...0x11FF).contains(scalar.value)
            || (0x3130...0x318F).contains(scalar.value)
    }

    /// Whether `scalar` is hiragana or katakana.
    private static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value) || (0x31F0...0x31FF).contains(scalar.value)
    }

    /// The address's lines in this order, each trimmed, empty ones left out; `street` is the
    /// street already split into its lines.
    func lines(of address: PostalAddress, street: [String]) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(street.count + 3)
        func add(_ line: String) {
            if !line.isEmpty { lines.append(line) }
        }
        let postalCode = address.postalCode.trimmingWhitespace
        let city = address.city.trimmingWhitespace, region = address.region.trimmingWhitespace
        switch self {
        case .western:
            for line in street { add(line) }
            var cityLine = postalCode
            // Each part in turn, so no array of pairs is allocated and freed.
            func attach(_ part: String, after separator: String) {
                guard !part.isEmpty else { return }
                cityLine = cityLine.isEmpty ? part : String(joining: cityLine, separator, part)
            }
            attach(city, after: " ")
            attach(region, after: ", ")
            add(cityLine)
        case .korean, .japanese:
            // Japanese marks a postal code with 〒 (unless the store did) and writes the
            // prefecture and city as one word; Korean puts a space between them.
            let mark = self == .japanese && !postalCode.isEmpty && !postalCode.hasPrefix("〒") ? "〒" : ""
            add(mark + postalCode)
            let separator = self == .japanese || region.isEmpty || city.isEmpty ? "" : " "
            add(String(joining: region, separator, city))
            for line in street { add(line) }
        }
        add(address.country.trimmingWhitespace)
        return lines
    }
}
