/// A compiled `{{$name}}…{{/name}}` block: a slot's default content or an override.
final class Block: Sendable {
    /// The block name.
    let name: String
    /// The content, with its own indentation removed when the block is standalone.
    let body: [Node]
    /// For standalone slots: indentation added to each line of whatever content fills the slot.
    let slotIndentation: [UInt8]?

    /// Creates a compiled block.
    init(name: String, body: [Node], slotIndentation: [UInt8]?) {
        self.name = name
        self.body = body
        self.slotIndentation = slotIndentation
    }
}
