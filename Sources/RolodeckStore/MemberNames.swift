import RolodeckCore

/// The member names one kind of store object knows, each a case of `Field` whose raw value is
/// the name, found by a key's length and then one comparison per name of that length.
///
/// A `switch` over key strings compares a key with one name after another, and a dictionary
/// hashes every key; a store of 100,000 contacts has millions of keys. Strings of equal length
/// rarely need more than one comparison here, and two equal short strings compare as one
/// integer. Comparing by length first changes no answer: every name is ASCII without the three
/// ASCII characters (K ; `) that another code point is canonically equivalent to, so a key
/// equal to a name has the name's bytes.
struct MemberNames<Field: CaseIterable & RawRepresentable<String>>: Sendable where Field: Sendable {
    /// The fields, in declaration order; a field's position is its index.
    let fields: [Field]
    /// The names, by index.
    private let names: [String]
    /// The indices of the fields, grouped by the UTF-8 length of their names.
    private let indicesByLength: [[Int]]
    /// The key table of the parser whose keys are looked up, if any.
    let keys: JSONKeyTable?
    /// The index of the field each key of `keys` names, by the key's position there (`noField`
    /// for a key that names none).
    private let indicesByKeyPosition: [UInt8]
    private static var noField: UInt8 { .max }

    /// A table of every case of `Field` (at most 64, so a set of them fits in one integer), for
    /// keys parsed with `keys`, when given.
    init(keys: JSONKeyTable? = nil) {
        let fields = Array(Field.allCases)
        let names = fields.map(\.rawValue)
        self.fields = fields
        self.names = names
        precondition(fields.count <= 64, "a MemberNames table holds at most 64 names")
        let withEquivalents = Array("K;`".utf8)
        precondition(
            names.allSatisfy { $0.utf8.allSatisfy { $0 < 0x80 && !withEquivalents.contains($0) } },
            "MemberNames compares by length first, which needs ASCII names without K, ; or `")
        var indicesByLength = Array(repeating: [Int](), count: (names.map(\.utf8.count).max() ?? 0) + 1)
        for (index, name) in names.enumerated() {
            indicesByLength[name.utf8.count].append(index)
        }
        self.indicesByLength = indicesByLength
        self.keys = keys
        let noField = Self.noField
        indicesByKeyPosition = (0..<(keys?.count ?? 0)).map { position in
            let key = keys?[position] ?? ""
            let length = key.utf8.count
            guard length < indicesByLength.count else { return noField }
            let index = indicesByLength[length].first { names[$0] == key }
            return index.map { UInt8(truncatingIfNeeded: $0) } ?? noField
        }
    }

    /// The index of the field named `key`, or nil when no field has that name.
    func index(of key: String) -> Int? {
        let length = key.utf8.count
        guard length < indicesByLength.count else { return nil }
        for index in indicesByLength[length] where names[index] == key {
            return index
        }
        return nil
    }

    /// The index of the field `key` names, or nil when no field has that name. A key found in
    /// the parser's key table costs no comparison when that table is `keys` (`isFromKeys`).
    func index(of key: JSONMemberKey, isFromKeys: Bool) -> Int? {
        guard isFromKeys, let position = key.tablePosition else { return index(of: key.key) }
        let index = indicesByKeyPosition[position]
        return index == Self.noField ? nil : Int(index)
    }
}
