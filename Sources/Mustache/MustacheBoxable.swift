/// A value of your own type that templates can look into by key.
///
/// Return nil from `mustacheValue(forKey:)` for unknown keys so that lookup continues in the
/// enclosing contexts, as it does for a dictionary without that key.
public protocol MustacheBoxable {
    /// The value for `key`, or nil when this value has no such key.
    func mustacheValue(forKey key: String) -> Any?

    /// Whether sections treat this value as false; the default is `false`.
    var mustacheIsFalsey: Bool { get }

    /// The elements a section iterates when this value is a list; the default, nil, means "not a list".
    var mustacheListElements: [Any]? { get }
}

extension MustacheBoxable {
    /// By default a value is truthy.
    public var mustacheIsFalsey: Bool { false }

    /// By default a value is not a list.
    public var mustacheListElements: [Any]? { nil }
}
