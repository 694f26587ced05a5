import RolodeckCore

/// The site's interface text in one language: fixed strings, counts with
/// plural forms, localized phone/email/address kinds and dates.
public struct InterfaceStrings: Sendable {
    /// The language the text is in.
    public let language: InterfaceLanguage

    /// Text for a locale identifier; English for locales without a translation.
    public init(localeIdentifier: String) {
        language = InterfaceLanguage(localeIdentifier: localeIdentifier)
    }

    /// Text in a given language.
    init(language: InterfaceLanguage) {
        self.language = language
    }

    /// The text for a key.
    public subscript(key: InterfaceKey) -> String {
        InterfaceStringTable.text(key, in: language)
    }

    /// "Page 2 of 5", "Seite 2 von 5", "2/5페이지", "2/5ページ": where a page of a long list is.
    public func pageNumber(_ page: Int, of count: Int) -> String {
        let (page, count) = (groupedNumber(page), groupedNumber(count))
        switch language {
        case .english: return "Page \(page) of \(count)"
        case .german: return "Seite \(page) von \(count)"
        case .korean: return "\(page)/\(count)페이지"
        case .japanese: return "\(page)/\(count)ページ"
        }
    }

    /// "1 contact", "2 contacts", "2 Kontakte", "연락처 2개", "2件の連絡先".
    public func contactCount(_ count: Int) -> String {
        let number = groupedNumber(count)
        switch language {
        case .english: return number + (count == 1 ? " contact" : " contacts")
        case .german: return number + (count == 1 ? " Kontakt" : " Kontakte")
        case .korean: return "연락처 \(number)개"
        case .japanese: return "\(number)件の連絡先"
        }
    }

    /// "1 member", "2 members", "2 Mitglieder", "구성원 2명", "メンバー2人".
    public func memberCount(_ count: Int) -> String {
        let number = groupedNumber(count)
        switch language {
        case .english: return number + (count == 1 ? " member" : " members")
        case .german: return number + (count == 1 ? " Mitglied" : " Mitglieder")
        case .korean: return "구성원 \(number)명"
        case .japanese: return "メンバー\(number)人"
        }
    }

    /// A localized phone/email/address kind for a raw label, case-insensitively
    /// ("HOME", "cell", vCard lists like "work,voice", Apple's "_$!<Mobile>!$_");
    /// custom labels come back as written.
    public func label(for rawLabel: String) -> String {
        guard let key = ContactLabelKind.key(for: rawLabel) else {
            return LabeledValue.innerAppleLabel(rawLabel) ?? rawLabel
        }
        return self[key]
    }

    /// "March 5, 1990" / "5. März 1990" / "1990년 3월 5일" / "1990年3月5日", or
    /// month and day only ("March 5") when the year is unknown.
    public func date(_ day: PartialDate) -> String {
        guard let year = day.year else { return monthDay(day) }
        switch language {
        case .english: return "\(monthDay(day)), \(year)"
        case .german: return "\(monthDay(day)) \(year)"
        case .korean: return "\(year)년 \(monthDay(day))"
        case .japanese: return "\(year)年\(monthDay(day))"
        }
    }

    /// Month and day without the year: "March 5", "5. März", "3월 5일", "3月5日".
    public func monthDay(_ day: PartialDate) -> String {
        switch language {
        case .english: return "\(InterfaceStringTable.monthName(day.month, in: language)) \(day.day)"
        case .german: return "\(day.day). \(InterfaceStringTable.monthName(day.month, in: language))"
        case .korean: return "\(day.month)월 \(day.day)일"
        case .japanese: return "\(day.month)月\(day.day)日"
        }
    }

    /// A month of a year, as the birthday page heads its groups: "March 2027", "März 2027",
    /// "2027년 3월", "2027年3月".
    public func monthOfYear(_ month: Int, year: Int) -> String {
        switch language {
        case .english, .german: return "\(InterfaceStringTable.monthName(month, in: language)) \(year)"
        case .korean: return "\(year)년 \(month)월"
        case .japanese: return "\(year)年\(month)月"
        }
    }

    /// The age a birthday brings: "turns 36", "wird 36", "36세가 됨", "36歳になる".
    public func turnsAge(_ age: Int) -> String {
        switch language {
        case .english: return "turns \(age)"
        case .german: return "wird \(age)"
        case .korean: return "\(age)세가 됨"
        case .japanese: return "\(age)歳になる"
        }
    }

    /// A birthday event's title in the calendar: "Jane Doe’s birthday", "Geburtstag von Jane
    /// Doe", "Jane Doe 생일", "Jane Doeの誕生日".
    public func birthdayOf(_ name: String) -> String {
        switch language {
        case .english: return name + "’s birthday"
        case .german: return "Geburtstag von " + name
        case .korean: return name + " 생일"
        case .japanese: return name + "の誕生日"
        }
    }

    /// A count with thousands separators: "1,234" (German "1.234").
    func groupedNumber(_ value: Int) -> String {
        let separator: Character = language == .german ? "." : ","
        let digits = String(value.magnitude)
        var result = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { result.append(separator) }
            result.append(digit)
        }
        return value < 0 ? "-" + result : result
    }
}
