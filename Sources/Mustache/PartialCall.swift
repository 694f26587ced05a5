/// Which template a partial or parent tag renders.
enum PartialTarget: Sendable {
    /// A template of the library, by index.
    case resolved(Int)
    /// A static name the library does not hold: renders nothing.
    case missing(String)
    /// A dynamic name, resolved in the context at render time; the string is the name as written.
    case dynamic(Name, String)
}

/// A compiled `{{>name}}` tag.
final class PartialCall: Sendable {
    /// The template to render.
    let target: PartialTarget
    /// Whitespace before a standalone tag, added to every line of the partial.
    let indentation: [UInt8]
    /// Index of the template holding the tag, for error locations.
    let templateIndex: Int
    /// Byte offset of the tag, for error locations.
    let offset: Int

    /// Creates a compiled partial tag.
    init(target: PartialTarget, indentation: [UInt8], templateIndex: Int, offset: Int) {
        self.target = target
        self.indentation = indentation
        self.templateIndex = templateIndex
        self.offset = offset
    }
}

/// A compiled `{{<name}}…{{/name}}` tag with the blocks it overrides.
final class ParentCall: Sendable {
    /// The parent template, rendered like a partial.
    let call: PartialCall
    /// The blocks given inside the tag, one per name: a parent overrides a few, so finding one
    /// by comparing names costs less than hashing the name.
    let overrides: [Block]

    /// Creates a compiled parent tag; `overrides` must have distinct names.
    init(call: PartialCall, overrides: [Block]) {
        self.call = call
        self.overrides = overrides
    }

    /// The block this tag gives for the slot `name`, unretained (this call keeps it alive).
    @inline(__always)
    func override(named name: String) -> Unowned<Block>? {
        overrides.withUnsafeBufferPointer { overrides in
            for block in overrides where block.name == name { return Unowned(block) }
            return nil
        }
    }
}
