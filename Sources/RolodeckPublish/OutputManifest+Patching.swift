extension OutputManifest {
    /// The text of the manifest `bytes` with a new heading (`fingerprint`, no statuses) and the
    /// sizes of the `changed` files, each of which it lists already; what `bytes(fingerprint:listing:)`
    /// makes of the same files. Nil when `bytes` is not a manifest or does not list one of them.
    ///
    /// A watch save rewrites a few pages of a site of hundreds of thousands of files: the files'
    /// lines are found by a binary search of the sorted list, and the rest copied as it is,
    /// instead of sorting and writing every path again.
    static func patching(_ bytes: [UInt8], fingerprint: String, sizes changed: [(path: String, size: Int)])
        -> [UInt8]?
    {
        guard let (_, _, listStart) = header(of: bytes) else { return nil }
        return bytes.withUnsafeBufferPointer { text -> [UInt8]? in
            // The line of each changed file: where it starts, and where its path starts.
            var lines: [(start: Int, path: Int, end: Int, size: Int)] = []
            for file in changed {
                guard let line = find(Array(file.path.utf8), in: text, from: listStart) else { return nil }
                lines.append((line.start, line.path, line.end, file.size))
            }
            lines.sort { $0.start < $1.start }
            var result = head(fingerprint: fingerprint, statuses: nil)
            result.reserveCapacity(result.count + text.count - listStart + 20 * lines.count)
            var copied = listStart
            var digits = [UInt8](repeating: 0, count: 24)
            for line in lines where line.start >= copied {
                result += text[copied..<line.start]
                let count = digits.withUnsafeMutableBufferPointer { writeDecimal(line.size, into: $0, at: 0) }
                result += digits[..<count]
                // The space, the path and the newline as they were.
                copied = line.path - 1
            }
            result += text[copied...]
            return result
        }
    }

    /// The line listing `path` in the sorted list that starts at `listStart`: where the line
    /// starts, where its path starts, and where it ends (its newline).
    private static func find(_ path: [UInt8], in text: UnsafeBufferPointer<UInt8>, from listStart: Int)
        -> (start: Int, path: Int, end: Int)?
    {
        // Every line in [low, high) is still a candidate; both are always the starts of lines.
        var low = listStart, high = text.count
        while low < high {
            var start = (low + high) / 2
            while start > low, text[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            let end = lineEnd(in: text, from: start)
            guard let space = text[start..<end].firstIndex(of: UInt8(ascii: " ")) else { return nil }
            let listed = UnsafeBufferPointer(rebasing: text[(space + 1)..<end])
            if listed.elementsEqual(path) { return (start, space + 1, end) }
            if listed.lexicographicallyPrecedes(path) {
                low = end + 1
            } else {
                high = start
            }
        }
        return nil
    }
}
