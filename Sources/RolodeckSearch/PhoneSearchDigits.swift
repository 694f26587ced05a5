import RolodeckLocale

/// The digit strings a phone number is found by: as written, and in its national and its
/// international form, so that a search with or without the country prefix finds it.
///
/// `+49 151 2345 6789` is found by any run of digits of 4915123456789 (as written) or of
/// 015123456789 (as dialled at home), and by 004915123456789 from its start. On a site whose
/// phone region is KR, `010-1234-5678` is found by any run of 01012345678 and, from their
/// start, by 821012345678, 8201012345678 (people often keep the trunk 0 after the country code)
/// and 00821012345678.
enum PhoneSearchDigits {
    /// One spelling of a number in digits.
    struct Form: Equatable, Sendable {
        /// The digits, as the UTF-16 units the index keys are made of.
        var digits: [UInt16]
        /// Whether any run of three or more digits inside finds the number, or only its start.
        var findsRuns: Bool
    }

    /// The digits 0 and 1 as UTF-16 units.
    private static let zero: UInt16 = 0x30, one: UInt16 = 0x31

    /// The spellings of one number, without duplicates; empty when it has no digits.
    static func forms(of raw: String, region: String?) -> [Form] {
        let packed = packedForms(of: raw, region: region)
        return packed.forms.map { Form(digits: Array(packed.digits[$0.digits]), findsRuns: $0.findsRuns) }
    }

    /// The spellings of `forms(of:region:)` with their digits one after another in one array,
    /// which is what indexing many numbers needs: no array is allocated per form.
    struct PackedForms {
        /// One spelling: where its digits are in `digits`, and whether its runs find it.
        struct Form {
            /// Where the form's digits are in `digits`.
            var digits: Range<Int>
            /// Whether any run of three or more digits inside finds the number, or only its start.
            var findsRuns: Bool
        }

        /// The digits of every form, one after another, the number as written first.
        var digits: [UInt16]
        /// The forms in the order `forms(of:region:)` lists them.
        var forms: [Form] = []

        /// Appends `zeros` zeros, `head` and `tail` as a form, unless an earlier form has the same
        /// digits. The zeros are a count, so no array is made for one or two of them.
        mutating func append(zeros: Int, _ head: [UInt16], _ tail: Range<Int>, findsRuns: Bool) {
            let start = digits.count
            for _ in 0..<zeros { digits.append(zero) }
            if !head.isEmpty { digits += head }
            // Unit by unit: appending a slice of the array itself would copy the array first.
            for index in tail { digits.append(digits[index]) }
            let form = start..<digits.count
            let repeated = forms.contains { earlier in
                earlier.digits.count == form.count && digits[earlier.digits].elementsEqual(digits[form])
            }
            if repeated {
                digits.removeSubrange(form)
                return
            }
            forms.append(Form(digits: form, findsRuns: findsRuns))
        }
    }

    /// The spellings of one number, packed; no forms when it has no digits.
    static func packedForms(of raw: String, region: String?) -> PackedForms {
        let (prefix, written) = plainNumber(raw, extraCapacity: 24) ?? parsedNumber(raw)
        var packed = PackedForms(digits: written)
        guard !written.isEmpty else { return packed }
        let all = 0..<written.count
        packed.forms.reserveCapacity(4)
        packed.forms.append(PackedForms.Form(digits: all, findsRuns: true))
        switch prefix {
        case .plus, .doubleZero:
            if let codeLength = callingCodeLength(startOf: written) {
                // As dialled at home: the trunk 0 in front, except in the North American plan
                // (+1) and where the national number already starts with 0 (Italy).
                let national = codeLength..<written.count
                let northAmerican = codeLength == 1 && written[0] == one
                let keepsNational = northAmerican || written[codeLength] == zero
                packed.append(zeros: keepsNational ? 0 : 1, [], national, findsRuns: true)
            }
            packed.append(zeros: 2, [], all, findsRuns: false)
        case .none:
            if let region, let code = callingCodes[region.uppercased()] {
                let code = Array(code.utf16)
                let national = written[0] == zero ? 1..<written.count : all
                packed.append(zeros: 0, code, national, findsRuns: false)
                if written[0] == zero { packed.append(zeros: 0, code, all, findsRuns: false) }
                packed.append(zeros: 2, code, national, findsRuns: false)
            }
        }
        return packed
    }

