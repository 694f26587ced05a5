import Foundation
@testable import RolodeckSearch

/// Reads a built index the way `Public/search.js` does, so tests can run queries against the
/// files and see which pieces each query needs.
struct SearchIndexReader {
    struct ReadError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parsed JSON of every piece, by id.
    let pieces: [String: [String: Any]]
    let root: [String: Any]
    let termSeparators: [String]
    let hotSeparators: [String]
    let contactCount: Int
    let rowsPerPiece: Int
    /// Keys and encoded lists of every term and hot piece, parsed once.
    private let parsedEntries: [String: (keys: [String], lists: [String])]

    /// Reads `search/*.js` out of a site's files; each must be exactly one call.
    init(files: [String: [UInt8]]) throws {
        var pieces: [String: [String: Any]] = [:]
        for (path, bytes) in files where path.hasPrefix("search/") {
            let id = String(path.dropFirst("search/".count).dropLast(".js".count))
            pieces[id] = try Self.parse(String(decoding: bytes, as: UTF8.self), id: id)
        }
        guard let root = pieces["root"] else { throw ReadError(description: "no search/root.js") }
        self.pieces = pieces
        self.root = root
        termSeparators = root["terms"] as? [String] ?? []
        hotSeparators = root["hot"] as? [String] ?? []
        contactCount = root["contacts"] as? Int ?? -1
        rowsPerPiece = root["rowsPerPiece"] as? Int ?? -1
        parsedEntries = pieces.compactMapValues { piece in
            ((piece["terms"] ?? piece["prefixes"]) as? String).map(Self.entries(in:))
        }
    }

    /// The JSON a piece file hands over; throws unless the file is `rolodeckSearchPiece('id','…');`.
    static func parse(_ text: String, id: String) throws -> [String: Any] {
        let head = "rolodeckSearchPiece('\(id)','", tail = "');\n"
        guard text.hasPrefix(head), text.hasSuffix(tail) else {
            throw ReadError(description: "\(id): not one call")
        }
        var json = ""
        var escaped = false
        for character in text.dropFirst(head.count).dropLast(tail.count) {
            if escaped {
                guard character == "\\" || character == "'" else {
                    throw ReadError(description: "\(id): \\\(character)")
                }
                json.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "'" {
                throw ReadError(description: "\(id): unescaped quote ends the literal early")
            } else {
                json.append(character)
            }
        }
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw ReadError(description: "\(id): not a JSON object")
        }
        return object
    }

    /// Keys and encoded lists of a term or hot piece.
    func entries(_ id: String) -> (keys: [String], lists: [String]) {
        parsedEntries[id] ?? ([], [])
    }

    /// Decodes the entries of a term or hot piece: front-coded keys, encoded lists.
    static func entries(in text: String) -> (keys: [String], lists: [String]) {
        var keys: [String] = [], lists: [String] = []
        var previous: [UInt16] = []
        var units = Array(text.utf16)[...]
        while !units.isEmpty {
            let shared = Self.number(&units)
            let colon = units.firstIndex(of: UInt16(UInt8(ascii: ":")))!
            previous = Array(previous.prefix(shared)) + units[..<colon]
            let end = units[colon...].firstIndex(of: UInt16(UInt8(ascii: ";")))!
            keys.append(String(decoding: previous, as: UTF16.self))
            lists.append(String(decoding: units[(colon + 1)..<end], as: UTF16.self))
            units = units[(end + 1)...]
        }
        return (keys, lists)
    }

    static let digitValues: [UInt16: Int] = Dictionary(
        uniqueKeysWithValues:
            "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_$".utf16.enumerated().map {
                ($1, $0)
            })

    static func number(_ units: inout ArraySlice<UInt16>) -> Int {
        var value = 0
        while let unit = units.popFirst() {
            let digit = digitValues[unit]!
            if digit >= 32 { value = value * 32 + digit - 32 } else { return value * 32 + digit }
        }
        return value
    }

    /// The contacts of one encoded list.
    static func decode(list: String) -> [Int] {
        var units = Array(list.utf16)[...]
        var contacts: [Int] = []
        if units.first == UInt16(UInt8(ascii: "*")) {
            units = units.dropFirst()
            let first = number(&units)
            _ = number(&units)
            for (index, unit) in units.enumerated() {
                let bits = digitValues[unit]!
                for bit in 0..<6 where bits & (1 << bit) != 0 { contacts.append(first + index * 6 + bit) }
            }
            return contacts
        }
        var previous = -1
        while !units.isEmpty {
            previous += 1 + number(&units)
            contacts.append(previous)
        }
        return contacts
    }

    /// The piece a key belongs to, as search.js finds it.
    static func piece(of key: String, separators: [String]) -> Int {
        var low = 0, high = separators.count
        while low < high {
            let middle = (low + high) / 2
            if key.utf16.lexicographicallyPrecedes(separators[middle].utf16) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return max(0, low - 1)
    }

    /// How one word finds each contact (contact → best tier) and the piece it needed.
    func word(_ key: String) -> (tiers: [Int: Int], piece: String) {
        let tierCount = key.utf16.count >= SearchTerms.minimumInsideLength(of: Array(key.utf16)) ? 3 : 2
        var best: [Int: Int] = [:]
        func merge(_ lists: String) {
            for (tier, list) in lists.split(separator: ",", omittingEmptySubsequences: false).prefix(
                tierCount
            ).enumerated() {
                for contact in Self.decode(list: String(list)) {
                    best[contact] = min(best[contact] ?? tier, tier)
                }
            }
        }
        let hot = termSeparators.contains { $0.utf16.count > key.utf16.count && $0.hasPrefix(key) }
        if hot {
            let id = "h\(Self.piece(of: key, separators: hotSeparators))"
            let (keys, lists) = entries(id)
            if let index = keys.firstIndex(of: key) { merge(lists[index]) }
            return (best, id)
        }
        let id = "t\(Self.piece(of: key, separators: termSeparators))"
        let (keys, lists) = entries(id)
        for (index, candidate) in keys.enumerated() where candidate.utf16.starts(with: key.utf16) {
            merge(lists[index])
        }
        return (best, id)
    }

    /// Contact numbers a query finds, best first, and the pieces besides the root it needed.
    func search(_ query: String) -> (contacts: [Int], pieces: Set<String>) {
        let keys = SearchFolding.queryKeys(query).map { String(decoding: $0, as: UTF16.self) }
        guard !keys.isEmpty else { return ([], []) }
        let words = keys.map(word)
        var scored: [(score: Int, contact: Int)] = []
        for (contact, tier) in words[0].tiers {
            var score = tier
            var all = true
            for other in words.dropFirst() {
                guard let tier = other.tiers[contact] else {
                    all = false
                    break
                }
                score += tier
            }
            if all { scored.append((score, contact)) }
        }
        scored.sort { ($0.score, $0.contact) < ($1.score, $1.contact) }
        return (scored.map(\.contact), Set(words.map(\.piece)))
    }

    /// The row of a contact and the id of the piece it is in.
    func row(_ contact: Int) -> (row: [Any], piece: String) {
        let id = "r\(contact / rowsPerPiece)"
        let rows = pieces[id]?["rows"] as? [[Any]] ?? []
        return (rows[contact % rowsPerPiece], id)
    }
}
