/// The script family a directory section belongs to.
public enum SectionScript: String, Hashable, Sendable, CaseIterable {
    /// Latin letters (A–Z plus locale letters such as Swedish Å Ä Ö).
    case latin
    /// Korean initial consonants ㄱ…ㅎ.
    case hangul
    /// Japanese kana rows あ…わ.
    case kana
    /// The catch-all `#` section for digits, symbols and unplaceable names.
    case other

    /// The BCP 47 language whose script the section heading is written in, if any.
    public var headingLanguage: String? {
        switch self {
        case .latin, .other: return nil
        case .hangul: return "ko"
        case .kana: return "ja"
        }
    }
}

/// One section of the alphabetized directory, such as "A", "ㄱ", "あ" or "#".
///
/// Sections order by `rank`, which a `SectionLabeler` assigns so that the
/// locale's own script comes first and `#` comes last.
public struct DirectorySection: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The heading shown on the page.
    public let label: String
    /// A stable ASCII identifier for HTML ids and URL fragments, unique per label.
    public let anchor: String
    /// The position of the section on the page; lower ranks come first.
    let rank: Int
    /// The script family of the section.
    public let script: SectionScript

    /// Creates a section; normally obtained from a `SectionLabeler`.
    init(label: String, anchor: String, rank: Int, script: SectionScript) {
        self.label = label
        self.anchor = anchor
        self.rank = rank
        self.script = script
    }

    /// The catch-all section for digits, symbols and anything unplaceable.
    static let other = DirectorySection(label: "#", anchor: "other", rank: 10_000, script: .other)

    /// Orders sections by rank, then by anchor so unrelated sections never tie.
    public static func < (lhs: DirectorySection, rhs: DirectorySection) -> Bool {
        if lhs.rank != rhs.rank { return lhs.rank < rhs.rank }
        return lhs.anchor.utf8.lexicographicallyPrecedes(rhs.anchor.utf8)
    }

    /// The label, for debugging output.
    public var description: String { label }
}