    /// The prefix and digits of any number, as `PhoneNumberInput` reads it.
    static func parsedNumber(_ raw: String) -> (PhoneNumberInput.Prefix, [UInt16]) {
        let input = PhoneNumberInput(raw)
        return (input.prefix, input.dialable.utf16.filter { $0 >= zero && $0 <= zero + 9 })
    }

    /// The prefix and digits of a number written with nothing but digits and the usual
    /// separators, the common case, read without `PhoneNumberInput`'s general parsing (and
    /// read the same); nil for any other.
    static func plainNumber(_ raw: String, extraCapacity: Int = 4) -> (PhoneNumberInput.Prefix, [UInt16])? {
        var digits: [UInt16] = []
        digits.reserveCapacity(raw.utf8.count + extraCapacity)
        var plus = false, bracket = false
        var raw = raw
        let plain = raw.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digits.append(UInt16(byte))
                case UInt8(ascii: "+") where digits.isEmpty && !plus: plus = true
                case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "/"): continue
                case UInt8(ascii: "("): bracket = true
                case UInt8(ascii: ")"): continue
                default: return false
                }
            }
            return true
        }
        guard plain else { return nil }
        if plus, bracket {
            // "+49 (0)30 …": the bracketed trunk 0 is not dialled. Like PhoneNumberInput, drop
            // the first "(0)" of a number that starts with "+" (for any other, ask it).
            let bytes = Array(raw.utf8)
            guard bytes.first(where: { $0 != UInt8(ascii: " ") }) == UInt8(ascii: "+") else { return nil }
            let trunk = bytes.indices.dropLast(2).first {
                bytes[$0] == UInt8(ascii: "(") && bytes[$0 + 1] == UInt8(ascii: "0")
                    && bytes[$0 + 2] == UInt8(ascii: ")")
            }
            if let trunk {
                digits.remove(
                    at: bytes[..<trunk].count { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            }
        }
        if plus { return (.plus, digits) }
        if digits.starts(with: [zero, zero]) {
            digits.removeFirst(2)
            return (.doubleZero, digits)
        }
        return (.none, digits)
    }

    /// How many digits the country calling code takes that a number written with its
    /// international prefix starts with: ITU-T E.164 codes are prefix-free, one digit for 1 and
    /// 7, two digits for the codes below, three for every other; nil for four digits or fewer.
    static func callingCodeLength(startOf digits: [UInt16]) -> Int? {
        guard digits.count > 3 else { return nil }
        let first = Int(digits[0] - zero), second = Int(digits[1] - zero)
        if first == 1 || first == 7 { return 1 }
        // The two-digit codes, as a switch: no hashing, and no set to initialize lazily.
        switch first * 10 + second {
        case 20, 27, 30...34, 36, 39, 40, 41, 43...49, 51...58, 60...66, 81, 82, 84, 86, 90...95, 98: return 2
        default: return 3
        }
    }

    /// Calling codes of the regions a site is likely to set as `phoneRegion`.
    static let callingCodes: [String: String] = [
        "US": "1", "CA": "1", "RU": "7", "KZ": "7", "EG": "20", "ZA": "27", "GR": "30", "NL": "31",
        "BE": "32", "FR": "33", "ES": "34", "HU": "36", "IT": "39", "RO": "40", "CH": "41", "AT": "43",
        "GB": "44", "DK": "45", "SE": "46", "NO": "47", "PL": "48", "DE": "49", "PE": "51", "MX": "52",
        "CU": "53", "AR": "54", "BR": "55", "CL": "56", "CO": "57", "VE": "58", "MY": "60", "AU": "61",
        "ID": "62", "PH": "63", "NZ": "64", "SG": "65", "TH": "66", "JP": "81", "KR": "82", "VN": "84",
        "CN": "86", "TR": "90", "IN": "91", "PK": "92", "AF": "93", "LK": "94", "MM": "95", "IR": "98",
        "PT": "351", "LU": "352", "IE": "353", "IS": "354", "FI": "358", "CZ": "420", "SK": "421",
        "LI": "423", "HK": "852", "MO": "853", "TW": "886", "IL": "972", "AE": "971", "SA": "966",
        "UA": "380", "HR": "385", "SI": "386", "RS": "381", "BG": "359", "LT": "370", "LV": "371",
        "EE": "372", "MT": "356", "CY": "357",
    ]
}
