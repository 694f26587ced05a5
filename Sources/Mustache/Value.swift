/// A context value sorted once into the shapes rendering cares about, so that the
/// dynamic casting happens in one place and the common types are recognized quickly.
@usableFromInline enum Value {
    case null
    case bool(Bool)
    case string(String)
    /// UTF-8 text as bytes, as a renderer of its own (cmark) wrote it.
    case bytes([UInt8])
    case int(Int)
    case double(Double)
    case dictionary([String: Any])
    case optionalDictionary([String: Any?])
    case list([Any])
    case dictionaryList([[String: Any]])
    case stringList([String])
    case table(MustacheTable)
    case tableList([MustacheTable])
    /// One table of a list a section is repeating over, read where the list holds it: the
    /// section keeps the list for as long as the item is on the context stack. Only the
    /// renderer makes these, and none outlives the section.
    case tableItem(UnsafePointer<MustacheTable>)
    /// A value a table holds, read where the table holds it: a section over a table, a string or
    /// a flag found in a table pushes this, not a copy (a copy of a table or a long string is a
    /// retain, and the tables of a page are shared by its whole render). Only the renderer makes
    /// these, for values the context stack below keeps alive for as long as this one is on it.
    case stored(UnsafePointer<MustacheValue>)
    /// Boxed to keep `Value` small and cheap to copy; these cases are rare.
    case object(Box<any MustacheBoxable>)
    case other(Box<Any>)

    /// Classifies an optional value.
    init(_ value: Any?) {
        if let value {
            self.init(value)
        } else {
            self = .null
        }
    }

    /// Classifies a value; exact type checks first, since failed casts are the slow part.
    init(_ value: Any) {
        self = Value.classified(value)
    }

    private static func classified(_ value: Any) -> Value {
        // Opened explicitly: a generic parameter given an `Any` is bound to `Any` itself.
        _openExistential(value, do: classifyOpened)
    }

    /// Classifies the value `value` holds, its type opened: after an exact type check the value
    /// is reinterpreted, not cast, since even a successful dynamic cast goes through the runtime.
    fileprivate static func classify<Wrapped>(_ value: Wrapped) -> Value {
        let type = Wrapped.self
        if type == String.self {
            return .string(unsafeBitCast(value, to: String.self))
        } else if type == [String: Any].self {
            return .dictionary(unsafeBitCast(value, to: [String: Any].self))
        } else if type == MustacheTable.self {
            return .table(unsafeBitCast(value, to: MustacheTable.self))
        } else if type == [MustacheTable].self {
            return .tableList(unsafeBitCast(value, to: [MustacheTable].self))
        } else if type == Int.self {
            return .int(unsafeBitCast(value, to: Int.self))
        } else if type == Bool.self {
            return .bool(unsafeBitCast(value, to: Bool.self))
        } else if type == Double.self {
            return .double(unsafeBitCast(value, to: Double.self))
        } else if type == [Any].self {
            return .list(unsafeBitCast(value, to: [Any].self))
        } else if type == [[String: Any]].self {
            return .dictionaryList(unsafeBitCast(value, to: [[String: Any]].self))
        } else if type == [String].self {
            return .stringList(unsafeBitCast(value, to: [String].self))
        } else if type == [String: Any?].self {
            return .optionalDictionary(unsafeBitCast(value, to: [String: Any?].self))
        } else {
            return Value.classifySlowly(value)
        }
    }

