/// Options that change how a `TemplateLibrary` compiles and renders.
public struct MustacheOptions: OptionSet, Sendable, Hashable {
    /// The raw bit mask.
    public let rawValue: Int

    /// Creates options from a raw bit mask.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Missing partials and parents are errors instead of rendering as nothing.
    public static let strict = MustacheOptions(rawValue: 1 << 0)
}
