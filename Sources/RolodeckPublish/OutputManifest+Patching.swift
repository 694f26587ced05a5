extension OutputManifest {
    /// Patches the manifest text `bytes` into what `bytes(fingerprint:photos:listing:)` makes of
    /// the files after a watch save: a new heading (`fingerprint` and `photos`, no statuses),
    /// and for each of `changes` the file's new size, or nil for a file removed; a file the
    /// manifest does not list yet is added in its place. Returns false, leaving `bytes` as they
    /// were, when they are not a manifest.
    ///
    /// A save rewrites a few pages of a site of hundreds of thousands of files: the files' lines
    /// are found by a binary search of the sorted list, and the rest is left where it lies when
    /// no line changes length (a phone number edited: the sizes keep their digits), or else
    /// copied as it is, instead of sorting and writing every path again.
    static func patch(
        _ bytes: inout [UInt8], fingerprint: String, photos: String? = nil,
        changes: [(path: String, size: Int?)]
    ) -> Bool {
        guard let listStart = header(of: bytes)?.listStart else { return false }
        let head = head(fingerprint: fingerprint, statuses: nil, photos: photos)
        // Each change's line: where it starts (or would start), where its path starts, where it
        // ends, and whether the manifest lists the file.
        var lines: [(start: Int, path: Int, end: Int, listed: Bool, file: (path: [UInt8], size: Int?))] = []
        lines.reserveCapacity(changes.count)
        // A path given twice is changed as it is given last.
        var last: [String: Int] = [:]
        for (index, change) in changes.enumerated() { last[change.path] = index }
        bytes.withUnsafeBufferPointer { text in
            for (index, change) in changes.enumerated() where last[change.path] == index {
                let path = Array(change.path.utf8)
                let line = locate(path, in: text, from: listStart)
                // A file removed that the manifest does not list needs nothing.
                if !line.listed && change.size == nil { continue }
                lines.append((line.start, line.path, line.end, line.listed, (path, change.size)))
            }
        }
        lines.sort {
            $0.start != $1.start ? $0.start < $1.start : $0.file.path.lexicographicallyPrecedes($1.file.path)
        }
        var digits = [UInt8](repeating: 0, count: 24)
        func decimal(_ value: Int) -> ArraySlice<UInt8> {
            digits[..<digits.withUnsafeMutableBufferPointer { writeDecimal(value, into: $0, at: 0) }]
        }
        let inPlace =
            head.count == listStart
            && lines.allSatisfy { line in
                line.listed && line.file.size.map { decimal($0).count == line.path - 1 - line.start } == true
            }
        if inPlace {
            bytes.withUnsafeMutableBufferPointer { text in
                _ = text.update(fromContentsOf: head)
                for line in lines {
                    let size = decimal(line.file.size!)
                    _ = text[line.start..<line.start + size.count].update(fromContentsOf: size)
                }
            }
            return true
        }
        var result = head
        result.reserveCapacity(bytes.count - listStart + head.count + lines.count * 24)
        var copied = listStart
        for line in lines {
            // Each path is here once, and a file added sorts before the line it stands at, so no
            // line starts before what is copied; a guard, not to copy backwards if one did.
            guard line.start >= copied else { return false }
            result += bytes[copied..<line.start]
            copied = line.start
            // A last line without its newline (a damaged text) ends the text.
            if line.listed { copied = min(line.end + 1, bytes.count) }
            guard let size = line.file.size else { continue }
            result += decimal(size)
            result.append(UInt8(ascii: " "))
            result += line.file.path
            result.append(UInt8(ascii: "\n"))
        }
        result += bytes[copied...]
        bytes = result
        return true
    }

    /// The line listing `path` in the sorted list that starts at `listStart`: where it starts,
    /// where its path starts, and where it ends (its newline). When no line lists it, where its
    /// line would start (before the first line whose path sorts after it), and `listed` false.
    private static func locate(_ path: [UInt8], in text: UnsafeBufferPointer<UInt8>, from listStart: Int)
        -> (start: Int, path: Int, end: Int, listed: Bool)
    {
        // Every line in [low, high) is still a candidate; both are always the starts of lines.
        var low = listStart, high = text.count
        while low < high {
            var start = (low + high) / 2
            while start > low, text[start - 1] != UInt8(ascii: "\n") { start -= 1 }
            let end = lineEnd(in: text, from: start)
            let space = text[start..<end].firstIndex(of: UInt8(ascii: " ")) ?? start
            let listed = UnsafeBufferPointer(rebasing: text[min(space + 1, end)..<end])
            if listed.elementsEqual(path) { return (start, space + 1, end, true) }
            if listed.lexicographicallyPrecedes(path) {
                low = end + 1
            } else {
                high = start
            }
        }
        // Past a last line without its newline (a damaged text), the end of the text.
        let place = min(low, text.count)
        return (place, place, place, false)
    }
}