    private static func classifySlowly(_ value: Any) -> Value {
        // Boxable values are the common case here; ask for them before the costlier casts.
        if let object = value as? any MustacheBoxable { return .object(Box(object)) }
        if let optional = value as? any AnyOptional { return Value(optional.wrappedAny) }
        if let dictionary = value as? [String: Any] { return .dictionary(dictionary) }
        if let list = value as? [Any] { return .list(list) }
        if let substring = value as? Substring { return .string(String(substring)) }
        // The engine does not import Foundation, yet JSONSerialization output is common input;
        // its booleans must be caught before the numeric casts below accept them as 0 and 1.
        switch String(describing: Swift.type(of: value)) {
        case "NSNull": return .null
        case "__NSCFBoolean": return .bool(value as? Bool ?? false)
        default: break
        }
        if let integer = value as? Int { return .int(integer) }
        if let double = value as? Double { return .double(double) }
        if let float = value as? Float { return .double(Double(float)) }
        if let integer = value as? any BinaryInteger {
            return Int(exactly: integer).map(Value.int) ?? .other(Box(value))
        }
        return .other(Box(value))
    }

    /// The value for `key` when this value has keys; nil when the key is absent.
    func value(forKey key: Key) -> Value? {
        switch self {
        case .table(let table):
            return table.value(for: key)
        case .tableItem(let table):
            return table.pointee.value(for: key)
        case .stored(let stored):
            return stored.pointee.value?.value(forKey: key)
        case .dictionary(let dictionary):
            guard let found = dictionary[key.name] else { return nil }
            return Value(found)
        case .optionalDictionary(let dictionary):
            guard let found = dictionary[key.name] else { return nil }
            return Value(found)
        case .object(let box):
            guard let found = box.value.mustacheValue(forKey: key.name) else { return nil }
            return Value(found)
        default:
            return nil
        }
    }

    /// Falsey values: nil, false, "", 0, NaN, empty lists, and objects that say so (like `!!data` in JS).
    var isFalsey: Bool {
        switch self {
        case .null: return true
        case .bool(let bool): return !bool
        case .string(let string): return string.isEmpty
        case .bytes(let bytes): return bytes.isEmpty
        case .int(let int): return int == 0
        case .double(let double): return double == 0 || double.isNaN
        case .list(let list): return list.isEmpty
        case .dictionaryList(let list): return list.isEmpty
        case .stringList(let list): return list.isEmpty
        case .tableList(let list): return list.isEmpty
        case .stored(let stored): return stored.pointee.value?.isFalsey ?? true
        case .object(let box):
            return box.value.mustacheIsFalsey || box.value.mustacheListElements?.isEmpty == true
        case .dictionary, .optionalDictionary, .table, .tableItem, .other: return false
        }
    }

    /// The value as a Swift value again, nil for null; what `MustacheTable`'s subscript returns.
    var any: Any? {
        switch self {
        case .null: return nil
        case .bool(let bool): return bool
        case .string(let string): return string
        case .bytes(let bytes): return String(decoding: bytes, as: UTF8.self)
        case .int(let int): return int
        case .double(let double): return double
        case .dictionary(let dictionary): return dictionary
        case .optionalDictionary(let dictionary): return dictionary
        case .list(let list): return list
        case .dictionaryList(let list): return list
        case .stringList(let list): return list
        case .table(let table): return table
        case .tableItem(let table): return table.pointee
        case .stored(let stored): return stored.pointee.value?.any
        case .tableList(let list): return list
        case .object(let box): return box.value
        case .other(let box): return box.value
        }
    }
}

/// A reference wrapper that keeps large existentials out of `Value`'s inline storage.
@usableFromInline final class Box<Wrapped> {
    /// The wrapped value.
    let value: Wrapped

    /// Wraps `value`.
    init(_ value: Wrapped) {
        self.value = value
    }
}

/// Lets an `Any` holding an `Optional` be unwrapped without knowing the wrapped type.
protocol AnyOptional {
    /// The wrapped value, or nil.
    var wrappedAny: Any? { get }
}

extension Optional: AnyOptional {
    /// The wrapped value, or nil.
    var wrappedAny: Any? {
        switch self {
        case .some(let wrapped): return wrapped
        case .none: return nil
        }
    }
}

/// `Value.classify` as a free function, which `_openExistential` can be handed.
private func classifyOpened<Wrapped>(_ value: Wrapped) -> Value {
    Value.classify(value)
}
