#if canImport(Glibc)
    import Glibc
#endif

/// Finds where each element of a top-level JSON array starts and ends, without parsing them,
/// so that large store files can be parsed element by element on every core and each element's
/// tree freed as soon as it is decoded.
///
/// The scan only tracks strings and nesting. Anything it does not expect returns nil, and the
/// caller parses the whole document instead, which reports the mistake precisely.
///
/// The scan is on one core, before any parsing can start; `pieceStarts` instead guesses where
/// pieces of the array may start without reading what lies between, for a parser that finds
/// each element's end anyway (`JSONParser.readElements`) and checks the guess.
enum JSONArraySplitter {
    /// The byte ranges of the elements of the array that makes up the document, or nil.
    static func elements(of bytes: [UInt8]) -> [Range<Int>]? {
        bytes.withUnsafeBufferPointer { buffer -> [Range<Int>]? in
            var index =
                buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF ? 3 : 0
            index = skipWhitespace(buffer, from: index)
            guard index < buffer.count, buffer[index] == UInt8(ascii: "[") else { return nil }
            index = skipWhitespace(buffer, from: index + 1)
            var ranges: [Range<Int>] = []
            if index < buffer.count, buffer[index] == UInt8(ascii: "]") {
                return skipWhitespace(buffer, from: index + 1) == buffer.count ? ranges : nil
            }
            guard case .finished = scan(buffer, from: index, into: &ranges, resumingAt: { _ in false }) else {
                return nil
            }
            return ranges
        }
    }

    /// The byte ranges of the elements of `bytes`, a document that was `old` (whose elements
    /// were `oldElements`) before an edit: the elements before the first byte that differs are
    /// the old ones, those after the last are the old ones moved by the change of length, and
    /// only the stretch between is scanned (one contact edited in a `contacts.json` of 70 MB
    /// scans that contact). The same as `elements(of: bytes)`, which it falls back to when the
    /// edit is not between two elements.
    /// `commonEnds` is what `commonEnds(old, bytes)` says, when the caller knows it.
    static func elements(
        of bytes: [UInt8], patching old: [UInt8], elements oldElements: [Range<Int>],
        commonEnds ends: (prefix: Int, suffix: Int)? = nil
    ) -> [Range<Int>]? {
        let (prefix, suffix) = ends ?? commonEnds(old, bytes)
        if prefix == bytes.count, bytes.count == old.count { return oldElements }
        // The elements kept are those that end, with the comma after them, before the edit.
        var kept = 0
        while kept < oldElements.count, oldElements[kept].upperBound < prefix { kept += 1 }
        guard kept > 0, kept < oldElements.count else { return elements(of: bytes) }
        let delta = bytes.count - old.count
        let boundary = bytes.count - suffix
        /// The old element that starts where an element of the new document starts at `start`,
        /// when every byte from there on is the old document's.
        func oldElement(startingAt start: Int) -> Int? {
            guard start >= boundary else { return nil }
            var low = kept, high = oldElements.count
            while low < high {
                let middle = (low + high) / 2
                if oldElements[middle].lowerBound < start - delta { low = middle + 1 } else { high = middle }
            }
            return low < oldElements.count && oldElements[low].lowerBound == start - delta ? low : nil
        }
        var ranges = Array(oldElements[..<kept])
        let result = bytes.withUnsafeBufferPointer { buffer in
            scan(buffer, from: oldElements[kept - 1].upperBound + 1, into: &ranges) {
                oldElement(startingAt: $0) != nil
            }
        }
        switch result {
        case .finished:
            return ranges
        case .resumed(let start):
            let rest = oldElements[oldElement(startingAt: start)!...]
            ranges += rest.map { ($0.lowerBound + delta)..<($0.upperBound + delta) }
            return ranges
        case .failed:
            return nil
        }
    }

    /// How a scan of elements ended.
    private enum ScanEnd {
        /// The array closed, with nothing but whitespace after it.
        case finished
        /// `resumingAt` took the element starting at this offset: the caller knows the rest.
        case resumed(Int)
        /// The document is not an array of elements the scan understands.
        case failed
    }

