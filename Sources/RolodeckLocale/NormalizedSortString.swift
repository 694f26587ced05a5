import Foundation

/// A sort string normalized once for both sectioning and collation: NFKC
/// (so NFD input, full-width Latin and half-width kana behave like their
/// ordinary forms), with leading whitespace and punctuation removed.
struct NormalizedSortString: Sendable, Hashable {
    /// The normalized text that sections and collation look at.
    let text: String

    /// Normalizes `raw`.
    init(_ raw: String) {
        if raw.utf8.allSatisfy({ $0 < 0x80 }) {
            // ASCII is already in NFKC, so only the leading characters need work.
            let utf8 = raw.utf8
            let start = utf8.firstIndex { !Self.asciiIgnorable[Int($0)] } ?? utf8.endIndex
            text = String(raw[start...])
            return
        }
        let normalized = raw.precomposedStringWithCompatibilityMapping
        let scalars = normalized.unicodeScalars
        let start = scalars.firstIndex { !Self.isIgnorableLeading($0) } ?? scalars.endIndex
        text = String(scalars[start...])
    }

    /// The first significant scalar and the one after it, if any.
    var leadingScalars: (first: Unicode.Scalar, next: Unicode.Scalar?)? {
        var iterator = text.unicodeScalars.makeIterator()
        guard let first = iterator.next() else { return nil }
        return (first, iterator.next())
    }

    /// Whether a scalar is skipped at the start of a sort string: whitespace and
    /// separators (Z*), punctuation (P*), controls and format characters, stray
    /// combining marks, and the modifier-letter apostrophes ʻ ʼ ʽ.
    static func isIgnorableLeading(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return asciiIgnorable[Int(scalar.value)] }
        if (0x02BB...0x02BD).contains(scalar.value) { return true }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .spaceSeparator, .lineSeparator, .paragraphSeparator,
             .control, .format, .nonspacingMark, .spacingMark, .enclosingMark:
            return true
        default:
            return false
        }
    }

    private static let asciiIgnorable: [Bool] = (0..<128).map { value in
        let scalar = Unicode.Scalar(UInt8(value))
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation, .spaceSeparator, .control:
            return true
        default:
            return false
        }
    }
}
