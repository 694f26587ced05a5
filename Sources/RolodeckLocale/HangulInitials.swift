/// The fourteen Korean initial consonants ㄱ…ㅎ used as directory sections.
enum HangulInitials {
    /// Section headings in page order; tense consonants fold into these.
    static let labels = ["ㄱ", "ㄴ", "ㄷ", "ㄹ", "ㅁ", "ㅂ", "ㅅ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]
    /// ASCII anchors from the Revised Romanization of each consonant, parallel to `labels`.
    static let anchors = [
        "ko-g", "ko-n", "ko-d", "ko-r", "ko-m", "ko-b", "ko-s",
        "ko-ng", "ko-j", "ko-ch", "ko-k", "ko-t", "ko-p", "ko-h",
    ]

    /// Section index of each of the 19 modern choseong, in Unicode order
    /// (ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ); ㄲ ㄸ ㅃ ㅆ ㅉ fold.
    private static let sectionOfChoseong = [0, 0, 1, 2, 2, 3, 4, 5, 5, 6, 6, 7, 8, 8, 9, 10, 11, 12, 13]

    /// Compatibility jamo U+3131…U+314E that are initial consonants, mapped to
    /// their choseong index (the others in that range are final clusters).
    private static let choseongOfCompatibilityJamo: [UInt32: Int] = [
        0x3131: 0, 0x3132: 1, 0x3134: 2, 0x3137: 3, 0x3138: 4, 0x3139: 5, 0x3141: 6, 0x3142: 7,
        0x3143: 8, 0x3145: 9, 0x3146: 10, 0x3147: 11, 0x3148: 12, 0x3149: 13, 0x314A: 14,
        0x314B: 15, 0x314C: 16, 0x314D: 17, 0x314E: 18,
    ]

    /// The section index 0…13 for a precomposed syllable (가…힣), a leading
    /// conjoining jamo (U+1100…U+1112) or a compatibility consonant (ㄱ…ㅎ).
    static func sectionIndex(of scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        if value >= 0xAC00 && value <= 0xD7A3 {
            return sectionOfChoseong[Int((value - 0xAC00) / 588)]
        }
        if value >= 0x1100 && value <= 0x1112 {
            return sectionOfChoseong[Int(value - 0x1100)]
        }
        if let choseong = choseongOfCompatibilityJamo[value] {
            return sectionOfChoseong[choseong]
        }
        return nil
    }
}
