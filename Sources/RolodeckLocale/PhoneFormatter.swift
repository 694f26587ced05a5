import Foundation

/// Formats phone numbers for display and for `tel:` links.
///
/// A number is Korean when it starts with +82 or 0082, or when it has no
/// international prefix and the default region is KR. Korean numbers are
/// regrouped: domestic ones as written at home ("010-1234-5678",
/// "02-123-4567", "1588-1234"), +82/0082 ones in international form with the
/// trunk 0 dropped ("+82 10-1234-5678", "+82 2-123-4567"). Everything else,
/// and anything that is not a plain number (extensions, letters, `*`/`#`),
/// is shown as the user wrote it, minus surrounding whitespace.
public struct PhoneFormatter: Sendable {
    /// The ISO 3166 alpha-2 region assumed for numbers without a country code.
    public let defaultRegion: String?

    /// Creates a formatter; `defaultRegion` is e.g. "KR", or nil for none.
    public init(defaultRegion: String?) {
        let region = defaultRegion?.trimmingCharacters(in: .whitespaces).uppercased()
        self.defaultRegion = region?.isEmpty == false ? region : nil
    }

    /// The display form and, when there is anything to dial, the `tel:` URI of a number, taken
    /// apart once for both.
    public func displayAndLink(_ raw: String) -> (display: String, tel: String?) {
        let input = PhoneNumberInput(raw)
        let korean = koreanNumber(input)
        return (format(input, korean: korean),
                PhoneNumberInput.hasDigit(input.dialable) ? telURI(input, korean: korean) : nil)
    }

    /// The display form of a phone number.
    public func format(_ raw: String) -> String {
        let input = PhoneNumberInput(raw)
        return format(input, korean: input.isPlain ? koreanNumber(input) : nil)
    }

    /// The display form of a number whose Korean reading (`koreanNumber`) is worked out.
    private func format(_ input: PhoneNumberInput, korean: KoreanNumber?) -> String {
        guard input.isPlain, let korean else { return input.trimmed }
        switch korean {
        case .international(let national):
            var groups = KoreanPhoneNumber.groups(domestic: domesticDigits(national: national))
            if groups.first?.first == "0" { groups[0].removeFirst() }
            return "+82 " + groups.filter { !$0.isEmpty }.joined(separator: "-")
        case .domestic(let digits):
            return KoreanPhoneNumber.groups(domestic: digits).joined(separator: "-")
        }
    }

    /// The `tel:` URI (RFC 3966) for a phone number: `tel:+821012345678` for
    /// Korean numbers that can be written globally, otherwise `tel:` with the
    /// dialable characters (a leading `+` if written, `*`/`#` only if written),
    /// and `;ext=` for an extension. Never contains spaces.
    func telURI(_ raw: String) -> String {
        let input = PhoneNumberInput(raw)
        return telURI(input, korean: koreanNumber(input))
    }

    /// The `tel:` URI of a number whose Korean reading (`koreanNumber`) is worked out.
    private func telURI(_ input: PhoneNumberInput, korean: KoreanNumber?) -> String {
        var number: String
        switch korean {
        case .international(let national)?:
            number = "+82" + national
        case .domestic(let digits)? where digits.hasPrefix("0"):
            number = "+82" + digits.dropFirst()
        case .domestic(let digits)? where KoreanPhoneNumber.isRepresentative(digits):
            number = "+82" + digits
        default:
            switch input.prefix {
            case .plus: number = "+" + input.dialable
            case .doubleZero: number = "00" + input.dialable
            case .none: number = input.dialable
            }
        }
        if let digits = input.extensionDigits { number += ";ext=" + digits }
        return "tel:" + number
    }

    private enum KoreanNumber {
        /// Written with +82 or 0082; the national significant number, trunk 0 removed.
        case international(String)
        /// Written without a country code in region KR; digits as written.
        case domestic(String)
    }

    private func koreanNumber(_ input: PhoneNumberInput) -> KoreanNumber? {
        let digits = input.dialable
        switch input.prefix {
        case .plus, .doubleZero:
            guard digits.hasPrefix("82"), PhoneNumberInput.isDigits(digits) else { return nil }
            var national = Substring(digits.dropFirst(2))
            // People often keep the trunk 0 after the country code ("+82 010…").
            if national.first == "0" { national = national.dropFirst() }
            return .international(String(national))
        case .none:
            guard defaultRegion == "KR", !digits.isEmpty, PhoneNumberInput.isDigits(digits) else {
                return nil
            }
            return .domestic(digits)
        }
    }

    /// The domestic spelling of a national significant number (trunk 0 added
    /// back, except for representative numbers that never have one).
    private func domesticDigits(national: String) -> String {
        KoreanPhoneNumber.isRepresentative(national) ? national : "0" + national
    }
}
