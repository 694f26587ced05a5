#if canImport(Glibc)
    import Glibc
#endif

/// The member names one kind of store object knows, each a case of `Field` whose raw value is
/// the name, matched against keys by their UTF-8 bytes.
///
/// A `switch` over key strings compares with Unicode rules, one case after another, and a
/// dictionary hashes every key; a store of 100,000 contacts has millions of keys. Byte equality
/// gives the same answer here, because every name is ASCII and has none of the three ASCII
/// characters (K ; `) that another code point is canonically equivalent to.
struct MemberNames<Field: CaseIterable & RawRepresentable<String>>: Sendable where Field: Sendable {
    /// The fields, in declaration order; a field's position is its index.
    let fields: [Field]
    /// The indices of the fields, grouped by the byte length of their names.
    private let indicesByLength: [[Int]]
    /// The names' bytes, by index.
    private let names: [[UInt8]]

    /// A table of every case of `Field` (at most 64, so a set of them fits in one integer).
    init() {
        fields = Array(Field.allCases)
        precondition(fields.count <= 64, "a MemberNames table holds at most 64 names")
        names = fields.map { Array($0.rawValue.utf8) }
        precondition(names.allSatisfy { name in name.allSatisfy { $0 < 0x80 && !Array("K;`".utf8).contains($0) } })
        var indicesByLength = Array(repeating: [Int](), count: (names.map(\.count).max() ?? 0) + 1)
        for (index, name) in names.enumerated() {
            indicesByLength[name.count].append(index)
        }
        self.indicesByLength = indicesByLength
    }

    /// The index of the field named `key`, or nil when no field has that name.
    func index(of key: String) -> Int? {
        let length = key.utf8.count
        guard length < indicesByLength.count else { return nil }
        let candidates = indicesByLength[length]
        guard !candidates.isEmpty else { return nil }
        return key.utf8.withContiguousStorageIfAvailable { bytes in
            candidates.first { names[$0].withUnsafeBufferPointer { memcmp($0.baseAddress!, bytes.baseAddress!, length) == 0 } }
        } ?? candidates.first { names[$0].elementsEqual(key.utf8) }
    }
}
