import RolodeckCore

/// The label of a phone, email, address or URL: Apple's `X-ABLabel` for the property's group
/// when there is one, else the words of its `TYPE` parameters, in any of the ways they are
/// written (`TYPE=work;TYPE=voice`, `TYPE=work,voice`, `TYPE="work,voice"`, `type=WORK`, and
/// vCard 2.1's bare `WORK;VOICE`).
enum VCardLabel {
    /// Words that say nothing a reader of the directory needs (preferred, voice, internet …).
    private static let neutral: Set<String> = [
        "pref", "voice", "internet", "x400", "msg", "text", "video", "bbs", "modem", "pcs", "dom",
        "intl", "postal", "parcel",
    ]
    /// The kinds the interface translates; when a TYPE list has one, its other words are dropped
    /// ("iphone,cell" is a mobile).
    private static let known: Set<String> = ["home", "work", "cell", "mobile", "fax", "pager", "main", "other"]
    /// `neutral` and `known` as `packed` words, for looking up ASCII words without hashing them.
    private static let neutralPacked = neutral.compactMap(packed)
    private static let knownPacked = known.compactMap(packed)

    /// The label for a property, with the custom labels of its file's groups.
    static func label(of line: ContentLine, customLabels: [String: String]) -> String {
        if !line.group.isEmpty, let custom = customLabels[line.group] { return custom }
        // Nearly every phone, email and address has a label made of ASCII `TYPE` values: it is
        // made from their bytes, into one string, with no list of words (every label of 100,000
        // cards made an array and a string for each word, then the label from them).
        var capacity = 0
        var isASCII = true
        for parameter in line.parameters where parameter.name == "TYPE" {
            parameter.forEachValue { value in
                capacity += value.utf8.count + 1
                if isASCII, value.utf8.withContiguousStorageIfAvailable(ASCIIBytes.isASCII) != true {
                    isASCII = false
                }
            }
        }
        guard capacity > 0 else { return "" }
        guard isASCII else { return labelOfWords(line) }
        return asciiLabel(line, capacity: capacity)
    }

    /// `label` of a property whose `TYPE` values are ASCII, `capacity` bytes in all (with a
    /// separator each): its words lowercased into a buffer, then the label joined from them.
    private static func asciiLabel(_ line: ContentLine, capacity: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * capacity) { bytes in
            withUnsafeTemporaryAllocation(of: Range<Int>.self, capacity: capacity) { words in
                var used = 0
                var count = 0
                for parameter in line.parameters where parameter.name == "TYPE" {
                    parameter.forEachValue { value in
                        var value = value
                        value.withUTF8 { value in
                            forEachWord(in: value) { word in
                                for index in word.indices {
                                    bytes[used + index] = ASCIIBytes.lower(word[index])
                                }
                                let added = used..<(used + word.count)
                                for earlier in words[0..<count]
                                where bytes[earlier].elementsEqual(bytes[added]) {
                                    return
                                }
                                words[count] = added
                                count += 1
                                used += word.count
                            }
                        }
                    }
                }
                // Most labels are one word, a known kind or not: the kinds are filtered out only
                // when some words are and some are not.
                var kinds = 0
                for word in words[0..<count] where isKnown(UnsafeBufferPointer(rebasing: bytes[word])) {
                    kinds += 1
                }
                let keepsAll = kinds == 0 || kinds == count
                var written = used
                for word in words[0..<count]
                where keepsAll || isKnown(UnsafeBufferPointer(rebasing: bytes[word])) {
                    if written > used {
                        bytes[written] = UInt8(ascii: ",")
                        written += 1
                    }
                    for index in word {
                        bytes[written] = bytes[index]
                        written += 1
                    }
                }
                guard written > used else { return "" }
                return TextBytes.string(UnsafeBufferPointer(rebasing: bytes[used..<written]), isASCII: true)
            }
        }
    }

    /// Calls `body` with each word of an ASCII `TYPE` value (comma-separated, trimmed, without
    /// `x-`) that says something.
    @inline(__always)
    private static func forEachWord(
        in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: ",") { end += 1 }
            var word = ASCIIBytes.trimmingWhitespace(bytes, start..<end)
            start = end + 1
            if word.count >= 2, bytes[word.lowerBound] | 0x20 == UInt8(ascii: "x"),
                bytes[word.lowerBound + 1] == UInt8(ascii: "-")
            {
                word = (word.lowerBound + 2)..<word.upperBound
            }
            guard !word.isEmpty else { continue }
            let letters = UnsafeBufferPointer(rebasing: bytes[word])
            if let key = packed(letters), neutralPacked.contains(key) { continue }
            body(letters)
        }
    }

    /// Whether the lowercase ASCII word is one of the kinds the interface translates.
    private static func isKnown(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        packed(word).map(knownPacked.contains) ?? false
    }

    /// `label` from its words as strings, for `TYPE` values that are not all ASCII.
    private static func labelOfWords(_ line: ContentLine) -> String {
        var words: [String] = []
        for parameter in line.parameters where parameter.name == "TYPE" {
            parameter.forEachValue { value in
                var value = value
                let isASCII = value.withUTF8 { bytes in
                    guard ASCIIBytes.isASCII(bytes) else { return false }
                    addWords(bytes, to: &words)
                    return true
                }
                guard !isASCII else { return }
                for word in value.split(separator: ",") {
                    var text = String(word).trimmingWhitespace.lowercased()
                    if text.hasPrefix("x-") { text.removeFirst(2) }
                    if !text.isEmpty, !neutral.contains(text), !words.contains(text) { words.append(text) }
                }
            }
        }
        // Most labels are one word, a known kind or not: the kinds are filtered out only when
        // some words are and some are not.
        let kinds = words.count(where: isKnown)
        return VCardFields.joined(kinds == 0 || kinds == words.count ? words : words.filter(isKnown), ",")
    }

    /// Whether a word is one of the kinds the interface translates.
    private static func isKnown(_ word: String) -> Bool {
        packed(word).map(knownPacked.contains) ?? false
    }

    /// Adds the words of an ASCII `TYPE` value (comma-separated, trimmed, lowercased, without
    /// `x-`) that say something and are not among `words` yet.
    private static func addWords(_ bytes: UnsafeBufferPointer<UInt8>, to words: inout [String]) {
        forEachWord(in: bytes) { letters in
            let text = ASCIIBytes.string(letters, ASCIIBytes.lower)
            if !words.contains(text) { words.append(text) }
        }
    }

    /// The lowercase letters of an ASCII word of up to eight bytes as one number; nil for a
    /// longer word (none of those listed is) or one with a zero byte (which would look shorter).
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard bytes.count <= 8, !bytes.contains(0) else { return nil }
        var key: UInt64 = 0
        for byte in bytes.reversed() { key = key << 8 | UInt64(ASCIIBytes.lower(byte)) }
        return key
    }

    private static func packed(_ word: String) -> UInt64? {
        var word = word
        return word.withUTF8(packed)
    }

    /// Apple's `_$!<HomePage>!$_` as `HomePage`; any other label as written.
    static func unwrapped(_ label: String) -> String {
        LabeledValue.innerAppleLabel(label) ?? label.trimmingWhitespace
    }
}
