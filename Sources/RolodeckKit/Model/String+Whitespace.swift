extension String {
    /// Whether the string is empty or only whitespace.
    var isBlank: Bool {
        // A visible ASCII character settles it without Unicode property lookups.
        if utf8.contains(where: { $0 > 0x20 && $0 < 0x7F }) { return false }
        return allSatisfy(\.isWhitespace)
    }

    /// The string without leading and trailing whitespace (Swift's own notion of whitespace,
    /// without going through Foundation's slower `trimmingCharacters`).
    var trimmingWhitespace: String {
        // Most text already starts and ends with a visible ASCII character.
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return self
        }
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }
}
