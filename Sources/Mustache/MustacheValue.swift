/// A value for a `MustacheTable`, sorted into the engine's shapes when it is made, so that
/// neither making the table nor rendering it casts anything at run time.
///
/// The makers are inlinable, so wrapping a word or two is done where the table is made, with
/// no call across the module boundary; a build makes hundreds of thousands of these.
///
/// The makers take what they wrap, so a value made for a table moves into it, without a
/// retain of the copy and a release of the caller's.
public struct MustacheValue {
    /// The value as the renderer sees it; nil for `absent`.
    @usableFromInline let value: Value?

    /// Wraps a classified value.
    @usableFromInline init(_ value: Value) {
        self.value = value
    }

    /// Makes `absent`.
    @usableFromInline init(absent: Void) {
        value = nil
    }

    /// No value: the table does not have the key, so lookup continues in the enclosing
    /// contexts (as with a key missing from a dictionary). Not the same as `MustacheValue(nil)`,
    /// a present null, which stops the lookup.
    ///
    /// A case of its own rather than an optional `MustacheValue`, because arrays of optionals
    /// are freed element by element through the runtime's generic `Optional` code.
    @inlinable public static var absent: MustacheValue {
        MustacheValue(absent: ())
    }

    /// Any context value (a dictionary, a list, a number, a `MustacheBoxable`), classified as
    /// the engine classifies the values of a `[String: Any]`.
    public init(_ value: Any?) {
        self.value = Value(value)
    }

    /// Text.
    @inlinable public static func string(_ string: consuming String) -> MustacheValue {
        MustacheValue(.string(string))
    }

    /// Text given as UTF-8 bytes, which are not checked again (HTML another renderer wrote);
    /// the same to templates as the `String` of those bytes: empty is falsey.
    @inlinable public static func bytes(_ bytes: consuming [UInt8]) -> MustacheValue {
        MustacheValue(.bytes(bytes))
    }

    /// A boolean: false is falsey.
    @inlinable public static func bool(_ bool: Bool) -> MustacheValue {
        MustacheValue(.bool(bool))
    }

    /// An integer: 0 is falsey.
    @inlinable public static func int(_ int: Int) -> MustacheValue {
        MustacheValue(.int(int))
    }

    /// A nested table, which dotted names and sections look into.
    @inlinable public static func table(_ table: consuming MustacheTable) -> MustacheValue {
        MustacheValue(.table(table))
    }

    /// A list of tables, which a section repeats over; empty is falsey.
    @inlinable public static func tables(_ tables: consuming [MustacheTable]) -> MustacheValue {
        MustacheValue(.tableList(tables))
    }

    /// A list of strings, which a section repeats over; empty is falsey.
    @inlinable public static func strings(_ strings: consuming [String]) -> MustacheValue {
        MustacheValue(.stringList(strings))
    }
}
