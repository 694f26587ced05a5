import Foundation
import Mustache

/// A JSON value in Sendable form, so spec data can be a Swift Testing argument.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// Converts JSONSerialization output, telling booleans apart from numbers.
    init(foundation value: Any) {
        switch value {
        case let number as NSNumber:
            // JSONSerialization gives NSNumber for both; objCType "c" (char) marks booleans on
            // Linux and Darwin, while a plain `as? Bool` would also accept the numbers 0 and 1.
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .double(number.doubleValue)
            default: self = .int(number.intValue)
            }
        case let string as String:
            self = .string(string)
        case let array as [Any]:
            self = .array(array.map(JSONValue.init(foundation:)))
        case let object as [String: Any]:
            self = .object(object.mapValues(JSONValue.init(foundation:)))
        default:
            self = .null
        }
    }

    /// The value as a render context: native Swift values, with NSNull for null as
    /// JSONSerialization would give.
    var context: Any {
        switch self {
        case .null: return NSNull()
        case .bool(let bool): return bool
        case .int(let int): return int
        case .double(let double): return double
        case .string(let string): return string
        case .array(let array): return array.map(\.context)
        case .object(let object): return object.mapValues(\.context)
        }
    }

    /// The value as a table's value: objects as tables, lists of objects as lists of tables,
    /// lists of strings as lists of strings, anything else as its `context`.
    var tableContext: (value: Any?, tableValue: MustacheValue) {
        switch self {
        case .null: return (nil, MustacheValue(nil))
        case .bool(let bool): return (bool, .bool(bool))
        case .int(let int): return (int, .int(int))
        case .string(let string): return (string, .string(string))
        case .object(let object):
            let table = Self.table(object)
            return (table, .table(table))
        case .array(let array):
            if let objects = array.map(\.object) as? [[String: JSONValue]] {
                let tables = objects.map(Self.table)
                return (tables, .tables(tables))
            }
            if let strings = array.map(\.string) as? [String] { return (strings, .strings(strings)) }
            let list = array.map { $0.tableContext.value as Any }
            return (list, MustacheValue(list))
        case .double: return (context, MustacheValue(context))
        }
    }

    /// An object as a table of its members' `tableContext`s.
    static func table(_ object: [String: JSONValue]) -> MustacheTable {
        let names = object.keys.sorted()
        return MustacheTable(
            keys: MustacheTable.Keys(names),
            values: names.map { object[$0]?.tableContext.tableValue ?? .absent })
    }

    /// The string payload, or nil.
    var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The object payload, or nil.
    var object: [String: JSONValue]? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The array payload, or nil.
    var array: [JSONValue]? {
        if case .array(let array) = self { return array }
        return nil
    }
}
