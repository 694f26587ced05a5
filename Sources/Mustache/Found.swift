/// A value a name was found to have: in place in a table, or made for the lookup.
///
/// Most of a page's values sit in `MustacheTable`s, and copying one out retains what it holds
/// (a table: its keys and values, objects both render threads share, so each retain is an
/// atomic write the other core waits for). A stored value is read where it is instead.
enum Found {
    /// A value held by a table that the context stack keeps alive (the table is on the stack,
    /// or held by a value that is): valid for as long as that entry stays on the stack.
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

/// What a value holds under a key, as far as can be told without copying anything.
///
/// Kept apart from the lookups that make values (`Value.value(forKey:)`): with a call on any
/// path, the optimizer copied the value looked into before the switch, on every path.
enum Probe {
    /// A table holds the key's value here.
    case stored(UnsafePointer<MustacheValue>)
    /// The value has no such key, or no keys at all.
    case missing
    /// A dictionary or an object: ask `value(forKey:)`.
    case lookUp
}

extension Value {
    /// What this value holds under `key`, found in place when this value is a table.
    @inline(__always)
    func probe(_ key: Key) -> Probe {
        switch self {
        case .table(let table):
            guard let stored = table.storedValue(for: key) else { return .missing }
            return .stored(stored)
        case .tableItem(let table):
            guard let stored = table.pointee.storedValue(for: key) else { return .missing }
            return .stored(stored)
        case .dictionary, .optionalDictionary, .object:
            return .lookUp
        default:
            // Sections over text, flags and lists push these, and most lookups inside them
            // are for names further down the stack.
            return .missing
        }
    }
}
