/// How the root tells which piece holds a key, and which query prefixes are "hot".
///
/// Pieces hold sorted keys. Between two pieces the root keeps a separator: the shortest prefix
/// of the later piece's first key that sorts after the earlier piece's last key. A key belongs
/// to the last piece whose separator is at or before it.
///
/// A query prefix is hot when some separator starts with it and is longer: only then can the
/// keys starting with it run on into a second piece (the separator would otherwise be that
/// prefix or shorter). The build writes the merged results of every hot prefix into the hot
/// pieces, so that any one-word query needs exactly one piece besides the root.
enum SearchSeparators {
    /// The shortest prefix of `next` that sorts after `previous` (which sorts before `next`),
    /// never ending inside a surrogate pair.
    static func between(_ previous: [UInt16], _ next: [UInt16]) -> [UInt16] {
        var length = 1
        while length < next.count {
            if previous.lexicographicallyPrecedes(next[..<length]), !UTF16.isLeadSurrogate(next[length - 1]) {
                break
            }
            length += 1
        }
        return Array(next[..<min(length, next.count)])
    }

    /// The separators of pieces given by their first and last keys; the first piece's is empty.
    static func separators(firstKeys: [[UInt16]], lastKeys: [[UInt16]]) -> [[UInt16]] {
        firstKeys.indices.map { index in index == 0 ? [] : between(lastKeys[index - 1], firstKeys[index]) }
    }

    /// Every hot prefix: each separator's shorter prefixes, whole characters only, sorted.
    static func hotPrefixes(of separators: [[UInt16]]) -> [[UInt16]] {
        var hot = Set<[UInt16]>()
        for separator in separators {
            for length in 1..<max(1, separator.count) where !UTF16.isLeadSurrogate(separator[length - 1]) {
                hot.insert(Array(separator[..<length]))
            }
        }
        return hot.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
