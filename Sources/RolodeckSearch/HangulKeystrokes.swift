/// Hangul spelled as the keys a Korean (2-beolsik) keyboard types, in compatibility jamo.
///
/// Search compares Hangul letter by letter in this form, so that whatever the input method
/// shows half-way through typing is a prefix of the finished text: 처 (ㅊㅓ) on the way to 철
/// (ㅊㅓㄹ), 성 (ㅅㅓㅇ) on the way to 서울 (ㅅㅓㅇㅜㄹ), 고 (ㄱㅗ) on the way to 과 (ㄱㅗㅏ).
/// Compound vowels and final-consonant clusters are split into their keys for that reason;
/// tense consonants (ㄲ ㄸ ㅃ ㅆ ㅉ) are one key each and stay whole.
enum HangulKeystrokes {
    /// What a conjoining jamo (as Unicode decomposition yields them) contributes to a key.
    enum Jamo: Equatable {
        /// A leading consonant (choseong): starts a syllable; its compatibility jamo.
        case initial(UInt16)
        /// A vowel or final consonant: the keys it is typed with.
        case following([UInt16])
    }

    /// Initial consonants ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ (U+1100…U+1112).
    private static let initials: [UInt16] = [
        0x3131, 0x3132, 0x3134, 0x3137, 0x3138, 0x3139, 0x3141, 0x3142, 0x3143, 0x3145,
        0x3146, 0x3147, 0x3148, 0x3149, 0x314A, 0x314B, 0x314C, 0x314D, 0x314E,
    ]

    /// Vowels ㅏ…ㅣ (U+1161…U+1175); ㅘ is typed ㅗ then ㅏ, and so on.
    private static let vowels: [[UInt16]] = [
        [0x314F], [0x3150], [0x3151], [0x3152], [0x3153], [0x3154], [0x3155], [0x3156], [0x3157],
        [0x3157, 0x314F], [0x3157, 0x3150], [0x3157, 0x3163], [0x315B], [0x315C], [0x315C, 0x3153],
        [0x315C, 0x3154], [0x315C, 0x3163], [0x3160], [0x3161], [0x3161, 0x3163], [0x3163],
    ]

    /// Final consonants (U+11A8…U+11C2); ㄳ is typed ㄱ then ㅅ, and so on.
    private static let finals: [[UInt16]] = [
        [0x3131], [0x3132], [0x3131, 0x3145], [0x3134], [0x3134, 0x3148], [0x3134, 0x314E], [0x3137],
        [0x3139], [0x3139, 0x3131], [0x3139, 0x3141], [0x3139, 0x3142], [0x3139, 0x3145],
        [0x3139, 0x314C], [0x3139, 0x314D], [0x3139, 0x314E], [0x3141], [0x3142], [0x3142, 0x3145],
        [0x3145], [0x3146], [0x3147], [0x3148], [0x314A], [0x314B], [0x314C], [0x314D], [0x314E],
    ]

    /// The keys of a modern conjoining jamo; nil for any other scalar.
    static func jamo(_ scalar: Unicode.Scalar) -> Jamo? {
        let value = scalar.value
        switch value {
        case 0x1100...0x1112: return .initial(initials[Int(value - 0x1100)])
        case 0x1161...0x1175: return .following(vowels[Int(value - 0x1161)])
        case 0x11A8...0x11C2: return .following(finals[Int(value - 0x11A8)])
        default: return nil
        }
    }
}
