/// A value a name was found to have: in place in a table, or made for the lookup.
///
/// Most of a page's values sit in `MustacheTable`s, and copying one out retains what it holds
/// (a table: its keys and values, objects both render threads share, so each retain is an
/// atomic write the other core waits for). A stored value is read where it is instead.
enum Found {
    /// A value held by a table that the context stack keeps alive until the next push or pop;
    /// read it before changing the stack.
    case stored(UnsafePointer<MustacheValue>)
    /// A value made by the lookup: from a dictionary, an object, or the context itself.
    case made(Value)

    /// The value, copied out when it is stored.
    var value: Value {
        switch self {
        case .stored(let pointer): return pointer.pointee.value ?? .null
        case .made(let value): return value
        }
    }

    /// Whether the value is falsey, read in place.
    var isFalsey: Bool {
        switch self {
        case .stored(let pointer): return pointer.pointee.value?.isFalsey ?? true
        case .made(let value): return value.isFalsey
        }
    }
}

extension Value {
    /// The value for `key` when this value has keys, in place when this value is a table; nil
    /// when the key is absent.
    func find(_ key: Key) -> Found? {
        switch self {
        case .table(let table):
            guard let stored = table.storedValue(for: key) else { return nil }
            return .stored(stored)
        case .dictionary, .optionalDictionary, .object:
            guard let made = value(forKey: key) else { return nil }
            return .made(made)
        default:
            // Skipped without a call: sections over text, flags and lists push these, and
            // most lookups inside them are for names further down the stack.
            return nil
        }
    }
}

extension MustacheValue {
    /// The value for `key` when this value has keys, in place when it is a table.
    @inline(__always)
    func find(_ key: Key) -> Found? {
        value?.find(key)
    }
}
