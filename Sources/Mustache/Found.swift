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

    /// Whether the value is falsey, read in place (told as a section tells it, without the copy
    /// a call to `Value.isFalsey` on the stored value would make).
    var isFalsey: Bool {
        switch self {
        case .stored(let pointer):
            switch pointer.pointee.sectionPlan {
            case .skip: return true
            case .items, .inPlace: return false
            case .copy: return pointer.pointee.value?.isFalsey ?? true
            }
        case .made(let value): return value.isFalsey
        }
    }
}

/// What a value holds under a key, as far as can be told without copying anything.
///
/// Kept apart from the lookups that make values (`Value.value(forKey:)`): with a call on any
/// path, the optimizer copies the value looked into before the switch, on every path.
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
        case .stored(let value):
            // What a section over a stored value pushed: a table, looked into in place.
            switch value.pointee.value {
            case .table(let table)?:
                guard let stored = table.storedValue(for: key) else { return .missing }
                return .stored(stored)
            case .dictionary?, .optionalDictionary?, .object?:
                return .lookUp
            default:
                return .missing
            }
        case .dictionary, .optionalDictionary, .object:
            return .lookUp
        default:
            // Sections over text, flags and lists push these, and most lookups inside them
            // are for names further down the stack.
            return .missing
        }
    }
}

/// What a section does with a value a table holds, told without copying the value.
///
/// Reading a value in place takes a switch with no call on the path that reads it: with a call
/// there, the optimizer copies the value first (for a table, retains of its keys, which every
/// table of its shape shares on both render threads), since the call might change the table.
enum SectionPlan {
    /// Render the body once for each table of a list, each read where the list holds it.
    case items(UnsafeBufferPointer<MustacheTable>)
    /// Render the body once, with the value on the stack where its table holds it.
    case inPlace
    /// Render nothing: the value is falsey.
    case skip
    /// A list of other values or an object, rare in pages: copy it and render it as made.
    case copy
}

extension MustacheValue {
    /// What a section over this value does, told as `Value.isFalsey` tells falsey values.
    @inline(__always)
    var sectionPlan: SectionPlan {
        switch value {
        case .tableList(let items)?:
            // The buffer outlives the access it comes from, as `storedValue(for:)`'s pointer does.
            return items.isEmpty ? .skip : .items(items.withUnsafeBufferPointer { $0 })
        case .list?, .dictionaryList?, .stringList?, .object?:
            return .copy
        case .string(let string)?:
            return string.isEmpty ? .skip : .inPlace
        case .bytes(let bytes)?:
            return bytes.isEmpty ? .skip : .inPlace
        case .bool(let bool)?:
            return bool ? .inPlace : .skip
        case .int(let int)?:
            return int == 0 ? .skip : .inPlace
        case .double(let double)?:
            return double == 0 || double.isNaN ? .skip : .inPlace
        case .table?, .tableItem?, .stored?, .dictionary?, .optionalDictionary?, .other?:
            return .inPlace
        case .null?, nil:
            return .skip
        }
    }
}
