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

    /// A table of every case of `Field` (at most 64, so a set of them fits in one integer).
    init() {
        fields = Array(Field.allCases)
        names = fields.map(\.rawValue)
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
}