    /// Scans elements from `start` (where an element, or the whitespace before one, begins) to
    /// the end of the array, adding each one's range; stops at an element whose start
    /// `resumingAt` takes.
    private static func scan(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, into ranges: inout [Range<Int>],
        resumingAt: (Int) -> Bool
    ) -> ScanEnd {
        var index = start
        while index < buffer.count {
            index = skipWhitespace(buffer, from: index)
            let start = index
            if resumingAt(start) { return .resumed(start) }
            var depth = 0
            scan: while index < buffer.count {
                switch buffer[index] {
                case UInt8(ascii: "\""):
                    index = JSONStringScanner.nextSpecialByte(in: buffer, from: index + 1)
                    while index < buffer.count, buffer[index] != UInt8(ascii: "\"") {
                        // A backslash hides the byte after it; control characters are the
                        // parser's to report.
                        index += buffer[index] == UInt8(ascii: "\\") ? 2 : 1
                        index = JSONStringScanner.nextSpecialByte(in: buffer, from: index)
                    }
                    guard index < buffer.count else { return .failed }
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    if depth == 0 { break scan }
                    depth -= 1
                case UInt8(ascii: ","):
                    if depth == 0 { break scan }
                default:
                    break
                }
                index += 1
            }
            guard index < buffer.count, index > start else { return .failed }
            ranges.append(start..<index)
            if buffer[index] == UInt8(ascii: "]") {
                return skipWhitespace(buffer, from: index + 1) == buffer.count ? .finished : .failed
            }
            guard buffer[index] == UInt8(ascii: ",") else { return .failed }
            index += 1
        }
        return .failed
    }

    /// Whether `byte` is JSON whitespace.
    @inline(__always)
    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    /// The offset of the first byte from `index` on that is not JSON whitespace.
    private static func skipWhitespace(_ buffer: UnsafeBufferPointer<UInt8>, from index: Int) -> Int {
        var index = index
        while index < buffer.count, isWhitespace(buffer[index]) { index += 1 }
        return index
    }

    /// How many bytes two documents share at their start, and at their end besides those.
    static func commonEnds(_ left: [UInt8], _ right: [UInt8]) -> (prefix: Int, suffix: Int) {
        left.withUnsafeBytes { left in
            right.withUnsafeBytes { right in
                let common = min(left.count, right.count)
                guard common > 0 else { return (0, 0) }
                let block = 4096
                var prefix = 0
                // Whole blocks with memcmp, then byte by byte in the first that differs.
                while prefix + block <= common,
                    memcmp(left.baseAddress! + prefix, right.baseAddress! + prefix, block) == 0
                { prefix += block }
                while prefix < common, left[prefix] == right[prefix] { prefix += 1 }
                var suffix = 0
                let most = common - prefix
                while suffix + block <= most,
                    memcmp(
                        left.baseAddress! + left.count - suffix - block,
                        right.baseAddress! + right.count - suffix - block, block) == 0
                { suffix += block }
                while suffix < most, left[left.count - 1 - suffix] == right[right.count - 1 - suffix] {
                    suffix += 1
                }
                return (prefix, suffix)
            }
        }
    }

