import Mustache

/// Writes one value of a Mustache table beside its key: `field("id", .string(id))`. A table's
/// fields are written once, as the array literal of its values, and the same literal gives the
/// table's keys (`MustacheTable.Keys(fields:)`): a value cannot end up under another key.
typealias TableField = (_ key: String, _ value: @autoclosure () -> MustacheValue) -> MustacheValue

extension MustacheTable.Keys {
    /// The keys `fields` writes, in order (their values are never made).
    static func of(_ fields: (TableField) -> [MustacheValue]) -> MustacheTable.Keys {
        var names: [String] = []
        _ = fields { key, _ in
            names.append(key)
            return .absent
        }
        return MustacheTable.Keys(names)
    }
}

extension MustacheTable {
    /// A table with the values `fields` writes under `keys`; debug builds check that each value
    /// is written beside the key `keys` has in its place.
    @inline(__always)
    init(keys: Keys, fields: (TableField) -> [MustacheValue]) {
        var index = 0
        let values = fields { key, value in
            assert(index < keys.names.count && keys.names[index] == key, "\(key) is not key \(index)")
            index += 1
            return value()
        }
        self.init(keys: keys, values: values)
    }
}
