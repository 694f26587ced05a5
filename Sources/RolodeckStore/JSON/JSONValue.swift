/// A parsed JSON value that remembers where it starts, so every later complaint about it can
/// point at the exact line and column.
struct JSONValue: Sendable {
    /// The kinds of JSON value.
    enum Kind: Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// A number, with its text as written so messages can quote it.
        case number(Double, text: String)
        /// A string, decoded.
        case string(String)
        /// An array, in order.
        case array([JSONValue])
        /// An object's members, in the order written (duplicates kept, for the caller to report).
        case object([JSONMember])
    }

    /// What the value is.
    var kind: Kind
    /// Byte offset of the value's first character in the source.
    var offset: Int

    /// Creates a value at a byte offset.
    init(_ kind: Kind, offset: Int) {
        self.kind = kind
        self.offset = offset
    }

    /// The word a message uses for this kind of value: "a string", "an array", …
    var typeDescription: String {
        switch kind {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The string, when the value is one.
    var stringValue: String? {
        if case .string(let value) = kind { return value }
        return nil
    }
}

/// One `"key": value` pair of a JSON object.
struct JSONMember: Sendable {
    /// The key, decoded.
    var key: String
    /// Byte offset of the key's opening quote.
    var keyOffset: Int
    /// The value.
    var value: JSONValue

    /// Creates a member.
    init(key: String, keyOffset: Int, value: JSONValue) {
        self.key = key
        self.keyOffset = keyOffset
        self.value = value
    }
}

/// The key of an object's member read by `JSONParser.readObject`, before its value is read.
struct JSONMemberKey {
    /// The key, decoded.
    var key: String
    /// Byte offset of the key's opening quote.
    var keyOffset: Int
    /// How deep the member's value is parsed: the depth of the object it is in.
    var depth: Int
    /// The key's position in the parser's `JSONKeyTable`, when the table has it.
    var tablePosition: Int?
}