    /// Where the elements of the array that makes up the document may be cut into pieces of
    /// about `pieceLength` bytes: the first element's start, then after each further
    /// `pieceLength` bytes or so the next line that looks like an element's start. An array whose
    /// first element does not start a line of its own is cut where objects begin as its first
    /// does (`objectStarts`). Nil when the document does not open an array, or neither applies.
    ///
    /// A raw line break is never inside a JSON string, so a line that starts with the first
    /// element's indentation and first byte, after a line ending in a comma, starts an element
    /// in any file written one element per line or indented consistently. It is still only a
    /// guess: whoever parses the piece before one must check that it ends exactly there.
    static func pieceStarts(of bytes: [UInt8], pieceLength: Int) -> [Int]? {
        bytes.withUnsafeBufferPointer { buffer -> [Int]? in
            let hasBOM = buffer.count >= 3 && buffer[0] == 0xEF && buffer[1] == 0xBB && buffer[2] == 0xBF
            var index = hasBOM ? 3 : 0
            while index < buffer.count, isWhitespace(buffer[index]) { index += 1 }
            guard index < buffer.count, buffer[index] == UInt8(ascii: "[") else { return nil }
            let open = index
            index += 1
            while index < buffer.count, isWhitespace(buffer[index]) { index += 1 }
            guard index < buffer.count, buffer[index] != UInt8(ascii: "]") else { return nil }
            let first = index
            // The first element's indentation: what lies between the last line break and it.
            var lineStart = first
            while lineStart > open + 1, buffer[lineStart - 1] != 0x0A { lineStart -= 1 }
            guard buffer[lineStart - 1] == 0x0A else {
                return objectStarts(in: buffer, first: first, pieceLength: pieceLength)
            }
            let indentation = UnsafeBufferPointer(rebasing: buffer[lineStart..<first])
            let opener = buffer[first]
            /// Whether an element seems to start on the line that starts at `start`.
            func startsElement(_ start: Int) -> Bool {
                let end = start + indentation.count
                guard end < buffer.count, buffer[end] == opener,
                    buffer[start..<end].elementsEqual(indentation)
                else { return false }
                var before = start - 1
                while before > first, isWhitespace(buffer[before]) { before -= 1 }
                return buffer[before] == UInt8(ascii: ",")
            }
            var starts = [first]
            var target = first + max(pieceLength, 1)
            while target < buffer.count {
                index = target
                while index < buffer.count, buffer[index] != 0x0A || !startsElement(index + 1) { index += 1 }
                guard index < buffer.count else { break }
                starts.append(index + 1 + indentation.count)
                target = index + 1 + max(pieceLength, 1)
            }
            return starts
        }
    }

    /// Where pieces may start in an array written without line breaks between its elements (as
    /// `JSON.stringify` and Python's `json.dump` write one), whose first element, at `first`, is
    /// an object: the first element, then after each further `pieceLength` bytes or so the next
    /// object that begins as the first does, up to and including its first key (`{"id"`), after
    /// a comma that follows a closing brace. Nil when the first element is not an object with a
    /// plain first key.
    ///
    /// Objects nested in an element begin with other keys, or after a colon or a bracket; a
    /// string that holds such text, or an element whose keys come in another order, makes a wrong
    /// guess or none, which the piece before it finds, as with a guess by line.
    private static func objectStarts(
        in buffer: UnsafeBufferPointer<UInt8>, first: Int, pieceLength: Int
    ) -> [Int]? {
        guard buffer[first] == UInt8(ascii: "{") else { return nil }
        // The object's opening up to its first key's closing quote.
        var end = skipWhitespace(buffer, from: first + 1)
        guard end < buffer.count, buffer[end] == UInt8(ascii: "\"") else { return nil }
        end += 1
        while end < buffer.count, buffer[end] != UInt8(ascii: "\""), buffer[end] != UInt8(ascii: "\\") {
            end += 1
        }
        guard end < buffer.count, buffer[end] == UInt8(ascii: "\"") else { return nil }
        let opening = UnsafeBufferPointer(rebasing: buffer[first...end])
        /// Whether an element seems to start at `start`, an opening brace.
        func startsElement(_ start: Int) -> Bool {
            guard start + opening.count <= buffer.count,
                memcmp(buffer.baseAddress! + start, opening.baseAddress!, opening.count) == 0
            else { return false }
            var before = start - 1
            while before > first, isWhitespace(buffer[before]) { before -= 1 }
            guard buffer[before] == UInt8(ascii: ",") else { return false }
            before -= 1
            while before > first, isWhitespace(buffer[before]) { before -= 1 }
            return buffer[before] == UInt8(ascii: "}")
        }
        var starts = [first]
        var target = first + max(pieceLength, 1)
        while target < buffer.count {
            var index = target
            while index < buffer.count, buffer[index] != UInt8(ascii: "{") || !startsElement(index) {
                index += 1
            }
            guard index < buffer.count else { break }
            starts.append(index)
            target = index + max(pieceLength, 1)
        }
        return starts
    }
}
