extension String {
    /// Whether the string is empty or only whitespace.
    var isBlank: Bool { allSatisfy(\.isWhitespace) }

    /// The string without leading and trailing whitespace (Swift's own notion of whitespace,
    /// without going through Foundation's slower `trimmingCharacters`).
    var trimmingWhitespace: String {
        var result = Substring(self)
        while let first = result.first, first.isWhitespace { result.removeFirst() }
        while let last = result.last, last.isWhitespace { result.removeLast() }
        return String(result)
    }
}
