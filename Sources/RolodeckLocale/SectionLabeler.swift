/// Assigns each sort string to a directory section ("A", "Å", "ㄱ", "あ" or "#")
/// following the site locale's alphabet.
///
/// Page order: the locale's own script first, then Latin A–Z (unless that is
/// the locale's own script), then Hangul ㄱ…ㅎ, then kana あ…わ, then `#`.
struct SectionLabeler: Sendable {
    /// The locale identifier from the site configuration (`en` when blank).
    let localeIdentifier: String
    /// Every section this locale can produce, in page order, ending with `#`.
    let allSections: [DirectorySection]

    private let alphabet: LatinAlphabet
    private let latinSections: [DirectorySection]
    private let hangulSections: [DirectorySection]
    private let kanaSections: [DirectorySection]

    /// Creates a labeler for a locale identifier such as `en`, `de-AT`, `sv_SE`, `ko` or `ja`.
    init(localeIdentifier: String) {
        self.init(profile: LocaleProfile(localeIdentifier: localeIdentifier))
    }

    /// Creates a labeler for a locale profile.
    init(profile: LocaleProfile) {
        localeIdentifier = profile.identifier
        alphabet = profile.alphabet
        // Each script run gets its own block of ranks so runs never interleave.
        func block(_ script: SectionScript) -> Int {
            (profile.scriptOrder.firstIndex(of: script) ?? profile.scriptOrder.count) * 100
        }
        latinSections = profile.alphabet.letters.enumerated().map { index, letter in
            DirectorySection(label: letter.label, anchor: letter.anchor,
                             rank: block(.latin) + index, script: .latin)
        }
        hangulSections = HangulInitials.labels.indices.map { index in
            DirectorySection(label: HangulInitials.labels[index], anchor: HangulInitials.anchors[index],
                             rank: block(.hangul) + index, script: .hangul)
        }
        kanaSections = KanaRows.labels.indices.map { index in
            DirectorySection(label: KanaRows.labels[index], anchor: KanaRows.anchors[index],
                             rank: block(.kana) + index, script: .kana)
        }
        allSections = (latinSections + hangulSections + kanaSections).sorted() + [.other]
    }

    /// The section for a sort string (already chosen by the caller, e.g. the
    /// phonetic family name); digits, symbols and unplaceable text give `#`.
    func section(for sortString: String) -> DirectorySection {
        section(for: NormalizedSortString(sortString))
    }

    /// The section for a sort string already normalized.
    func section(for normalized: NormalizedSortString) -> DirectorySection {
        guard let (first, next) = normalized.leadingScalars else { return .other }
        if let index = alphabet.letterIndex(of: first, followedBy: next) {
            return latinSections[index]
        }
        if let index = HangulInitials.sectionIndex(of: first) {
            return hangulSections[index]
        }
        if let index = KanaRows.rowIndex(of: first) {
            return kanaSections[index]
        }
        return .other
    }
}
